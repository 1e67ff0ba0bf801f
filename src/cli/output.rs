//! Flags and checks shared by every command that writes files: the table format, and the
//! refusal of two outputs that name one file or of an output that is an input.

use clap::{Args, ValueEnum};

use sudoku_batch::output::table::{unwritten_format, ParquetCompression, TableFormat};

/// Table output format for `--output-format`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum TableFormatArg {
    /// Comma-separated values with a header row.
    Csv,
    /// Text lines without a header (what a line holds: see above).
    Txt,
    /// JSON Lines: one object per row.
    Jsonl,
    /// numpy .npz: one array per column, grids as N×81 uint8 (0 = blank).
    Npz,
    /// Apache Parquet (only in a build with the cargo feature `parquet`).
    Parquet,
}

impl From<TableFormatArg> for TableFormat {
    fn from(f: TableFormatArg) -> TableFormat {
        match f {
            TableFormatArg::Csv => TableFormat::Csv,
            TableFormatArg::Txt => TableFormat::Txt,
            TableFormatArg::Jsonl => TableFormat::Jsonl,
            TableFormatArg::Npz => TableFormat::Npz,
            TableFormatArg::Parquet => TableFormat::Parquet,
        }
    }
}

/// `--parquet-compression`, beside `--output-format` in every command that writes a table.
#[derive(Debug, Args)]
pub struct ParquetArgs {
    /// How a Parquet output's pages are compressed [default: none]: none is the fastest to
    /// write, snappy makes the file about a third smaller, zstd (level 1) smaller still.
    /// Refused for an output that is not Parquet.
    #[arg(long, value_enum, value_name = "CODEC")]
    pub parquet_compression: Option<ParquetCompressionArg>,
}

/// Codec for `--parquet-compression`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ParquetCompressionArg {
    /// Uncompressed pages.
    None,
    /// Snappy.
    Snappy,
    /// Zstandard, level 1.
    Zstd,
}

impl ParquetArgs {
    /// The codec for the output at `path` (`-o`) in `format` (`--output-format`):
    /// uncompressed unless the flag is given. The flag is refused, naming the output's
    /// format, unless that output is Parquet ([`TableFormat::of_output`]): a flag the
    /// output would ignore must not be dropped silently (also `none`, and in a build
    /// without the `parquet` feature).
    pub fn for_output(
        self,
        path: &str,
        format: Option<TableFormat>,
    ) -> Result<ParquetCompression, String> {
        let Some(codec) = self.parquet_compression else {
            return Ok(ParquetCompression::None);
        };
        let written = match TableFormat::of_output(path, format) {
            Some(TableFormat::Parquet) => {
                return Ok(match codec {
                    ParquetCompressionArg::None => ParquetCompression::None,
                    ParquetCompressionArg::Snappy => ParquetCompression::Snappy,
                    ParquetCompressionArg::Zstd => ParquetCompression::Zstd,
                })
            }
            Some(f) => format!("is written as {}", f.name()),
            None => "is not Parquet".to_string(),
        };
        Err(format!(
            "--parquet-compression applies to a Parquet output only, and -o {path} {written}: \
             drop the flag, or write Parquet (-o NAME.parquet or --output-format parquet)"
        ))
    }
}

/// Refuses an output written as CSV only (or, for `dedup -o`, CSV rows or lines as read)
/// but named as another table format (`.jsonl`, `.npz`, `.parquet`:
/// [`TableFormat::of_output`]), which would silently hold CSV (also in
/// a build without the `parquet` feature). `written`: what the output holds, for the message.
pub fn csv_only(flag: &str, path: Option<&String>, written: &str) -> Result<(), String> {
    let Some(path) = path else { return Ok(()) };
    // `.json` is a format this tool writes (reports, `bench --export-json`), so the
    // refusal says what this output is instead.
    if matches!(unwritten_format(path), Some((_, Some(TableFormat::Jsonl)))) {
        return Err(format!(
            "{flag} {path}: {written}, not one JSON document: name it .csv"
        ));
    }
    match TableFormat::of_output(path, None) {
        Some(f @ (TableFormat::Jsonl | TableFormat::Npz | TableFormat::Parquet)) => Err(format!(
            "{flag} {path}: {written}, not {}: name it .csv and convert that file, e.g. with pandas",
            f.name()
        )),
        _ => Ok(()),
    }
}

