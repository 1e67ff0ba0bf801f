//! [`Dataset`]: the entry point every command reads its inputs through (see the module
//! documentation of [`super`] for the sequence of calls).

use super::blocks::Blocks;
use super::chunk::RawChunk;
use super::range::{self, Shard, ShardRange};
use super::reader::Cursor;
use super::source::{self, Codec, Source};
use super::stamp::Stamp;
use super::{detect, Cancel, Finished, InputError, Layout, RawRecord, ReadOptions};

/// The records of a byte range of a dataset read whole, to count ([`Dataset::record_count`]):
/// it holds its own handle on the bytes, so it can be sent to another thread.
pub struct RecordCount {
    source: Source,
    start: usize,
    end: usize,
    layout: Layout,
}

impl RecordCount {
    /// The records in the range, by one `memchr` pass; `None` for a CSV with a quote
    /// character, whose quoted fields may hold line breaks (see [`Dataset::record_total`]).
    pub fn count(&self) -> Option<u64> {
        let bytes = &self.source.bytes()[self.start..self.end];
        if matches!(self.layout, Layout::Csv { .. }) && memchr::memchr(b'"', bytes).is_some() {
            return None;
        }
        Some(range::count_records(bytes, &self.layout))
    }
}

/// Bytes at the start of a mapped input that its layout is worked out on: two longest
/// lines ([`super::record::MAX_LINE`]), far more than the sample of rows the sniffer looks
/// at in any real dataset.
const SNIFFED: usize = 2 * super::record::MAX_LINE;

/// The bytes a dataset reads: one block (a memory map, or bytes in memory), or a stream read
/// in bounded blocks.
enum Body {
    /// One block; `end` is one past the last byte read (the end of the shard).
    Whole { source: Source, end: usize },
    /// Bounded blocks of a stream.
    Blocks(Box<Blocks>),
    /// The rows of a Parquet file.
    #[cfg(feature = "parquet")]
    Parquet(Box<super::parquet::ParquetRows>),
}

/// Whether the file at `path` starts with the Parquet magic number `PAR1` (`false` for
/// standard input, special files and files that cannot be read: those are left to the
/// other readers).
fn is_parquet(path: &str) -> bool {
    use std::io::Read;
    if path == "-" || !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let mut head = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| &head == b"PAR1")
}

/// One input being read: its bytes, its layout and a cursor over its records.
pub struct Dataset {
    path: String,
    body: Body,
    layout: Layout,
    codec: Codec,
    /// Size of the input as stored, bytes, when known.
    len: Option<u64>,
    /// Size and time before the map was made, for the change check (mapped files only).
    stamp: Option<Stamp>,
    cursor: Cursor,
    /// Records of the whole input before the first one read (a shard's offset).
    skipped_records: u64,
    /// The number of the input's first record ([`Dataset::number_from`]).
    base: u64,
    shard: Option<Shard>,
    hash: bool,
    /// The run's stop token ([`ReadOptions::stop`]).
    stop: Cancel,
}

impl Dataset {
    /// Opens `path` (`-` = standard input), reads what is needed to work out its layout and
    /// places the cursor at its first record (of the shard, with one). A plain regular file
    /// is memory-mapped when `opts.mmap` is true; anything else (standard input, a pipe,
    /// `--no-mmap`, a compressed or UTF-16 input) is read in bounded blocks.
    ///
    /// # Errors
    /// [`InputError::Io`] when the input cannot be opened or read, [`InputError::Directory`]
    /// for a directory, [`InputError::Layout`] when the layout cannot be worked out or does
    /// not fit the options (or a shard is asked of standard input or a pipe).
    pub fn open(path: &str, opts: &ReadOptions) -> Result<Dataset, InputError> {
        let stamp = Stamp::of(path);
        if is_parquet(path) {
            // What the user says wins, but a Parquet file read as text is only noise.
            if let Some(said) = opts.layout.format.text_name() {
                let why = format!(
                    "--format {said}, but the file is Parquet (it starts with PAR1): drop \
                     --format, or give --format parquet"
                );
                return Err(InputError::layout(path, why));
            }
            return Dataset::open_parquet(path, stamp, opts);
        }
        let opened = source::open(
            path,
            opts.mmap,
            opts.stop.flag(),
            opts.layout.member.as_deref(),
        )?;
        let stamp = stamp.filter(|_| matches!(opened.source, Source::Mapped(_)));
        let source::Opened {
            source,
            codec,
            len,
            utf16,
            member,
        } = opened;
        let mut data = Dataset::new(path, source, codec, len, stamp, opts)?;
        if let (Some(shard), Body::Blocks(blocks)) = (opts.shard, &mut data.body) {
            if !blocks.stream.reopenable {
                return Err(InputError::layout(
                    path,
                    "--shard needs a file: standard input or a pipe cannot be cut into byte \
                     ranges without reading it twice; save it to a file first"
                        .to_string(),
                ));
            }
            let total = match (codec, utf16, len, &member) {
                (Codec::Plain, false, Some(len), None) => len,
                _ => decoded_len(path, opts.stop.flag(), opts.layout.member.as_deref())?,
            };
            let body = data.cursor.pos() as u64;
            let cut = |i: u32| {
                let share = u128::from(total.saturating_sub(body)) * u128::from(i)
                    / u128::from(shard.count.max(1));
                body + share as u64
            };
            let from = if shard.index <= 1 {
                body
            } else {
                cut(shard.index - 1)
            };
            let to = if shard.index >= shard.count {
                u64::MAX
            } else {
                cut(shard.index)
            };
            blocks.set_shard(from, to);
        }
        Ok(data)
    }

