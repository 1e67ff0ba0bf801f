//! Where the bytes of an input come from: a read-only memory map of a regular file, or bytes
//! read from standard input, a pipe, a special file or (with `--no-mmap`) a file.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use super::InputError;

/// The bytes of one input: a read-only memory map or an owned buffer.
pub enum Source {
    /// A memory-mapped regular file.
    Mapped(memmap2::Mmap),
    /// Bytes read into memory (stdin, pipes, `--no-mmap`, files that cannot be mapped).
    Owned(Vec<u8>),
}

impl Source {
    /// The whole input.
    pub fn bytes(&self) -> &[u8] {
        match self {
            Source::Mapped(m) => m,
            Source::Owned(v) => v,
        }
    }
}

/// Maps `file` read-only.
///
/// # Safety
/// The file must not be truncated or modified while the map is alive: a truncation makes
/// reads past the new end raise SIGBUS, and a modification changes bytes under the parser.
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

/// Opens `path` (`-` = stdin). Regular files are mapped when `mmap` is true; everything
/// else, and any file the kernel will not map, is read into memory.
///
/// # Errors
/// [`InputError::Io`] when the file cannot be opened or read, [`InputError::Directory`]
/// for a directory.
pub fn open(path: &str, mmap: bool) -> Result<Source, InputError> {
    let io_err = |source| InputError::Io {
        path: path.to_string(),
        source,
    };
    if path == "-" {
        let mut buf = Vec::new();
        io::stdin().lock().read_to_end(&mut buf).map_err(io_err)?;
        return Ok(Source::Owned(buf));
    }
    let meta = std::fs::metadata(Path::new(path)).map_err(io_err)?;
    if meta.is_dir() {
        return Err(InputError::Directory {
            path: path.to_string(),
        });
    }
    let mut file = File::open(path).map_err(io_err)?;
    if mmap && meta.is_file() && meta.len() > 0 {
        // SAFETY: we only read the map. A file changed under us by another process can
        // give wrong records or SIGBUS; README documents this and offers --no-mmap.
        if let Ok(map) = unsafe { map_file(&file) } {
            return Ok(Source::Mapped(map));
        }
    }
    let mut buf = Vec::with_capacity(meta.len() as usize);
    file.read_to_end(&mut buf).map_err(io_err)?;
    Ok(Source::Owned(buf))
}

/// `source` as UTF-8 when it is UTF-16 text (a byte-order mark `FF FE` or `FE FF`, as Excel's
/// "Unicode Text" writes), else `source` unchanged. The decoded text has no byte-order mark;
/// a malformed code unit becomes U+FFFD, which makes its record invalid, not the input.
pub fn decode_utf16(source: Source) -> Source {
    let bytes = source.bytes();
    match encoding_rs::Encoding::for_bom(bytes) {
        Some((enc, _)) if enc != encoding_rs::UTF_8 => {
            let (text, _) = enc.decode_with_bom_removal(bytes);
            Source::Owned(text.into_owned().into_bytes())
        }
        _ => source,
    }
}
