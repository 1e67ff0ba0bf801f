//! JSON Lines output for tables: one object per row, keys in column order, grids as strings
//! of 81 digits (`0` = blank), a missing value as `null`.

use std::io::{self, Write};

use super::table::{push_plain, Column, TableWriter, Value};
use super::Target;

/// Writes each row as one JSON object on its own line.
pub(crate) struct JsonlTable {
    out: Target,
    columns: &'static [Column],
    line: Vec<u8>,
}

impl JsonlTable {
    pub(crate) fn new(out: Target, columns: &'static [Column]) -> JsonlTable {
        JsonlTable {
            out,
            columns,
            line: Vec::with_capacity(512),
        }
    }
}

impl TableWriter for JsonlTable {
    fn write_row(&mut self, row: &[Value<'_>]) -> io::Result<()> {
        self.line.clear();
        self.line.push(b'{');
        for (i, (col, v)) in self.columns.iter().zip(row).enumerate() {
            if i > 0 {
                self.line.push(b',');
            }
            serde_json::to_writer(&mut self.line, col.name)?;
            self.line.push(b':');
            match v {
                Value::Null => self.line.extend_from_slice(b"null"),
                Value::Float(x) if !x.is_finite() => self.line.extend_from_slice(b"null"),
                Value::Text(t) => serde_json::to_writer(&mut self.line, t)?,
                Value::Json(_) | Value::Steps { .. } => {
                    let text = v.json_text().expect("a JSON value");
                    self.line.extend_from_slice(text.as_bytes());
                }
                Value::Bytes(b) => {
                    self.line.push(b'[');
                    for (i, n) in b.iter().enumerate() {
                        if i > 0 {
                            self.line.push(b',');
                        }
                        self.line
                            .extend_from_slice(itoa::Buffer::new().format(*n).as_bytes());
                    }
                    self.line.push(b']');
                }
                Value::Grid(_) => {
                    self.line.push(b'"');
                    push_plain(&mut self.line, v);
                    self.line.push(b'"');
                }
                v => push_plain(&mut self.line, v),
            }
        }
        self.line.extend_from_slice(b"}\n");
        self.out.write_all(&self.line)
    }

    fn start_writeback(&self) {
        self.out.start_writeback();
    }

    fn finish(self: Box<Self>) -> io::Result<Target> {
        Ok(self.out)
    }
}
