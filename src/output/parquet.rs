//! Parquet output for tables (cargo feature `parquet`, arrow-rs): one column per table
//! column, written in row groups of [`ROW_GROUP`] rows (issue 13).
//!
//! | column kind | Parquet / Arrow type | missing value |
//! |---|---|---|
//! | grid | `Utf8`, 81 digits (`0` = blank), as in CSV | null |
//! | whole number | `Int64` | null |
//! | real number | `Float64` | null |
//! | word or path | `Utf8` | null |
//! | flag | `Boolean` | null |
//! | `trace`'s steps | `List<Struct<...>>`, one struct per step ([`super::steps_arrow`]) | null |
//!
//! Pages are not compressed by default (`--parquet-compression snappy|zstd` compresses
//! them), and grid columns are PLAIN-encoded (no dictionary: nearly every
//! grid of a dataset is distinct, so a dictionary would be built and dropped in every row
//! group); the other columns keep a dictionary while it stays small ([`DICTIONARY_LIMIT`]),
//! which shrinks a path or a status repeated on every row. Why: with Snappy pages, writing
//! took 2.3x CSV's CPU time (2M `augment` rows; half of it in Snappy) for a file 36% smaller
//! (262 against 412 MB); uncompressed, with plain grids and small dictionaries, 1.05x (1.1x
//! on 1M rows; the bound: 1.3x). A dictionary on the grids cost 6% more time for a
//! larger file.
//! Every Parquet reader (pandas, polars, DuckDB, Spark, Hugging Face `datasets`) reads
//! uncompressed pages; to store the file smaller, write it with `--parquet-compression
//! snappy` or `zstd` (level 1), or rewrite it later
//! (`pyarrow.parquet.write_table(t, path, compression="snappy")`); our Parquet input reads
//! all three.

use std::io;
use std::sync::Arc;