/// Refuses a document that is not a table (`bench`'s `--export-markdown` and
/// `--export-json`, `solve`/`verify --report`, `report merge OUT`; `written`: what it
/// holds, `own`: its own extension) named as a table
/// format (`.csv`, `.jsonl`, `.npz`, `.parquet`: [`TableFormat::of_output`]), which would
/// silently hold the document. `.txt` is taken: it is text.
pub fn not_a_table(
    flag: &str,
    path: Option<&String>,
    written: &str,
    own: &str,
) -> Result<(), String> {
    let Some(path) = path else { return Ok(()) };
    match TableFormat::of_output(path, None) {
        Some(TableFormat::Txt) | None => Ok(()),
        Some(f) => Err(format!(
            "{flag} {path}: written as {written}, not {}: name it .{own}",
            f.name()
        )),
    }
}

/// Refuses two outputs that name one file: each is renamed into place at the end, so the
/// last rename would silently replace the other (issue 5). Devices such as `/dev/null`
/// may be shared; `-` is checked by the caller.
pub fn same_file_outputs(outputs: &[(&str, Option<&String>)]) -> Result<(), String> {
    let key = resolved;
    let files: Vec<(&str, &String)> = outputs
        .iter()
        .filter_map(|&(flag, p)| p.map(|p| (flag, p)))
        .filter(|(_, p)| *p != "-" && !std::fs::metadata(p).is_ok_and(|m| !m.is_file()))
        .collect();
    for (i, (a, pa)) in files.iter().enumerate() {
        if let Some((b, _)) = files[i + 1..].iter().find(|(_, pb)| key(pa) == key(pb)) {
            return Err(format!(
                "{a} and {b} both write {pa}: one would replace the other; give each its own file"
            ));
        }
    }
    // `-` beside a path that is standard output itself (`/dev/stdout`, or the file stdout
    // is redirected to): both would write into it, mixed. A terminal may be shared.
    if let Some((dash, _)) = outputs.iter().find(|(_, p)| p.is_some_and(|p| p == "-")) {
        if let Some(stdout) = stdout_file() {
            for &(flag, p) in outputs {
                let Some(p) = p.filter(|p| *p != "-") else {
                    continue;
                };
                if std::fs::metadata(p).is_ok_and(|m| same_file(&m, &stdout)) {
                    return Err(format!(
                        "{dash} and {flag} {p} both write standard output; give {flag} a file"
                    ));
                }
            }
        }
    }
    Ok(())
}

/// What standard output is, when it is not a terminal or another character device.
fn stdout_file() -> Option<std::fs::Metadata> {
    use std::os::fd::AsFd;
    use std::os::unix::fs::FileTypeExt;
    let m = stream_metadata(std::io::stdout().as_fd())?;
    (!m.file_type().is_char_device()).then_some(m)
}

/// The metadata (`fstat`) of the file behind a standard stream's descriptor.
fn stream_metadata(fd: std::os::fd::BorrowedFd) -> Option<std::fs::Metadata> {
    let fd = fd.try_clone_to_owned().ok()?;
    std::fs::File::from(fd).metadata().ok()
}

fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

/// The file `p` names, as an absolute path with symlinks resolved: the file itself when it
/// exists, else its directory's resolved path joined with its name, so two spellings of a
/// file not yet created (`b.txt`, `./b.txt`, `/abs/dir/b.txt`, a dangling symlink to it)
/// compare equal.
fn resolved(p: &str) -> std::path::PathBuf {
    let mut path = std::path::PathBuf::from(p);
    // A dangling symlink names the file it would create: follow it (a bounded number of
    // links, as the kernel does).
    for _ in 0..40 {
        if let Ok(c) = std::fs::canonicalize(&path) {
            return c;
        }
        let Ok(target) = std::fs::read_link(&path) else {
            break;
        };
        path = match path.parent() {
            Some(dir) if target.is_relative() => dir.join(target),
            _ => target,
        };
    }
    let path = path.as_path();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    match (std::fs::canonicalize(dir), path.file_name()) {
        (Ok(d), Some(name)) => d.join(name),
        _ => path.to_path_buf(),
    }
}

