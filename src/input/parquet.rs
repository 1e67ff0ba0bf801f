//! Parquet input (cargo feature `parquet`, arrow-rs; issue 13): the rows of a Parquet file,
//! such as `solve`, `augment` and `rate` write or the Hugging Face Sudoku sets.
//!
//! A Parquet file is recognised by its magic `PAR1` (or `--format parquet`) and read from a
//! file only: the format keeps its index at the end, so standard input, pipes and compressed
//! copies are refused with a message. The columns are the schema's; the puzzle and solution
//! columns are chosen as a CSV header's ([`super::sniff::named_columns`]).
//!
//! **Positions**: `record` is counted as for every input; `line` is the 1-based **row** of
//! the file (row 1 is the first row of the first row group), so a message `path:line` names
//! the row. `--shard K/N` reads rows `⌊(K−1)·R/N⌋ .. ⌊K·R/N⌋` of the R rows.
//!
//! **Values as text** (the record's fields, which CSV output copies): strings and binary as
//! they are, whole numbers and booleans as written in CSV, a list of whole numbers 0-9 as
//! their digits (`[0,0,3,...]` is a grid; other lists as `[a,b,...]`), null as an empty
//! field; every other type (reals, dictionaries such as pandas' categories, dates,
//! timestamps, decimals, structs) as arrow's own text for it ([`arrow_cast::display`]: a
//! real `1.0` as `1.0`, as pandas writes it to CSV). The puzzle and solution columns must be
//! strings, binary or lists of whole numbers, or dictionaries of those. A null or missing
//! puzzle is one invalid record; a null solution means the record carries none.

use std::fs::File;
use std::io::{self, Write};

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Int16Type, Int32Type, Int64Type, Int8Type, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_cast::display::{ArrayFormatter, FormatOptions};
use arrow_schema::DataType;
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};

use super::jsonl::JsonColumns;
use super::layout::{ColumnFormat, Layout};
use super::range::Shard;
use super::sniff::named_columns;
use super::{InputError, RawRecord, ReadOptions};

/// Rows per Arrow batch read.
const BATCH: usize = 8192;

/// Rows looked at to settle a column by content.
const SAMPLE_ROWS: usize = 20;

/// The rows of one Parquet file (or of its shard), read in batches.
pub(crate) struct ParquetRows {
    reader: ParquetRecordBatchReader,
    batch: Option<RecordBatch>,
    /// Next row of `batch` to read.
    in_batch: usize,
    columns: JsonColumns,
    /// 0-based row of the file the next record comes from.
    row: u64,
    /// Rows in the whole file.
    pub(crate) total: u64,
    /// Row of the file where the read starts (a shard's first row).
    pub(crate) first: u64,
}

fn layout_err(path: &str, e: impl std::fmt::Display) -> InputError {
    InputError::layout(path, format!("not a readable Parquet file: {e}"))
}

fn builder(path: &str) -> Result<ParquetRecordBatchReaderBuilder<File>, InputError> {
    let file = File::open(path).map_err(|source| InputError::Io {
        path: path.to_string(),
        source,
    })?;
    ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| layout_err(path, e))
}

/// Whether a column of type `t` can hold a puzzle or a solution: strings, binary, lists of
/// whole numbers, or dictionaries of those. A whole number cannot: the widest holds 20
/// digits, not 81, so such a column is refused once, not read as `1 character, expected
/// 81` on every row.
fn holds_grids(t: &DataType) -> bool {
    match t {
        DataType::Dictionary(_, values) => holds_grids(values),
        DataType::List(f) | DataType::LargeList(f) | DataType::FixedSizeList(f, _) => {
            f.data_type().is_integer()
        }
        t => matches!(
            t,
            DataType::Utf8
                | DataType::LargeUtf8
                | DataType::Utf8View
                | DataType::Binary
                | DataType::LargeBinary
                | DataType::BinaryView
                | DataType::FixedSizeBinary(_)
        ),
    }
}

