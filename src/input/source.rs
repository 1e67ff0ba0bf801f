//! Where the bytes of an input come from: a read-only memory map of a plain regular file, or
//! a stream read in bounded blocks (standard input, pipes, `--no-mmap`, compressed inputs,
//! UTF-16 text).
//!
//! **Compression is recognised by content, not by name**: the first bytes of the input are
//! matched against the magic numbers of gzip (multi-member too), zstd (multi-frame too), xz,
//! bzip2 (multi-stream too) and zip (a one-member archive). A compressed input is decoded on
//! its own thread ([`Codec`]), beside the workers that solve, and handed over through a
//! bounded channel, so decompression never holds the records back and memory stays bounded.
//!
//! **Text encodings**: UTF-8 and ASCII are read as they are (a UTF-8 byte-order mark is left
//! for the readers to skip). UTF-16 with a byte-order mark (`FF FE` or `FE FF`, Excel's
//! "Unicode Text"), or without one when its first characters are ASCII (a NUL every other
//! byte: `iconv -t UTF-16LE`, PowerShell's `Out-File -Encoding Unicode` of old), is
//! transcoded to UTF-8 as it is read ([`Utf16Reader`]). UTF-32 (`iconv -t UTF-32`: a
//! byte-order mark `FF FE 00 00` or `00 00 FE FF`, or ASCII with three NULs to a character)
//! is refused with one line naming it, rather than read as UTF-16 or bytes.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use super::archive;
use super::feed::{pump, read_append, Feed, Sender};
use super::guard::MappedFile;
use super::InputError;

/// How an input is compressed, recognised by its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    /// Not compressed.
    Plain,
    /// gzip (`1F 8B`), every member in turn.
    Gzip,
    /// Zstandard (`28 B5 2F FD`), every frame in turn.
    Zstd,
    /// xz (`FD 37 7A 58 5A 00`), every stream in turn.
    Xz,
    /// bzip2 (`BZh`), every stream in turn.
    Bzip2,
    /// A zip archive (`PK 03 04`) holding exactly one member.
    Zip,
}

impl Codec {
    /// The codec whose magic number starts `head`.
    pub fn sniff(head: &[u8]) -> Codec {
        if head.starts_with(&[0x1F, 0x8B]) {
            Codec::Gzip
        } else if head.starts_with(&[0x28, 0xB5, 0x2F, 0xFD]) {
            Codec::Zstd
        } else if head.starts_with(&[0xFD, b'7', b'z', b'X', b'Z', 0x00]) {
            Codec::Xz
        } else if head.starts_with(b"BZh") {
            Codec::Bzip2
        } else if head.starts_with(b"PK\x03\x04") {
            Codec::Zip
        } else {
            Codec::Plain
        }
    }

    /// The codec that a file name's extension names (`.gz`, `.zst`, `.xz`, `.bz2`, `.zip`,
    /// case-insensitive), or `None`. Inputs are recognised by content whatever their name;
    /// outputs are refused under these names (`output::Target::create`), since they are
    /// written uncompressed.
    pub fn from_extension(path: &str) -> Option<Codec> {
        let ext = Path::new(path).extension()?.to_str()?;
        match ext.to_ascii_lowercase().as_str() {
            "gz" => Some(Codec::Gzip),
            "zst" => Some(Codec::Zstd),
            "xz" => Some(Codec::Xz),
            "bz2" => Some(Codec::Bzip2),
            "zip" => Some(Codec::Zip),
            _ => None,
        }
    }

    /// The name reports use: `none`, `gzip`, `zstd`, `xz`, `bzip2` or `zip`.
    pub fn name(self) -> &'static str {
        match self {
            Codec::Plain => "none",
            Codec::Gzip => "gzip",
            Codec::Zstd => "zstd",
            Codec::Xz => "xz",
            Codec::Bzip2 => "bzip2",
            Codec::Zip => "zip",
        }
    }
}