    /// A Parquet file: its rows in batches ([`super::parquet`]).
    #[cfg(feature = "parquet")]
    fn open_parquet(
        path: &str,
        stamp: Option<Stamp>,
        opts: &ReadOptions,
    ) -> Result<Dataset, InputError> {
        let (rows, layout) = super::parquet::open(path, opts)?;
        let cursor = Cursor::new(&layout, 0, 1, rows.first, false);
        Ok(Dataset {
            path: path.to_string(),
            skipped_records: rows.first,
            base: 0,
            body: Body::Parquet(Box::new(rows)),
            layout,
            codec: Codec::Plain,
            len: stamp.map(|s| s.len),
            stamp,
            cursor,
            shard: opts.shard,
            hash: opts.hash,
            stop: opts.stop.clone(),
        })
    }

    #[cfg(not(feature = "parquet"))]
    fn open_parquet(
        path: &str,
        _stamp: Option<Stamp>,
        _opts: &ReadOptions,
    ) -> Result<Dataset, InputError> {
        Err(InputError::layout(
            path,
            "a Parquet file, and this build reads no Parquet: rebuild with \
             `cargo build --release --features parquet`"
                .to_string(),
        ))
    }

    /// A dataset over `bytes` already in memory, named `path` in messages (for tests and
    /// fuzzing: the same readers as [`Dataset::open`]).
    ///
    /// # Errors
    /// [`InputError::Layout`] as for [`Dataset::open`].
    pub fn from_bytes(
        path: &str,
        bytes: Vec<u8>,
        opts: &ReadOptions,
    ) -> Result<Dataset, InputError> {
        let len = Some(bytes.len() as u64);
        Dataset::new(
            path,
            Source::Owned(bytes.into()),
            Codec::Plain,
            len,
            None,
            opts,
        )
    }