/// The rows of `path`, and its layout.
///
/// # Errors
/// [`InputError::Io`] when the file cannot be opened, [`InputError::Layout`] when it is not a
/// readable Parquet file, when a CSV-only option is given, or when the puzzle (or solution)
/// column cannot be found or has a type that holds no grid.
pub(crate) fn open(path: &str, opts: &ReadOptions) -> Result<(ParquetRows, Layout), InputError> {
    for (given, flag) in [
        (opts.layout.no_header, "--no-header"),
        (opts.layout.delimiter.is_some(), "--delimiter"),
    ] {
        if given {
            let why = format!("{flag} is for CSV, but the input is Parquet");
            return Err(InputError::layout(path, why));
        }
    }
    let b = builder(path)?;
    let schema = b.schema().clone();
    let header: Vec<String> = schema.fields().iter().map(|f| f.name().clone()).collect();
    let total = u64::try_from(b.metadata().file_metadata().num_rows()).unwrap_or(0);
    let sample = builder(path)?
        .with_batch_size(SAMPLE_ROWS)
        .with_limit(SAMPLE_ROWS)
        .build()
        .map_err(|e| layout_err(path, e))?
        .next()
        .transpose()
        .map_err(|e| layout_err(path, e))?;
    let rows: Vec<Vec<Vec<u8>>> = sample.map_or_else(Vec::new, |batch| {
        (0..batch.num_rows())
            .map(|i| {
                let cell = |a: &ArrayRef| {
                    let mut t = Vec::new();
                    push_cell(a.as_ref(), i, &mut t, &mut None);
                    t
                };
                batch.columns().iter().map(cell).collect()
            })
            .collect()
    });
    let (puzzle, solution) = if header.is_empty() {
        (0, None)
    } else {
        named_columns(&header, &rows, &opts.layout).map_err(|r| InputError::layout(path, r))?
    };
    for i in std::iter::once(puzzle).chain(solution) {
        if let Some(f) = schema
            .fields()
            .get(i)
            .filter(|f| !holds_grids(f.data_type()))
        {
            let number = if f.data_type().is_integer() {
                " (a whole number has at most 20 digits: were the puzzles stored as numbers?)"
            } else {
                ""
            };
            let why = format!(
                "column {:?} is of type {}, which holds no grid{number}: expected strings of \
                 81 cells or lists of 81 whole numbers",
                f.name(),
                f.data_type()
            );
            return Err(InputError::layout(path, why));
        }
    }
    let (first, end) = rows_of(opts.shard, total);
    let reader = b
        .with_batch_size(BATCH)
        .with_offset(first as usize)
        .with_limit((end - first) as usize)
        .build()
        .map_err(|e| layout_err(path, e))?;
    let layout = Layout::Columns {
        format: ColumnFormat::Parquet,
        header,
        puzzle,
        solution,
    };
    let columns = JsonColumns::of(&layout).expect("a columns layout");
    let rows = ParquetRows {
        reader,
        batch: None,
        in_batch: 0,
        columns,
        row: first,
        total,
        first,
    };
    Ok((rows, layout))
}

/// Rows `[first, end)` of `total` that `shard` reads.
fn rows_of(shard: Option<Shard>, total: u64) -> (u64, u64) {
    let Some(s) = shard else {
        return (0, total);
    };
    let cut = |i: u32| (u128::from(total) * u128::from(i) / u128::from(s.count.max(1))) as u64;
    (cut(s.index - 1), cut(s.index))
}

impl ParquetRows {
    /// Appends up to `max - out.len()` records to `out`, numbered from `*record` on.
    ///
    /// # Errors
    /// [`InputError::Io`] when a row group cannot be read or decoded.
    pub(crate) fn fill(
        &mut self,
        path: &str,
        out: &mut Vec<RawRecord>,
        max: usize,
        record: &mut u64,
    ) -> Result<(), InputError> {
        while out.len() < max {
            let batch = match &self.batch {
                Some(b) if self.in_batch < b.num_rows() => b,
                _ => match self.reader.next() {
                    None => return Ok(()),
                    Some(b) => {
                        let b = b.map_err(|e| InputError::Io {
                            path: path.to_string(),
                            source: io::Error::other(e),
                        })?;
                        self.in_batch = 0;
                        self.batch.insert(b)
                    }
                },
            };
            // Arrow's formatter of each column whose type is shown through it, built at
            // its first cell and kept for the batch (not built again for every cell).
            let mut shown: Vec<Shown<'_>> = batch.columns().iter().map(|_| None).collect();
            let mut text = Vec::with_capacity(96);
            while out.len() < max && self.in_batch < batch.num_rows() {
                let i = self.in_batch;
                let mut fields = csv::ByteRecord::new();
                for (a, slot) in batch.columns().iter().zip(&mut shown) {
                    text.clear();
                    push_cell(a.as_ref(), i, &mut text, slot);
                    fields.push_field(&text);
                }
                let present = |c: usize| batch.column(c).is_valid(i);
                let (puzzle, solution, fields) = self.columns.record(fields, present);
                self.row += 1;
                out.push(RawRecord {
                    record: *record,
                    line: self.row,
                    puzzle,
                    solution,
                    fields,
                });
                *record += 1;
                self.in_batch += 1;
            }
        }
        Ok(())
    }