/// The bytes of one input.
pub enum Source {
    /// A memory-mapped plain regular file, read as one block, guarded against the file
    /// shrinking under it ([`MappedFile`]); shared, so that a thread of its own can count
    /// its records while it is read ([`Source::share`]).
    Mapped(Arc<MappedFile>),
    /// Bytes already in memory (tests, fuzzing), read as one block; shared likewise.
    Owned(Arc<[u8]>),
    /// Decoded bytes read in bounded blocks.
    Stream(Stream),
}

impl Source {
    /// The bytes of a one-block source (a map, bytes in memory); empty for a stream, which
    /// is read through [`Stream::reader`].
    pub fn bytes(&self) -> &[u8] {
        match self {
            Source::Mapped(m) => m,
            Source::Owned(v) => v,
            Source::Stream(_) => &[],
        }
    }

    /// Another handle on a one-block source's bytes (a map, bytes in memory), for a reader
    /// on another thread; `None` for a stream, which only one reader can read.
    pub fn share(&self) -> Option<Source> {
        match self {
            Source::Mapped(m) => Some(Source::Mapped(Arc::clone(m))),
            Source::Owned(v) => Some(Source::Owned(Arc::clone(v))),
            Source::Stream(_) => None,
        }
    }

    /// Whether a read of a mapped source faulted ([`MappedFile::faulted`]): the file shrank
    /// under the map, and what was read from it since it was opened cannot be trusted.
    pub fn faulted(&self) -> bool {
        matches!(self, Source::Mapped(m) if m.faulted())
    }
}

/// A stream of decoded input bytes, and how much of the input itself has been read.
pub struct Stream {
    /// The decoded bytes (decompressed, UTF-16 transcoded).
    pub reader: Reader,
    /// Bytes of the input as stored (compressed) read so far.
    pub read: Arc<AtomicU64>,
    /// Whether the input is a regular file that can be opened again (for a `--shard` of a
    /// stream, which needs the decoded length first).
    pub reopenable: bool,
}

/// Where a stream's decoded bytes are read from.
pub enum Reader {
    /// A regular file (plain, or decoded on the caller's thread or a decoder's): a read
    /// never waits on another process, so the caller reads it directly.
    File(Box<dyn Read + Send>),
    /// A live input (standard input, a pipe, a FIFO, a terminal), whose producer may write
    /// slowly or pause: read on a thread of its own ([`Feed`]), so that what has arrived can
    /// be used before more comes, and a wait for more can be given up on Ctrl-C.
    Live(Feed),
}

impl Reader {
    /// Whether a read would return without waiting for the producer: always for a file.
    pub fn ready(&mut self) -> bool {
        match self {
            Reader::File(_) => true,
            Reader::Live(feed) => feed.ready(),
        }
    }

    /// Appends up to `max` bytes to `buf`: how many (0 at the end of the input), or `None`
    /// when `stop` was set while a live input was waited for.
    ///
    /// # Errors
    /// A read (or decompression) error.
    pub fn append(
        &mut self,
        buf: &mut Vec<u8>,
        max: usize,
        stop: &AtomicBool,
    ) -> io::Result<Option<usize>> {
        match self {
            Reader::Live(feed) => feed.append(buf, max, stop),
            Reader::File(r) => read_append(r, buf, max).map(Some),
        }
    }
}

impl Read for Reader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Reader::File(r) => r.read(buf),
            Reader::Live(feed) => feed.read(buf),
        }
    }
}

/// An opened input: its bytes, its codec, its size as stored (`None` for a pipe) and whether
/// it is UTF-16 text.
pub struct Opened {
    /// The bytes.
    pub source: Source,
    /// How it is compressed.
    pub codec: Codec,
    /// Size of the input as stored, bytes, when known.
    pub len: Option<u64>,
    /// The text was UTF-16 and is transcoded.
    pub utf16: bool,
    /// The archive member read (a zip's or a tar's), `None` when the input is no archive.
    pub member: Option<String>,
}

