//! Output in the input's layout, for `canon` and `dedup`: CSV rows as read (separated by
//! the input's delimiter; a ragged one cut or padded to the header's width), optionally with
//! one added column; lines as the added value, or as the record's own line.

use std::io::Write;

use anyhow::{Context, Result};

use crate::input::{Layout, RawRecord};
use crate::output::{cannot_write, commit_outputs, echo_delimiter, fit_row, fresh_name, Target};

/// Writes records in their input's layout.
pub(crate) enum RowWriter {
    /// One line per record.
    Lines {
        /// Where to.
        out: Target,
        /// Write the added value (`true`) or the record's text.
        added: bool,
    },
    /// Every input field, then the added value when there is an added column, separated by
    /// the input's delimiter ([`echo_delimiter`]).
    Csv {
        /// Where to.
        w: Box<csv::Writer<Target>>,
        /// Fields per input row (the header's, else the first row's): every row is cut or
        /// padded to it, a record that is not a puzzle too ([`fit_row`]).
        width: Option<usize>,
        /// The row being written, reused.
        row: csv::ByteRecord,
    },
}

impl RowWriter {
    /// Opens `path` for the layout of the inputs (lines when there is none). `added`: the
    /// name of a column added to a CSV header, suffixed `_2`, `_3`, ... when the header has
    /// it already ([`fresh_name`]; a lines output then carries only the added value); `None`
    /// writes records as they are. `what`: the message of a failure to
    /// write it ([`cannot_write`]).
    pub(crate) fn new(
        layout: Option<&Layout>,
        path: &str,
        added: Option<&str>,
        what: &str,
    ) -> Result<Self> {
        let target = Target::create(path).context(what.to_string())?;
        Ok(match layout {
            Some(l @ (Layout::Csv { .. } | Layout::Columns { .. })) => {
                let mut w = csv::WriterBuilder::new()
                    .flexible(true)
                    .delimiter(echo_delimiter(l))
                    .from_writer(target);
                if let Some(h) = l.header() {
                    let mut names = h.to_vec();
                    // Named as `solve` names its added columns: `minlex_2` beside an
                    // input's own `minlex`.
                    let added = added.map(|a| fresh_name(a, h));
                    names.extend(added);
                    w.write_record(&names).context(what.to_string())?;
                }
                RowWriter::Csv {
                    w: Box::new(w),
                    width: l.header().map(<[String]>::len),
                    row: csv::ByteRecord::new(),
                }
            }
            _ => RowWriter::Lines {
                out: target,
                added: added.is_some(),
            },
        })
    }

    /// Writes `raw`, with `value` in the added column. Lines written as they are are the
    /// record's line as read, without blanks at its ends and ended by `\n` (the records
    /// must have been read with `keep_text`).
    pub(crate) fn write(&mut self, raw: &RawRecord, value: &[u8]) -> Result<()> {
        let fields = raw.fields.as_ref();
        match self {
            RowWriter::Csv { w, width, row } => {
                fit_row(row, fields.unwrap_or(&csv::ByteRecord::new()), width);
                if !value.is_empty() {
                    row.push_field(value);
                }
                w.write_byte_record(row)?;
            }
            RowWriter::Lines { out, added: true } => {
                out.write_all(value)?;
                out.write_all(b"\n")?;
            }
            RowWriter::Lines { out, added: false } => {
                // The whole line, as a CSV row is kept whole: a rating, hash or label
                // after the puzzle is part of the record.
                out.write_all(fields.and_then(|f| f.get(2)).unwrap_or(b""))?;
                out.write_all(b"\n")?;
            }
        }
        Ok(())
    }

    /// The destination, to commit when the run is done.
    ///
    /// # Errors
    /// A flush error.
    pub(crate) fn into_target(self) -> Result<Target> {
        Ok(match self {
            RowWriter::Lines { out, .. } => out,
            RowWriter::Csv { w, .. } => w.into_inner().map_err(|e| e.into_error())?,
        })
    }
}

/// A CSV written beside the rows (`canon --stats`, `dedup --groups`): opened with its
/// `header` when `path` is given, with the message of a failure to write it
/// ([`cannot_write`] with `flag`).
///
/// # Errors
/// The file cannot be created or the header written.
pub(crate) fn side_csv(
    path: Option<&str>,
    flag: &str,
    header: &[&str],
) -> Result<Option<(csv::Writer<Target>, String)>> {
    path.map(|p| {
        let what = cannot_write(p, flag);
        let mut w = csv::Writer::from_writer(Target::create(p).context(what.clone())?);
        w.write_record(header).context(what.clone())?;
        Ok((w, what))
    })
    .transpose()
}

/// Commits the rows' output and the side CSV, when there is one, each with the message of
/// a failure: renamed into place together at the end of the run.
///
/// # Errors
/// A flush or rename that fails, with its message.
pub(crate) fn commit_rows(
    rows: (Target, String),
    side: Option<(csv::Writer<Target>, String)>,
) -> Result<()> {
    let mut targets = vec![rows];
    if let Some((w, what)) = side {
        let t = w.into_inner().map_err(|e| e.into_error());
        targets.push((t.context(what.clone())?, what));
    }
    commit_outputs(targets, ())
}