    /// Rows read so far, from the first.
    pub(crate) fn read(&self) -> u64 {
        self.row - self.first
    }
}

/// Arrow's formatter for a column shown through it (see [`push_cell`]): `None` until its
/// first such cell, then the formatter, or the error that says arrow cannot show the type.
type Shown<'a> = Option<Result<ArrayFormatter<'a>, arrow_schema::ArrowError>>;

/// Appends row `i` of `a` as text (see the module documentation) to `out`; nothing for
/// null. A type read by arrow's own text goes through `shown`, the column's formatter.
fn push_cell<'a>(a: &'a dyn Array, i: usize, out: &mut Vec<u8>, shown: &mut Shown<'a>) {
    macro_rules! number {
        ($t:ty) => {{
            // Writing into a Vec cannot fail.
            let _ = write!(out, "{}", a.as_primitive::<$t>().value(i));
        }};
    }
    if a.is_null(i) {
        return;
    }
    match a.data_type() {
        DataType::Utf8 => out.extend_from_slice(a.as_string::<i32>().value(i).as_bytes()),
        DataType::LargeUtf8 => out.extend_from_slice(a.as_string::<i64>().value(i).as_bytes()),
        DataType::Utf8View => out.extend_from_slice(a.as_string_view().value(i).as_bytes()),
        DataType::Binary => out.extend_from_slice(a.as_binary::<i32>().value(i)),
        DataType::LargeBinary => out.extend_from_slice(a.as_binary::<i64>().value(i)),
        DataType::BinaryView => out.extend_from_slice(a.as_binary_view().value(i)),
        DataType::FixedSizeBinary(_) => out.extend_from_slice(a.as_fixed_size_binary().value(i)),
        DataType::Boolean => {
            let b = a.as_boolean().value(i);
            out.extend_from_slice(if b { b"true" } else { b"false" });
        }
        DataType::Int8 => number!(Int8Type),
        DataType::Int16 => number!(Int16Type),
        DataType::Int32 => number!(Int32Type),
        DataType::Int64 => number!(Int64Type),
        DataType::UInt8 => number!(UInt8Type),
        DataType::UInt16 => number!(UInt16Type),
        DataType::UInt32 => number!(UInt32Type),
        DataType::UInt64 => number!(UInt64Type),
        DataType::List(_) => push_list(a.as_list::<i32>().value(i).as_ref(), out),
        DataType::LargeList(_) => push_list(a.as_list::<i64>().value(i).as_ref(), out),
        DataType::FixedSizeList(..) => push_list(a.as_fixed_size_list().value(i).as_ref(), out),
        // A type arrow cannot show (none in arrow 60's Parquet reader) is an empty field.
        _ => {
            let options = const { &FormatOptions::new() };
            let f = shown.get_or_insert_with(|| ArrayFormatter::try_new(a, options));
            if let Ok(f) = f {
                let _ = write!(out, "{}", f.value(i));
            }
        }
    }
}

/// A list's values: their digits when each is one digit (a grid), else `[a,b,...]`.
fn push_list(values: &dyn Array, out: &mut Vec<u8>) {
    let items: Vec<Vec<u8>> = (0..values.len())
        .map(|j| {
            let mut t = Vec::new();
            push_cell(values, j, &mut t, &mut None);
            t
        })
        .collect();
    if items.iter().all(|t| t.len() == 1 && t[0].is_ascii_digit()) {
        out.extend(items.iter().map(|t| t[0]));
    } else {
        out.push(b'[');
        out.extend_from_slice(&items.join(&b","[..]));
        out.push(b']');
    }
}

/// SHA-256 of the file at `path`, lowercase hex (read once more, in blocks).
///
/// # Errors
/// A read error.
pub(crate) fn file_sha256(path: &str) -> io::Result<String> {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    io::copy(&mut File::open(path)?, &mut h)?;
    Ok(super::hex(&h.finalize()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_every_row_once() {
        for total in [0, 1, 7, 100] {
            for n in 1..=9 {
                let mut next = 0;
                for k in 1..=n {
                    let (a, b) = rows_of(Some(Shard { index: k, count: n }), total);
                    assert_eq!(a, next);
                    next = b;
                }
                assert_eq!(next, total);
            }
        }
        assert_eq!(rows_of(None, 5), (0, 5));
    }
}