/// Maps `file` read-only.
///
/// # Safety
/// The file must not be truncated or modified while the map is alive: a truncation makes
/// reads past the new end raise SIGBUS, which ends the process unless the map is handed to
/// [`MappedFile`] (its guard turns the fault into zero bytes and a mark that stops the run),
/// and a modification changes bytes under the parser.
///
/// # Errors
/// Whatever `mmap(2)` reports (e.g. for a FIFO or a special file).
pub unsafe fn map_file(file: &File) -> io::Result<memmap2::Mmap> {
    // SAFETY: the caller promises the file is not changed while mapped.
    let map = unsafe { memmap2::MmapOptions::new().map(file) }?;
    // Records are read front to back once: let the kernel read ahead. Only a hint, so a
    // kernel that refuses it changes nothing.
    #[cfg(unix)]
    let _ = map.advise(memmap2::Advice::Sequential);
    Ok(map)
}

/// Counts the bytes read through it (for the progress bar of a stream).
struct Counting<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl<R: io::Seek> io::Seek for Counting<R> {
    fn seek(&mut self, pos: io::SeekFrom) -> io::Result<u64> {
        self.inner.seek(pos)
    }
}

/// Reads up to `n` bytes from the start of `r` (fewer only at its end).
fn head(r: &mut dyn Read, n: usize) -> io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(n);
    r.take(n as u64).read_to_end(&mut head)?;
    Ok(head)
}

/// Opens `path` (`-` = standard input). A plain regular file is mapped when `mmap` is true;
/// everything else, and any file the kernel will not map, is a [`Stream`]. An archive (a zip,
/// or a tar inside any codec) is read as its one data member, or as `member` (`--member`;
/// see `input::archive`). `stop`: once set, a wait for a live
/// input's first bytes is given up.
///
/// # Errors
/// [`InputError::Io`] when the input cannot be opened or read (or is an archive of several
/// data members and `member` picks none), [`InputError::Directory`] for a directory.
pub fn open(
    path: &str,
    mmap: bool,
    stop: &AtomicBool,
    member: Option<&str>,
) -> Result<Opened, InputError> {
    let io_err = |source| InputError::Io {
        path: path.to_string(),
        source,
    };
    let read = Arc::new(AtomicU64::new(0));
    if path == "-" {
        let stdin = Counting {
            inner: io::stdin(),
            read: Arc::clone(&read),
        };
        let archive = Archive { path: None, member };
        return stream(Box::new(stdin), None, read, false, stop, archive).map_err(io_err);
    }
    let meta = std::fs::metadata(Path::new(path)).map_err(io_err)?;
    if meta.is_dir() {
        return Err(InputError::Directory {
            path: path.to_string(),
        });
    }
    let mut file = File::open(path).map_err(io_err)?;
    if meta.is_file() {
        // Enough for the codecs' magic numbers, the text checks and a tar header alike.
        let head = head(&mut file, archive::TAR_HEAD).map_err(io_err)?;
        let plain = Codec::sniff(&head) == Codec::Plain
            && utf16(&head).is_none()
            && utf32(&head).is_none()
            && !archive::is_tar(&head);
        if mmap && plain && meta.len() > 0 {
            // SAFETY: we only read the map. A file that another process rewrites under us
            // gives wrong records, and the dataset's change check (stamp.rs) refuses the
            // run at its end; one that shrinks would raise SIGBUS, which the guard
            // (guard.rs) turns into zero bytes and a mark that stops the run. A map the
            // guard cannot take is dropped and the file is read as a stream instead.
            let map = unsafe { map_file(&file) }.ok().and_then(MappedFile::new);
            if let Some(map) = map {
                return Ok(Opened {
                    source: Source::Mapped(Arc::new(map)),
                    codec: Codec::Plain,
                    len: Some(meta.len()),
                    utf16: false,
                    member: None,
                });
            }
        }
        io::Seek::rewind(&mut file).map_err(io_err)?;
        let file = Counting {
            inner: file,
            read: Arc::clone(&read),
        };
        let archive = Archive {
            path: Some(Path::new(path)),
            member,
        };
        return stream(Box::new(file), Some(meta.len()), read, true, stop, archive).map_err(io_err);
    }
    let pipe = Counting {
        inner: file,
        read: Arc::clone(&read),
    };
    let archive = Archive { path: None, member };
    stream(Box::new(pipe), None, read, false, stop, archive).map_err(io_err)
}