    /// A dataset over any reader, named `name` in messages: read as standard input is
    /// (decompressed and transcoded by content, in bounded blocks, on a thread of its own),
    /// with the same layouts as [`Dataset::open`] (Parquet excepted, which needs a file).
    ///
    /// # Errors
    /// [`InputError::Io`] when its first bytes cannot be read, [`InputError::Layout`] as for
    /// [`Dataset::open`], and for a `shard` (a stream cannot be cut into byte ranges).
    ///
    /// ```
    /// use sudoku_batch::{Dataset, ReadOptions};
    /// let text = "puzzle\n..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9\n";
    /// let mut data = Dataset::from_reader("upload", std::io::Cursor::new(text), &ReadOptions::default()).unwrap();
    /// let mut records = Vec::new();
    /// data.fill(&mut records, 100).unwrap();
    /// assert_eq!((records.len(), records[0].line), (1, 2));
    /// assert_eq!(records[0].puzzle.as_ref().unwrap().clues(), 17);
    /// ```
    pub fn from_reader<R: std::io::Read + Send + 'static>(
        name: &str,
        reader: R,
        opts: &ReadOptions,
    ) -> Result<Dataset, InputError> {
        if opts.shard.is_some() {
            return Err(InputError::layout(
                name,
                "a shard needs a file: a reader cannot be cut into byte ranges".to_string(),
            ));
        }
        let opened = source::from_reader(Box::new(reader), opts.stop.flag()).map_err(|source| {
            InputError::Io {
                path: name.to_string(),
                source,
            }
        })?;
        Dataset::new(name, opened.source, opened.codec, None, None, opts)
    }

    fn new(
        path: &str,
        source: Source,
        codec: Codec,
        len: Option<u64>,
        stamp: Option<Stamp>,
        opts: &ReadOptions,
    ) -> Result<Dataset, InputError> {
        let io_err = |source| InputError::Io {
            path: path.to_string(),
            source,
        };
        let (body, layout, range) = match source {
            Source::Stream(stream) => {
                // The layout is worked out on the first block; CSV cuts need it, so the
                // first block is cut outside quotes in case the input is CSV.
                let blocks = Blocks::new(stream, opts.block, opts.hash, opts.stop.clone())
                    .map_err(io_err)?;
                let first = blocks.block();
                let layout = detect(first, &opts.layout)
                    .map_err(|reason| InputError::layout(path, reason))?;
                let range = ShardRange::whole(first, &layout);
                (Body::Blocks(Box::new(blocks)), layout, range)
            }
            source => {
                let bytes = source.bytes();
                // The layout is worked out on the input's start, as a stream's first block:
                // a 100 MB first line is judged by its first bytes, not copied whole.
                let head = &bytes[..bytes.len().min(SNIFFED)];
                let layout = detect(head, &opts.layout)
                    .map_err(|reason| InputError::layout(path, reason))?;
                let range = match opts.shard {
                    Some(s) => range::range(bytes, &layout, s),
                    None => ShardRange::whole(bytes, &layout),
                };
                let end = range.end;
                (Body::Whole { source, end }, layout, range)
            }
        };
        let mut body = body;
        match (&mut body, &layout) {
            (Body::Blocks(b), Layout::Lines { .. } | Layout::Columns { .. }) => {
                b.set_lines().map_err(io_err)?;
            }
            (
                Body::Blocks(b),
                Layout::Csv {
                    delimiter,
                    width,
                    header,
                    ..
                },
            ) => {
                let width = width.or(header.as_ref().map(Vec::len));
                b.set_csv(*delimiter, width).map_err(io_err)?;
            }
            _ => {}
        }
        let cursor = Cursor::new(
            &layout,
            range.start,
            range.first_line,
            range.first_record,
            opts.keep_text,
        );
        Ok(Dataset {
            path: path.to_string(),
            skipped_records: range.first_record,
            base: 0,
            body,
            layout,
            codec,
            len,
            stamp,
            cursor,
            shard: opts.shard,
            hash: opts.hash,
            stop: opts.stop.clone(),
        })
    }

    /// Numbers this input's records from `first_record` (the count of the run's earlier
    /// inputs' records; a shard adds the records of the input before it). Call it before
    /// the first [`Dataset::fill`].
    pub fn number_from(&mut self, first_record: u64) {
        self.base = first_record;
        self.cursor
            .set_next_record(first_record + self.skipped_records);
    }

    /// The stop token it was opened with ([`ReadOptions::stop`]): the batch engine stops
    /// claiming this input's records once it is set.
    pub fn stop(&self) -> &Cancel {
        &self.stop
    }

    /// The path as given (`-` for standard input).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The shard being read (`--shard K/N`), `None` for the whole input.
    pub fn shard(&self) -> Option<Shard> {
        self.shard
    }

    /// The input's layout, as detected or chosen.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// How the input is compressed.
    pub fn codec(&self) -> Codec {
        self.codec
    }

    /// Size of the input as stored (compressed), bytes; 0 when unknown (standard input, a
    /// pipe). For a progress bar over [`Dataset::consumed`].
    pub fn len(&self) -> u64 {
        self.len.unwrap_or(0)
    }

    /// Records left to read, when a `memchr` scan of the bytes counts them exactly: an
    /// input read whole (a memory-mapped file, not a stream), in lines or as a CSV without
    /// a quote character (a quoted field may hold line breaks, so there a line count would
    /// only estimate). `None` otherwise. Costs one pass over the bytes: 24 ms per million
    /// lines, 39 ms per million CSV rows, in the page cache (about 1% of solving them; see
    /// BENCHMARKS.md, issue 11). Call it before reading; [`Dataset::record_count`] gives the
    /// same count to run on another thread.
    pub fn record_total(&self) -> Option<u64> {
        self.record_count()?.count()
    }

    /// [`Dataset::record_total`] to run later, or on another thread while this dataset is
    /// read (the progress bar's total: counting before the work would add a noticeable share
    /// to a run of easy puzzles); `None` where it would be `None` for want of an input read
    /// whole. It counts the records left when it is made.
    pub fn record_count(&self) -> Option<RecordCount> {
        let Body::Whole { source, end } = &self.body else {
            return None;
        };
        Some(RecordCount {
            source: source.share()?,
            start: self.cursor.pos().min(*end),
            end: *end,
            layout: self.layout.clone(),
        })
    }

    /// Whether the input is known to have no bytes at all.
    pub fn is_empty(&self) -> bool {
        self.len == Some(0)
    }

    /// Clears `out` and fills it with up to `max` records, in input order. An empty `out`
    /// means the end of the input (or of its shard). [`Dataset::take`] and
    /// [`RawChunk::parse`] in one.
    ///
    /// # Errors
    /// As [`Dataset::take`].
    pub fn fill(&mut self, out: &mut Vec<RawRecord>, max: usize) -> Result<(), InputError> {
        let mut chunk = RawChunk::default();
        std::mem::swap(chunk.records_mut(), out);
        chunk.clear();
        let taken = self.take(&mut chunk, max);
        chunk.parse();
        std::mem::swap(chunk.records_mut(), out);
        taken
    }

    /// Clears `out` and takes up to `max` records into it, in input order, leaving lines
    /// to be parsed by [`RawChunk::parse`]: the batch engine calls this under its read
    /// lock and parses after letting go of it, so the serial part of reading is only
    /// finding and copying the lines ([`RawChunk`]). An empty `out` means the end of
    /// the input (or of its shard).
    ///
    /// # Errors
    /// [`InputError::Csv`] when the CSV reader fails, [`InputError::Io`] when a stream cannot
    /// be read or decompressed, [`InputError::Truncated`] when a mapped file shrank under
    /// the read (`out` is then empty); bad records are records with an error.
    pub fn take(&mut self, out: &mut RawChunk, max: usize) -> Result<(), InputError> {
        out.clear();
        let csv_err = |path: &str, source: csv::Error| InputError::Csv {
            path: path.to_string(),
            line: source.position().map_or(0, csv::Position::line),
            source,
        };
        match &mut self.body {
            Body::Whole { source, end } => {
                let filled = self
                    .cursor
                    .fill(source.bytes(), *end, true, out, max)
                    .map_err(|e| csv_err(&self.path, e));
                // A fault while reading (the file shrank) read zeros for the file's bytes:
                // these records, and the run, cannot be trusted.
                if source.faulted() {
                    out.clear();
                    return Err(self.truncated());
                }
                filled
            }
            Body::Blocks(blocks) => loop {
                let stop = blocks.clip(&mut self.cursor, &self.layout);
                // Rows are judged on all the bytes the stream holds (see `Blocks::buffered`).
                self.cursor
                    .fill(blocks.buffered(), stop, blocks.at_eof(), out, max)
                    .map_err(|e| csv_err(&self.path, e))?;
                // A live input that pauses: the records taken are worked on now, not
                // after its producer writes more.
                if out.len() >= max
                    || blocks.done
                    || blocks.at_eof()
                    || blocks.stopped()
                    || (!out.is_empty() && !blocks.ready())
                {
                    return Ok(());
                }
                let used = self.cursor.pos();
                blocks.advance(used).map_err(|source| InputError::Io {
                    path: self.path.clone(),
                    source,
                })?;
                self.cursor.set_pos(0);
            },
            #[cfg(feature = "parquet")]
            Body::Parquet(rows) => {
                let mut next = self.cursor.next_record();
                rows.fill(&self.path, out.records_mut(), max, &mut next)?;
                self.cursor.set_next_record(next);
                Ok(())
            }
        }
    }

    /// Bytes of the input as stored consumed so far (for a progress bar over
    /// [`Dataset::len`]).
    pub fn consumed(&self) -> u64 {
        match &self.body {
            Body::Whole { .. } => self.cursor.pos() as u64,
            Body::Blocks(b) => b.stream.read.load(std::sync::atomic::Ordering::Relaxed),
            // The share of the file's rows read, in bytes.
            #[cfg(feature = "parquet")]
            Body::Parquet(rows) => {
                (u128::from(self.len()) * u128::from(rows.read()) / u128::from(rows.total.max(1)))
                    as u64
            }
        }
    }

    /// The number the next record will get.
    pub fn next_record(&self) -> u64 {
        self.cursor.next_record()
    }

    /// Ends the reading: checks that a memory-mapped file did not change while it was
    /// read, and says what the report needs. The map stays alive until the dataset is
    /// dropped (a caller may drop it beside other work). For a shard of a stream, the rest
    /// of the stream is read to count its records.
    ///
    /// # Errors
    /// [`InputError::Changed`] when the file changed size or time while it was mapped,
    /// [`InputError::Truncated`] when a read of the map faulted (the file shrank);
    /// [`InputError::Io`] when the rest of a stream cannot be read.
    pub fn finish(&mut self) -> Result<Finished, InputError> {
        self.check_unchanged()?;
        let (next_record, sha256) = match &mut self.body {
            Body::Whole { source, .. } => {
                let bytes = source.bytes();
                // A shard numbers the next input's records after all of this input's, as
                // the whole run does.
                let next = match self.shard {
                    None => self.cursor.next_record(),
                    Some(_) => self.base + range::total_records(bytes, &self.layout),
                };
                (next, self.hash.then(|| super::sha256_hex(bytes)))
            }
            Body::Blocks(blocks) => {
                let rest =
                    match self.shard {
                        None => 0,
                        Some(_) => blocks.count_rest(self.cursor.pos(), &self.layout).map_err(
                            |source| InputError::Io {
                                path: self.path.clone(),
                                source,
                            },
                        )?,
                    };
                (self.cursor.next_record() + rest, blocks.sha256())
            }
            #[cfg(feature = "parquet")]
            Body::Parquet(rows) => {
                let next = match self.shard {
                    None => self.cursor.next_record(),
                    Some(_) => self.base + rows.total,
                };
                let sha256 = match self.hash {
                    true => Some(super::parquet::file_sha256(&self.path).map_err(|source| {
                        InputError::Io {
                            path: self.path.clone(),
                            source,
                        }
                    })?),
                    false => None,
                };
                (next, sha256)
            }
        };
        // Counting a shard's records and hashing read the map again: check once more.
        self.check_unchanged()?;
        Ok(Finished {
            bytes: self.len(),
            layout: self.layout.name(),
            codec: self.codec.name(),
            next_record,
            sha256,
        })
    }
}

