//! CSV output: the input's columns as they are, plus a solution column and a status column.

use std::io;

use super::{SolutionWriter, Target};
use crate::input::{Layout, RawRecord};
use crate::record::SolvedRecord;

/// The field delimiter of CSV rows that echo an input's rows: the input's own (sniffed, or
/// given with `--delimiter`) for a CSV input, so a `;`- or tab-separated file keeps its
/// layout; `,` for JSON Lines and Parquet, which have none.
pub(crate) fn echo_delimiter(layout: &Layout) -> u8 {
    match layout {
        Layout::Csv { delimiter, .. } => *delimiter,
        Layout::Columns { .. } | Layout::Lines { .. } => b',',
    }
}

/// Writes each CSV record with two added columns: the 81-digit solution (empty when there
/// is none) and the status word. The added names are `solution` and `status`, suffixed with
/// `_2`, `_3`, ... where the input already has such a column. A row shorter than the header
/// is padded with empty fields, a longer one cut to it. Fields are separated by a CSV
/// input's own delimiter (sniffed or given with `--delimiter`), by `,` for JSON Lines and
/// Parquet.
pub struct CsvWriter {
    out: csv::Writer<Target>,
    row: csv::ByteRecord,
    /// Fields per input row (the header's, else the first row's): short rows are padded
    /// with empty fields so the added columns always line up.
    width: Option<usize>,
}

/// `base`, or `base_2`, `base_3`, ...: the first name not in `taken` (case-insensitive).
/// How every column added to an input's columns is named (`solve`'s `solution` and
/// `status`, `canon`'s `minlex`).
pub(crate) fn fresh_name(base: &str, taken: &[String]) -> String {
    let clash = |n: &str| taken.iter().any(|t| t.eq_ignore_ascii_case(n));
    if !clash(base) {
        return base.to_string();
    }
    (2..)
        .map(|i| format!("{base}_{i}"))
        .find(|n| !clash(n))
        .expect("some suffix is free")
}

impl CsvWriter {
    /// Writes the header of `layout`'s input (when it has one) to `out`, separated as the
    /// input is (see [`CsvWriter`]).
    ///
    /// # Errors
    /// Any I/O error.
    pub fn new(out: Target, layout: &Layout) -> io::Result<CsvWriter> {
        // Rows are written at the header's width (see `write`); flexible so that a record
        // without fields could never turn into a fatal write error.
        let mut out = csv::WriterBuilder::new()
            .flexible(true)
            .delimiter(echo_delimiter(layout))
            .from_writer(out);
        let header = layout.header();
        if let Some(h) = header {
            let mut names = h.to_vec();
            let sol = fresh_name("solution", &names);
            names.push(sol);
            let status = fresh_name("status", &names);
            names.push(status);
            out.write_record(&names)?;
        }
        Ok(CsvWriter {
            out,
            row: csv::ByteRecord::new(),
            width: header.map(<[String]>::len),
        })
    }

    /// The destination, to commit when the run is done.
    ///
    /// # Errors
    /// A flush error.
    pub fn into_target(self) -> io::Result<Target> {
        self.out
            .into_inner()
            .map_err(|e| io::Error::new(e.error().kind(), e.to_string()))
    }
}

/// Puts `fields` into `row`, cut or padded with empty fields to `width` (the header's, else
/// set here to the first row's): a ragged row (an `invalid` record) keeps the added
/// columns in their place for strict CSV readers.
pub(crate) fn fit_row(
    row: &mut csv::ByteRecord,
    fields: &csv::ByteRecord,
    width: &mut Option<usize>,
) {
    let width = match width {
        Some(w) => *w,
        // A record without fields (not JSON, say) tells nothing of the width.
        None if fields.is_empty() => 0,
        None => *width.insert(fields.len()),
    };
    row.clear();
    for f in fields.iter().take(width) {
        row.push_field(f);
    }
    while row.len() < width {
        row.push_field(b"");
    }
}

impl SolutionWriter for CsvWriter {
    fn write(&mut self, _: &str, raw: &RawRecord, res: &SolvedRecord) -> io::Result<()> {
        self.row.clear();
        if let Some(fields) = &raw.fields {
            // Its error in --stats gives the field count a ragged row had.
            fit_row(&mut self.row, fields, &mut self.width);
        }
        let mut digits = [0u8; 81];
        match &res.solution {
            Some(g) => {
                g.write_digits(&mut digits);
                self.row.push_field(&digits);
            }
            None => self.row.push_field(b""),
        }
        self.row.push_field(res.status.as_str().as_bytes());
        self.out.write_byte_record(&self.row)?;
        Ok(())
    }

    fn start_writeback(&self) {
        self.out.get_ref().start_writeback();
    }
}

#[cfg(test)]
mod tests {
    use super::fresh_name;

    #[test]
    fn added_column_names_never_clash() {
        let taken = vec![
            "quizzes".to_string(),
            "Solution".to_string(),
            "solution_2".to_string(),
        ];
        assert_eq!(fresh_name("solution", &taken), "solution_3");
        assert_eq!(fresh_name("status", &taken), "status");
    }
}