/// Bytes of a zip's start read to find its first member's name: the 30-byte local header
/// and a name of up to 226 bytes.
const ZIP_HEAD: usize = 256;

/// Refuses a zip whose first member is a `.npy` array (`head`: its first bytes): a numpy
/// `.npz`, such as this tool writes, is an output format, not an input. Without this, the
/// zip reader would give a reason about local headers.
///
/// # Errors
/// [`io::ErrorKind::InvalidData`] saying what the inputs may be.
fn refuse_npz(head: &[u8]) -> io::Result<()> {
    // Local file header: the name's length at bytes 26-27 (little-endian), the name at 30.
    let Some(&[lo, hi]) = head.get(26..28) else {
        return Ok(());
    };
    let name = head.get(30..30 + usize::from(u16::from_le_bytes([lo, hi])));
    if !name.is_some_and(|n| n.ends_with(b".npy")) {
        return Ok(());
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidData,
        "a numpy .npz archive: .npz is an output format, not an input; inputs are lines, \
         CSV, JSON Lines or Parquet, plain or compressed (gzip, zstd, xz, bzip2, a one-member \
         zip)",
    ))
}

/// Bytes at the start of the (decoded) input looked at to tell UTF-16 text: no more than
/// the magic numbers take, so a terminal on standard input is not kept waiting for more.
const TEXT_HEAD: usize = 8;

/// The UTF-16 flavour of the text that starts with `head` (its first [`TEXT_HEAD`] bytes, or
/// all of a shorter input), to decode it with; `None` for any other text.
///
/// A byte-order mark (`FF FE`, `FE FF`) is UTF-16 whatever follows; the decoder reads the
/// order from it and drops it. Without one, text whose first characters (two at least, four
/// when the input has them) are ASCII with a NUL every other byte is UTF-16 too: NUL after
/// each character little-endian, before it big-endian. UTF-8 and ASCII text holds no NUL
/// there, so a text file is never taken for UTF-16.
fn utf16(head: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    if head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]) {
        return Some(encoding_rs::UTF_16LE);
    }
    ascii_units(head, 2).map(|order| match order {
        ByteOrder::Little => encoding_rs::UTF_16LE,
        ByteOrder::Big => encoding_rs::UTF_16BE,
    })
}

/// The byte order of a code unit: the low byte first (little-endian) or last.
#[derive(Clone, Copy)]
enum ByteOrder {
    Little,
    Big,
}

/// The byte order of `head` read as code units of `width` bytes (2: UTF-16, 4: UTF-32), when
/// its whole units, two at least, are each an ASCII character with the unit's other bytes
/// NUL: the character first, little-endian; last, big-endian. `None` for anything else, so
/// UTF-8 and ASCII text (no NUL there) are never taken for either.
fn ascii_units(head: &[u8], width: usize) -> Option<ByteOrder> {
    let units = head.chunks_exact(width);
    if units.len() < 2 {
        return None;
    }
    let ascii = |b: u8| (1..0x80).contains(&b);
    let nul = |bytes: &[u8]| bytes.iter().all(|&b| b == 0);
    if units.clone().all(|u| ascii(u[0]) && nul(&u[1..])) {
        Some(ByteOrder::Little)
    } else if units
        .clone()
        .all(|u| nul(&u[..width - 1]) && ascii(u[width - 1]))
    {
        Some(ByteOrder::Big)
    } else {
        None
    }
}

/// The name of the UTF-32 flavour of the text that starts with `head` (as for [`utf16`]):
/// `UTF-32LE` or `UTF-32BE`; `None` for any other text. A byte-order mark (`FF FE 00 00`,
/// `00 00 FE FF`), or two characters or more of ASCII with three NULs each: after it
/// little-endian, before it big-endian ([`ascii_units`]). UTF-16 holds no NUL pair there
/// but for U+0000 characters, which no text starts with.
fn utf32(head: &[u8]) -> Option<&'static str> {
    if head.starts_with(&[0xFF, 0xFE, 0, 0]) {
        return Some("UTF-32LE");
    }
    if head.starts_with(&[0, 0, 0xFE, 0xFF]) {
        return Some("UTF-32BE");
    }
    ascii_units(head, 4).map(|order| match order {
        ByteOrder::Little => "UTF-32LE",
        ByteOrder::Big => "UTF-32BE",
    })
}