/// Refuses an empty path (see [`empty_path`]), then an output that is one of the inputs
/// (the same file by device and inode, so `./in.txt`, a symlink or a hard link count too,
/// and `-` when standard input is that file, as in `canon - -o in.txt < in.txt`):
/// renaming the output into place would replace the puzzles with the results.
pub fn output_is_input(
    inputs: &[String],
    outputs: &[(&str, Option<&String>)],
) -> Result<(), String> {
    empty_path(inputs, outputs)?;
    match input_written(inputs, outputs) {
        Some((flag, out, "-")) => Err(format!(
            "{flag} {out} is standard input (the file it reads): it would be overwritten; write \
             the results elsewhere"
        )),
        Some((flag, out, input)) => Err(format!(
            "{flag} {out} is the input {input}: it would be overwritten; write the results elsewhere"
        )),
        None => Ok(()),
    }
}

/// Refuses an empty input or output path (`sudoku-batch solve ''`, a shell variable left
/// unset), which the system would only call `: No such file or directory`.
pub fn empty_path(inputs: &[String], outputs: &[(&str, Option<&String>)]) -> Result<(), String> {
    if inputs.iter().any(String::is_empty) {
        return Err("'': empty file name: give an input file".into());
    }
    match outputs
        .iter()
        .find(|(_, p)| p.is_some_and(|p| p.is_empty()))
    {
        Some((flag, _)) => Err(format!(
            "{flag} '': empty file name: give a file, or - for standard output"
        )),
        None => Ok(()),
    }
}

/// The first output (flag, path) that is one of `inputs` (regular files, by device and
/// inode), with that input as given: `-` when standard input is redirected from that file.
pub fn input_written<'a>(
    inputs: &'a [String],
    outputs: &[(&'a str, Option<&'a String>)],
) -> Option<(&'a str, &'a str, &'a str)> {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let file_id = |m: std::fs::Metadata| m.is_file().then(|| (m.dev(), m.ino()));
    let id = |p: &str| match p {
        "-" => stream_metadata(std::io::stdin().as_fd()).and_then(file_id),
        p => std::fs::metadata(p).ok().and_then(file_id),
    };
    outputs.iter().find_map(|&(flag, out)| {
        let out = out.filter(|o| *o != "-")?;
        let out_id = id(out)?;
        let input = inputs.iter().find(|i| id(i) == Some(out_id))?;
        Some((flag, out.as_str(), input.as_str()))
    })
}

/// The output flags of a command that writes one table of its own columns (`trace`): `-o`,
/// `--output-format` and `--parquet-compression`, checked together.
#[derive(Debug, Args)]
pub struct TableOutputArgs {
    /// Write the rows here (`-`: standard output); the extension picks the format (.csv,
    /// .txt, .jsonl, .npz, .parquet; anything else: CSV).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub output: String,
    /// The output format, whatever the extension; txt: space-separated, no header (the
    /// guide gives each command's columns).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<TableFormatArg>,
    /// Parquet page compression.
    #[command(flatten)]
    pub parquet: ParquetArgs,
}

impl TableOutputArgs {
    /// The table output these flags name, for a command reading `inputs`.
    ///
    /// # Errors
    /// A message naming the flag: compression asked of an output that is not Parquet, an
    /// output that is an input.
    pub fn into_output(
        self,
        inputs: &[String],
    ) -> Result<sudoku_batch::dataset::TableOutput, String> {
        let format = self.output_format.map(Into::into);
        let parquet_compression = self.parquet.for_output(&self.output, format)?;
        output_is_input(inputs, &[("-o", Some(&self.output))])?;
        Ok(sudoku_batch::dataset::TableOutput {
            parquet_compression,
            ..sudoku_batch::dataset::TableOutput::new(self.output, format)
        })
    }
}