use arrow_array::builder::{BooleanBuilder, Float64Builder, Int64Builder, StringBuilder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;
use parquet::schema::types::ColumnPath;

use super::steps_arrow::{self, StepsBuilder};
use super::table::{Column, Kind, ParquetCompression, TableWriter, Value};
use super::Target;
use crate::grid::CELLS;

/// Rows per row group (and per Arrow batch held in memory).
pub const ROW_GROUP: usize = 64 * 1024;

/// Text bytes (and the estimated bytes of nested steps) buffered in the Arrow builders
/// before they are written as a batch, whatever the row count: a row of `trace` holds a
/// whole puzzle's steps (kilobytes), so 64 Ki rows of it would hold hundreds of megabytes.
const BATCH_BYTES: usize = 32 << 20;

/// Encoded bytes of the row group in progress after which it is closed early, for the
/// same reason: the writer keeps a row group's pages in memory until it closes it.
const ROW_GROUP_BYTES: usize = 128 << 20;

/// Bytes of distinct values after which a column's dictionary gives way to PLAIN values for
/// the rest of the row group. arrow-rs's default, 1 MiB, hashed and interned about 30,000
/// distinct `augment` transform codes in every row group before giving up: at 64 KiB the
/// run takes 5-13% less CPU (2M and 1M rows) for a file no larger; a column of few values
/// (`rate`'s `input` and `status`) stays a dictionary, its file the same size.
const DICTIONARY_LIMIT: usize = 64 * 1024;

enum Builder {
    Text(StringBuilder),
    Int(Int64Builder),
    Float(Float64Builder),
    Bool(BooleanBuilder),
    Steps(Box<StepsBuilder>),
}

/// Buffers up to [`ROW_GROUP`] rows (or `BATCH_BYTES` of text) in Arrow builders, then
/// writes them; a row group closes at [`ROW_GROUP`] rows or `ROW_GROUP_BYTES` encoded.
pub(crate) struct ParquetTable {
    writer: ArrowWriter<Target>,
    schema: Arc<Schema>,
    builders: Vec<Builder>,
    rows: usize,
    /// Text bytes in the builders, and the estimated bytes of nested steps.
    bytes: usize,
}

fn builders(columns: &[Column]) -> Vec<Builder> {
    columns
        .iter()
        .map(|c| match c.kind {
            Kind::Grid | Kind::Text | Kind::Json | Kind::Bytes(_) => {
                Builder::Text(StringBuilder::new())
            }
            Kind::Int => Builder::Int(Int64Builder::new()),
            Kind::Float => Builder::Float(Float64Builder::new()),
            Kind::Bool => Builder::Bool(BooleanBuilder::new()),
            Kind::Steps => Builder::Steps(Box::new(StepsBuilder::new())),
        })
        .collect()
}

fn to_io(e: impl std::error::Error + Send + Sync + 'static) -> io::Error {
    io::Error::other(e)
}

impl ParquetTable {
    pub(crate) fn new(
        out: Target,
        columns: &'static [Column],
        compression: ParquetCompression,
    ) -> io::Result<ParquetTable> {
        let fields: Vec<Field> = columns
            .iter()
            .map(|c| {
                let t = match c.kind {
                    Kind::Grid | Kind::Text | Kind::Json | Kind::Bytes(_) => DataType::Utf8,
                    Kind::Int => DataType::Int64,
                    Kind::Float => DataType::Float64,
                    Kind::Bool => DataType::Boolean,
                    Kind::Steps => steps_arrow::data_type(),
                };
                Field::new(c.name, t, true)
            })
            .collect();
        let schema = Arc::new(Schema::new(fields));
        let mut props = WriterProperties::builder()
            .set_compression(match compression {
                ParquetCompression::None => Compression::UNCOMPRESSED,
                ParquetCompression::Snappy => Compression::SNAPPY,
                ParquetCompression::Zstd => Compression::ZSTD(ZstdLevel::default()),
            })
            .set_dictionary_page_size_limit(DICTIONARY_LIMIT)
            .set_max_row_group_row_count(Some(ROW_GROUP));
        for c in columns.iter().filter(|c| c.kind == Kind::Grid) {
            props = props.set_column_dictionary_enabled(ColumnPath::from(c.name), false);
        }
        let props = props.build();
        let writer = ArrowWriter::try_new(out, schema.clone(), Some(props)).map_err(to_io)?;
        Ok(ParquetTable {
            writer,
            schema,
            builders: builders(columns),
            rows: 0,
            bytes: 0,
        })
    }

    /// Writes the buffered rows as one batch.
    fn flush_batch(&mut self) -> io::Result<()> {
        if self.rows == 0 {
            return Ok(());
        }
        let arrays: Vec<ArrayRef> = self
            .builders
            .iter_mut()
            .map(|b| -> ArrayRef {
                match b {
                    Builder::Text(b) => Arc::new(b.finish()),
                    Builder::Int(b) => Arc::new(b.finish()),
                    Builder::Float(b) => Arc::new(b.finish()),
                    Builder::Bool(b) => Arc::new(b.finish()),
                    Builder::Steps(b) => b.finish(),
                }
            })
            .collect();
        let batch = RecordBatch::try_new(self.schema.clone(), arrays).map_err(to_io)?;
        self.writer.write(&batch).map_err(to_io)?;
        self.rows = 0;
        self.bytes = 0;
        if self.writer.in_progress_size() >= ROW_GROUP_BYTES {
            self.writer.flush().map_err(to_io)?;
        }
        Ok(())
    }
}

impl TableWriter for ParquetTable {
    fn write_row(&mut self, row: &[Value<'_>]) -> io::Result<()> {
        for (b, v) in self.builders.iter_mut().zip(row) {
            match (b, v) {
                (Builder::Text(b), Value::Grid(g)) => {
                    let mut digits = [0u8; CELLS];
                    g.write_digits(&mut digits);
                    b.append_value(std::str::from_utf8(&digits).expect("digits are ASCII"));
                }
                (Builder::Text(b), Value::Text(t) | Value::Json(t)) => {
                    self.bytes += t.len();
                    b.append_value(t);
                }
                (Builder::Text(b), v @ Value::Steps { .. }) => {
                    let text = v.json_text().expect("a JSON value");
                    self.bytes += text.len();
                    b.append_value(text);
                }
                (Builder::Text(b), v @ Value::Bytes(_)) => {
                    let mut text = Vec::new();
                    super::table::push_plain(&mut text, v);
                    b.append_value(String::from_utf8_lossy(&text));
                }
                (Builder::Int(b), Value::Int(n)) => {
                    b.append_value(i64::try_from(*n).unwrap_or(i64::MAX));
                }
                (Builder::Float(b), Value::Float(x)) => b.append_value(*x),
                (Builder::Bool(b), Value::Bool(x)) => b.append_value(*x),
                (
                    Builder::Steps(b),
                    Value::Steps {
                        trace,
                        placements_only,
                    },
                ) => self.bytes += b.append(trace, *placements_only),
                (Builder::Text(b), _) => b.append_null(),
                (Builder::Int(b), _) => b.append_null(),
                (Builder::Float(b), _) => b.append_null(),
                (Builder::Bool(b), _) => b.append_null(),
                (Builder::Steps(b), _) => b.append_null(),
            }
        }
        self.rows += 1;
        if self.rows >= ROW_GROUP || self.bytes >= BATCH_BYTES {
            self.flush_batch()?;
        }
        Ok(())
    }

    fn start_writeback(&self) {
        self.writer.inner().start_writeback();
    }

    fn finish(mut self: Box<Self>) -> io::Result<Target> {
        self.flush_batch()?;
        self.writer.into_inner().map_err(to_io)
    }
}