/// Refuses UTF-32 text (`head`: its first bytes, see [`utf32`]): it is rare enough that
/// converting it is the user's step, and read as UTF-16 or as bytes every record would be
/// garbage (a UTF-32 CSV's header would read as `"\0q\0u\0i..."`).
///
/// # Errors
/// [`io::ErrorKind::InvalidData`] naming UTF-32 and how to convert the file.
fn refuse_utf32(head: &[u8]) -> io::Result<()> {
    let Some(name) = utf32(head) else {
        return Ok(());
    };
    Err(io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "{name} text (UTF-32) is not supported: convert it to UTF-8 first, e.g. \
             `iconv -f {name} -t UTF-8 FILE > FILE.utf8` (UTF-8 and UTF-16 are read)"
        ),
    ))
}

/// Any reader (a socket, an in-memory buffer, a decoder of the caller's) as a live
/// [`Stream`]: decompressed and transcoded by content as standard input is, read on a
/// thread of its own.
///
/// # Errors
/// A read error while its first bytes are looked at.
pub(crate) fn from_reader(raw: Box<dyn Read + Send>, stop: &AtomicBool) -> io::Result<Opened> {
    let archive = Archive {
        path: None,
        member: None,
    };
    stream(raw, None, Arc::new(AtomicU64::new(0)), false, stop, archive)
}

/// `raw` as a stream of decoded bytes: decompressed on a thread of its own when its first
/// bytes name a codec, then transcoded when it is UTF-16. Any input but a regular file
/// (`reopenable`) is live: all of that is then read on a thread of its own ([`Reader::Live`]),
/// from its first byte on, so that Ctrl-C ends a wait for those bytes too.
fn stream(
    raw: Box<dyn Read + Send>,
    len: Option<u64>,
    read: Arc<AtomicU64>,
    reopenable: bool,
    stop: &AtomicBool,
    archive: Archive,
) -> io::Result<Opened> {
    let mut raw = match reopenable {
        true => Start::Blocking(raw),
        // A read blocked in the kernel does not return on Ctrl-C: the magic numbers of a
        // terminal or a pipe that sends nothing yet were read here, and one Ctrl-C would
        // leave the run waiting for them.
        false => Start::Live(Feed::of_reader("live-input".to_string(), raw)?),
    };
    let mut magic = raw.head(8, stop)?;
    let codec = Codec::sniff(&magic);
    let mut member = None;
    if codec == Codec::Zip {
        // The first member's name, to tell a numpy archive from a zipped text file: read
        // only for a zip, so a terminal on standard input is not kept waiting for more.
        magic.extend(raw.head(ZIP_HEAD - magic.len(), stop)?);
        refuse_npz(&magic)?;
        if let Some(path) = archive.path {
            member = Some(archive::pick(
                "zip",
                &archive::zip_entries(path)?,
                archive.member,
            )?);
        }
        member = member.or(archive.member.map(String::from));
    }
    let mut decoded = match codec {
        Codec::Plain => raw.put_back(&magic),
        _ => Start::Live(spawn_decoder(
            codec,
            raw.put_back(&magic).into_read(),
            member.clone(),
        )?),
    };
    // A tar, after any codec: its one data member (or the one `--member` names).
    let head = decoded.head(archive::TAR_HEAD, stop)?;
    let mut decoded = decoded.put_back(&head);
    if codec != Codec::Zip && archive::is_tar(&head) {
        let chosen = match archive.path {
            Some(path) => Some(archive::pick(
                "tar",
                &archive::tar_entries(decoded_file(path)?)?,
                archive.member,
            )?),
            None => archive.member.map(String::from),
        };
        let tar = decoded.into_read();
        member = chosen.clone();
        decoded = Start::Live(Feed::spawn("tar-member".to_string(), move |tx| {
            archive::pump_tar(tar, chosen.as_deref(), tx)
        })?);
        member.get_or_insert_with(|| "(the one data member)".to_string());
    }
    let text = decoded.head(TEXT_HEAD, stop)?;
    refuse_utf32(&text)?;
    let encoding = utf16(&text);
    let decoded = decoded.put_back(&text);
    let reader = match encoding {
        None => decoded,
        Some(e) => Start::Blocking(Box::new(Utf16Reader::new(decoded.into_read(), e))),
    };
    let reader = match (reopenable, reader) {
        (true, reader) => Reader::File(reader.into_read()),
        // A live input is read on a thread of its own already (`raw` above); its UTF-16
        // transcoder gets one too.
        (false, Start::Live(feed)) => Reader::Live(feed),
        (false, Start::Blocking(r)) => {
            Reader::Live(Feed::of_reader("live-input-utf16".to_string(), r)?)
        }
    };
    Ok(Opened {
        source: Source::Stream(Stream {
            reader,
            read,
            reopenable,
        }),
        codec,
        len,
        utf16: encoding.is_some(),
        member,
    })
}