impl Dataset {
    /// Checks that a mapped input did not fault (shrink) or change while it was read.
    fn check_unchanged(&self) -> Result<(), InputError> {
        if let Body::Whole { source, .. } = &self.body {
            if source.faulted() {
                return Err(self.truncated());
            }
        }
        match self.stamp.and_then(|s| s.changed(&self.path)) {
            Some(why) => Err(InputError::Changed {
                path: self.path.clone(),
                why,
            }),
            None => Ok(()),
        }
    }

    /// The error for a mapped input whose read faulted, saying how its size changed.
    fn truncated(&self) -> InputError {
        let before = self.stamp.map(|s| s.len);
        let now = std::fs::metadata(&self.path).ok().map(|m| m.len());
        let why = match (before, now) {
            (Some(b), Some(n)) if n < b => {
                format!("the file was truncated (it shrank from {b} to {n} bytes)")
            }
            (_, None) => "the file was removed or truncated".to_string(),
            _ => "a page of the file could not be read (it was truncated, or the disk \
                  failed)"
                .to_string(),
        };
        InputError::Truncated {
            path: self.path.clone(),
            why,
        }
    }
}

/// The decoded length of the file at `path`: it is read (and decompressed) once.
fn decoded_len(
    path: &str,
    stop: &std::sync::atomic::AtomicBool,
    member: Option<&str>,
) -> Result<u64, InputError> {
    let io_err = |source| InputError::Io {
        path: path.to_string(),
        source,
    };
    match source::open(path, false, stop, member)?.source {
        Source::Stream(mut s) => std::io::copy(&mut s.reader, &mut std::io::sink()).map_err(io_err),
        other => Ok(other.bytes().len() as u64),
    }
}