/// What [`stream`] needs to read an archive: the regular file to list its members from
/// (`None` for standard input and pipes, read as they come), and `--member`.
struct Archive<'a> {
    path: Option<&'a Path>,
    member: Option<&'a str>,
}

/// The file at `path` decompressed (synchronously: for listing a tar's members before the
/// run reads it).
///
/// # Errors
/// The file cannot be opened.
fn decoded_file(path: &Path) -> io::Result<Box<dyn Read>> {
    let mut file = BufReader::new(File::open(path)?);
    let codec = Codec::sniff(file.fill_buf()?);
    Ok(match codec {
        Codec::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(file)),
        Codec::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(file)?),
        Codec::Xz => Box::new(liblzma::bufread::XzDecoder::new_multi_decoder(file)),
        Codec::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(file)),
        Codec::Plain | Codec::Zip => Box::new(file),
    })
}

/// The start of a stream, whose first bytes are looked at before it is read on.
enum Start {
    /// Read on the caller's thread: a regular file, whose reads never wait on another
    /// process (or, for a live input, its UTF-16 transcoder until it is given a thread).
    Blocking(Box<dyn Read + Send>),
    /// Read on a thread of its own ([`Feed`]): a live input, or a decoder's output.
    Live(Feed),
}

impl Start {
    /// Up to `n` bytes from the start (fewer only at the end; for a live input, also when
    /// Ctrl-C ends the wait for them: the run then stops before reading any record).
    fn head(&mut self, n: usize, stop: &AtomicBool) -> io::Result<Vec<u8>> {
        match self {
            Start::Blocking(r) => head(r, n),
            Start::Live(feed) => {
                let mut bytes = Vec::with_capacity(n);
                while bytes.len() < n {
                    let want = n - bytes.len();
                    match feed.append(&mut bytes, want, stop)? {
                        None | Some(0) => break,
                        Some(_) => {}
                    }
                }
                Ok(bytes)
            }
        }
    }

    /// This stream with `bytes` (what `head` took) before what is not read yet.
    fn put_back(self, bytes: &[u8]) -> Start {
        match self {
            Start::Blocking(r) => {
                Start::Blocking(Box::new(io::Cursor::new(bytes.to_vec()).chain(r)))
            }
            Start::Live(mut feed) => {
                feed.unread(bytes);
                Start::Live(feed)
            }
        }
    }

    /// The stream as a reader.
    fn into_read(self) -> Box<dyn Read + Send> {
        match self {
            Start::Blocking(r) => r,
            Start::Live(feed) => Box::new(feed),
        }
    }
}

/// Starts a thread that decompresses `raw` with `codec` (or, [`Codec::Plain`], only reads
/// it) and hands the bytes over as they come ([`Feed`]).
fn spawn_decoder(
    codec: Codec,
    raw: Box<dyn Read + Send>,
    member: Option<String>,
) -> io::Result<Feed> {
    Feed::spawn(format!("{}-decoder", codec.name()), move |tx| {
        decode(codec, raw, member.as_deref(), tx)
    })
}

/// Decompresses `raw` into `tx` (the caller sends the empty piece that ends it).
///
/// # Errors
/// A decoder's error, said as what it means for the file: `corrupt or truncated gzip data
/// (incomplete deflate stream)`, not the decoder's words alone ("premature eof"
/// for a cut `.xz` says nothing of the file); an error reading the file itself keeps its own words.
fn decode(
    codec: Codec,
    raw: Box<dyn Read + Send>,
    member: Option<&str>,
    tx: &Sender,
) -> io::Result<()> {
    decode_stream(codec, raw, member, tx).map_err(|e| match (codec, e.kind()) {
        (Codec::Plain | Codec::Zip, _) | (_, io::ErrorKind::Interrupted) => e,
        _ if e.raw_os_error().is_some() => e,
        _ if e.get_ref().is_some_and(|inner| inner.is::<TrailingBytes>()) => e,
        _ => io::Error::new(
            io::ErrorKind::InvalidData,
            format!("corrupt or truncated {} data ({e})", codec.name()),
        ),
    })
}

/// [`decode`] without the wording of its errors. `member`: the zip member to read.
fn decode_stream(
    codec: Codec,
    raw: Box<dyn Read + Send>,
    member: Option<&str>,
    tx: &Sender,
) -> io::Result<()> {
    let raw = BufReader::with_capacity(64 * 1024, raw);
    match codec {
        Codec::Plain => pump(raw, tx),
        Codec::Gzip => gzip_members(raw, tx),
        Codec::Zstd => pump(zstd::stream::read::Decoder::with_buffer(raw)?, tx),
        Codec::Xz => pump(liblzma::bufread::XzDecoder::new_multi_decoder(raw), tx),
        Codec::Bzip2 => pump(bzip2::bufread::MultiBzDecoder::new(raw), tx),
        Codec::Zip => archive::pump_zip(raw, member, tx),
    }
}

/// Bytes after the last whole member of a gzip input that start no other member: junk or
/// padding appended to a good file, not a cut or corrupt one, which `corrupt or truncated
/// gzip data (unexpected end of file)` would wrongly say.
#[derive(Debug, thiserror::Error)]
#[error(
    "trailing bytes after the gzip data: its members are whole, but what follows them is no \
     gzip member; cut it off"
)]
struct TrailingBytes;

/// Decompresses every member of the gzip input `raw` in turn, as `MultiGzDecoder` would,
/// and sends the bytes; a member's decoder leaves `raw` just after its trailer, so what
/// follows is looked at: nothing (the end), a gzip magic's first byte (the next member,
/// whose own errors say corrupt or truncated), or anything else ([`TrailingBytes`]).
fn gzip_members<R: BufRead>(mut raw: R, tx: &Sender) -> io::Result<()> {
    loop {
        pump(flate2::bufread::GzDecoder::new(&mut raw), tx)?;
        match raw.fill_buf()? {
            [] => return Ok(()),
            [0x1F, ..] => continue,
            _ => return Err(io::Error::new(io::ErrorKind::InvalidData, TrailingBytes)),
        }
    }
}

/// Transcodes UTF-16 text to UTF-8 as it is read.
pub struct Utf16Reader<R> {
    inner: R,
    decoder: encoding_rs::Decoder,
    input: Vec<u8>,
    output: Vec<u8>,
    pos: usize,
    eof: bool,
}

impl<R: Read> Utf16Reader<R> {
    /// A reader of the UTF-8 text of `inner`, UTF-16 text in `encoding`
    /// ([`encoding_rs::UTF_16LE`] or [`encoding_rs::UTF_16BE`]). A byte-order mark at its
    /// start wins over `encoding` and is removed.
    pub fn new(inner: R, encoding: &'static encoding_rs::Encoding) -> Utf16Reader<R> {
        Utf16Reader {
            inner,
            decoder: encoding.new_decoder(),
            input: Vec::new(),
            output: Vec::new(),
            pos: 0,
            eof: false,
        }
    }
}

impl<R: Read> Read for Utf16Reader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.pos == self.output.len() {
            if self.eof {
                return Ok(0);
            }
            // One read, not a full 64 KiB: a live input's lines come as they are written.
            self.input.clear();
            self.eof = read_append(&mut self.inner, &mut self.input, 64 * 1024)? == 0;
            let room = self
                .decoder
                .max_utf8_buffer_length(self.input.len())
                .unwrap_or(4 * self.input.len() + 16);
            self.output.resize(room, 0);
            let (_, _, written, _) =
                self.decoder
                    .decode_to_utf8(&self.input, &mut self.output, self.eof);
            self.output.truncate(written);
            self.pos = 0;
        }
        let n = buf.len().min(self.output.len() - self.pos);
        buf[..n].copy_from_slice(&self.output[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_is_told_by_its_bom_or_by_a_nul_every_other_byte() {
        let name = |head: &[u8]| utf16(head).map(encoding_rs::Encoding::name);
        assert_eq!(name(b"\xFF\xFE"), Some("UTF-16LE"));
        assert_eq!(
            name(b"\xFE\xFF1\x00"),
            Some("UTF-16LE"),
            "the BOM picks the order"
        );
        assert_eq!(name(b"p\0u\0z\0z\0"), Some("UTF-16LE"));
        assert_eq!(name(b"\0p\0u\0z\0z"), Some("UTF-16BE"));
        assert_eq!(name(b"1\0\n\0"), Some("UTF-16LE"), "one short line");
        // Text, one character, a NUL out of step, and binary are not UTF-16.
        for head in [
            &b"puzzle,s"[..],
            b"\xC3\xA9t\xC3\xA9",
            b"1\0",
            b"p\0u\0zz",
            b"\0\0\0\0",
            b"\x93NUMPY\x01\0",
        ] {
            assert_eq!(name(head), None, "{head:?}");
        }
    }

    /// UTF-32 is not taken for UTF-16 (its BOM starts with UTF-16's) or for bytes.
    #[test]
    fn utf32_is_told_with_or_without_a_bom_and_utf16_is_not_taken_for_it() {
        let text = "quizzes,solutions\n";
        let le: Vec<u8> = text
            .chars()
            .flat_map(|c| (c as u32).to_le_bytes())
            .collect();
        let be: Vec<u8> = text
            .chars()
            .flat_map(|c| (c as u32).to_be_bytes())
            .collect();
        let bom_le = [&[0xFF, 0xFE, 0, 0][..], &le].concat();
        let bom_be = [&[0, 0, 0xFE, 0xFF][..], &be].concat();
        for (bytes, order) in [
            (le, "UTF-32LE"),
            (be, "UTF-32BE"),
            (bom_le, "UTF-32LE"),
            (bom_be, "UTF-32BE"),
        ] {
            let head = &bytes[..TEXT_HEAD];
            assert_eq!(utf32(head), Some(order), "{head:?}");
            let e = refuse_utf32(head).unwrap_err();
            let want = format!("{order} text (UTF-32) is not supported");
            assert!(e.to_string().starts_with(&want), "{e}");
        }
        let units: Vec<u16> = text.encode_utf16().collect();
        let utf16le: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
        let with_bom = [&[0xFF, 0xFE][..], &utf16le].concat();
        for head in [
            &utf16le[..TEXT_HEAD],
            &with_bom[..TEXT_HEAD],
            b"puzzle,s",
            b"1\0\0\0",
        ] {
            assert_eq!(utf32(head), None, "{head:?}");
        }
    }

    #[test]
    fn utf16_without_a_bom_is_decoded_in_its_order() {
        let text = "quizzes,solutions\n";
        let units: Vec<u16> = text.encode_utf16().collect();
        for (bytes, encoding) in [
            (
                units
                    .iter()
                    .flat_map(|u| u.to_le_bytes())
                    .collect::<Vec<u8>>(),
                encoding_rs::UTF_16LE,
            ),
            (
                units.iter().flat_map(|u| u.to_be_bytes()).collect(),
                encoding_rs::UTF_16BE,
            ),
        ] {
            assert_eq!(utf16(&bytes[..TEXT_HEAD]), Some(encoding));
            let mut out = String::new();
            Utf16Reader::new(&bytes[..], encoding)
                .read_to_string(&mut out)
                .unwrap();
            assert_eq!(out, text);
        }
    }
}
