//! A stream read on a thread of its own, handed over in pieces: how a compressed input is
//! decoded beside the workers, and how a live input (standard input, a pipe, a FIFO, a
//! terminal) is read so that the block reader can tell "nothing has arrived yet" from "the
//! input ended", and can give up waiting on Ctrl-C.
//!
//! Reading a live input straight from the caller's thread left two things impossible: the
//! block reader could not know whether a read would wait, so it waited
//! for a full block or the end before the workers saw a record, however slowly the producer
//! wrote; and a read blocked in the kernel does not return on Ctrl-C, so the run waited for
//! the producer to close the pipe. Here the thread does the waiting: [`Feed::ready`] says
//! whether bytes are there without waiting, and [`Feed::append`] waits only until a stop
//! flag is set. A thread still blocked in a read when the run ends is left to the process
//! exit; once the feed is dropped, its next send fails and it stops.

use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender, TryRecvError};
use std::time::Duration;

/// Bytes a producer thread reads at a time, and the most one piece holds.
pub const PIECE: usize = 256 * 1024;
/// Pieces a producer thread may run ahead of the reader (so at most 1 MiB in flight).
const PIECES_AHEAD: usize = 4;
/// How often a wait for bytes looks at its stop flag: Ctrl-C is seen within this.
const POLL: Duration = Duration::from_millis(50);

/// The sending end a producer thread writes its pieces into.
pub type Sender = SyncSender<io::Result<Vec<u8>>>;

/// The reading end of a stream produced by a thread, in order. The thread ends the stream
/// with an empty piece; a channel closed without it (the thread died) is an error, never a
/// silent end of the input.
pub struct Feed {
    rx: Receiver<io::Result<Vec<u8>>>,
    piece: Vec<u8>,
    pos: usize,
    /// The empty piece came: the input ended.
    done: bool,
    /// An error received while looking ahead ([`Feed::ready`]), for the next read.
    failed: Option<io::Error>,
}

/// How long [`Feed::next_piece`] may wait for a piece.
#[derive(Clone, Copy)]
enum Wait<'a> {
    /// Not at all.
    No,
    /// Until the flag is set.
    Until(&'a AtomicBool),
    /// Until a piece comes.
    Forever,
}

impl Feed {
    /// Starts a thread named `name` that runs `produce`, which sends the stream's bytes in
    /// non-empty pieces of at most [`PIECE`] bytes; the thread then sends the empty piece
    /// that ends the stream, or `produce`'s error.
    ///
    /// # Errors
    /// When the OS refuses the thread.
    pub fn spawn<F>(name: String, produce: F) -> io::Result<Feed>
    where
        F: FnOnce(&Sender) -> io::Result<()> + Send + 'static,
    {
        let (tx, rx) = sync_channel(PIECES_AHEAD);
        std::thread::Builder::new().name(name).spawn(move || {
            // A send fails only when the reader is gone (the run stopped).
            let _ = tx.send(produce(&tx).map(|()| Vec::new()));
        })?;
        Ok(Feed {
            rx,
            piece: Vec::new(),
            pos: 0,
            done: false,
            failed: None,
        })
    }

    /// A feed of `reader`'s bytes, read on a thread named `name` and sent as each read
    /// returns them ([`pump`]).
    ///
    /// # Errors
    /// When the OS refuses the thread.
    pub fn of_reader<R: Read + Send + 'static>(name: String, reader: R) -> io::Result<Feed> {
        Feed::spawn(name, move |tx| pump(reader, tx))
    }

    /// Whether a read would return at once: bytes have arrived, the input ended, or an
    /// error is there to report.
    pub fn ready(&mut self) -> bool {
        match self.next_piece(Wait::No) {
            Ok(got) => got,
            Err(e) => {
                self.failed = Some(e);
                true
            }
        }
    }

    /// Appends up to `max` bytes to `buf`, waiting for them until `stop` is set. Returns
    /// how many (0 at the end of the input), or `None` when `stop` was set before any came.
    ///
    /// # Errors
    /// The producer's error (a read or decompression error), or its thread's end without
    /// the end of the input.
    pub fn append(
        &mut self,
        buf: &mut Vec<u8>,
        max: usize,
        stop: &AtomicBool,
    ) -> io::Result<Option<usize>> {
        if !self.next_piece(Wait::Until(stop))? {
            return Ok(None);
        }
        let rest = &self.piece[self.pos..];
        let n = rest.len().min(max);
        buf.extend_from_slice(&rest[..n]);
        self.pos += n;
        Ok(Some(n))
    }

    /// Puts `bytes` back before the bytes not read yet (a look at the input's first bytes).
    pub fn unread(&mut self, bytes: &[u8]) {
        let mut piece = bytes.to_vec();
        piece.extend_from_slice(&self.piece[self.pos..]);
        self.piece = piece;
        self.pos = 0;
    }

    /// Makes sure a piece with bytes left is current, or the end was seen, waiting as
    /// `wait` says; `false` when none came in that time.
    fn next_piece(&mut self, wait: Wait) -> io::Result<bool> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        while self.pos == self.piece.len() && !self.done {
            let got = match wait {
                Wait::Forever => self.rx.recv().ok(),
                Wait::No => match self.rx.try_recv() {
                    Err(TryRecvError::Empty) => return Ok(false),
                    got => got.ok(),
                },
                Wait::Until(stop) => loop {
                    if stop.load(Ordering::Relaxed) {
                        return Ok(false);
                    }
                    match self.rx.recv_timeout(POLL) {
                        Err(RecvTimeoutError::Timeout) => {}
                        got => break got.ok(),
                    }
                },
            };
            match got {
                Some(Ok(piece)) => {
                    self.done = piece.is_empty();
                    self.piece = piece;
                    self.pos = 0;
                }
                Some(Err(e)) => return Err(e),
                None => return Err(io::Error::other("the reading thread stopped")),
            }
        }
        Ok(true)
    }
}

impl Read for Feed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.next_piece(Wait::Forever)?;
        let rest = &self.piece[self.pos..];
        let n = buf.len().min(rest.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.pos += n;
        Ok(n)
    }
}

/// Sends the bytes of `r` into `tx`, each read's bytes as soon as it returns them (so a
/// slow producer's lines are not held back to fill a piece). Stops at the end of `r`, or
/// when the reader is gone.
///
/// # Errors
/// A read error of `r`.
pub fn pump<R: Read>(mut r: R, tx: &Sender) -> io::Result<()> {
    loop {
        let mut piece = Vec::new();
        let n = read_append(&mut r, &mut piece, PIECE)?;
        if n == 0 || tx.send(Ok(piece)).is_err() {
            return Ok(());
        }
    }
}

/// Appends to `buf` what one read of `r` returns, up to `max` bytes (a read interrupted by
/// a signal is tried again): how many, 0 at the end of `r`. One read, not a loop until
/// `max`, so a live input's lines are handed on as they are written.
///
/// # Errors
/// A read error of `r`; `buf` is then as it was.
pub fn read_append<R: Read + ?Sized>(
    r: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<usize> {
    let old = buf.len();
    buf.resize(old + max, 0);
    let n = loop {
        match r.read(&mut buf[old..]) {
            Ok(n) => break n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                buf.truncate(old);
                return Err(e);
            }
        }
    };
    buf.truncate(old + n);
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_feed_gives_the_bytes_in_order_says_when_it_waits_and_gives_up_on_stop() {
        let (tx, rx) = std::sync::mpsc::channel::<Vec<u8>>();
        let mut feed = Feed::spawn("test-feed".to_string(), move |out| {
            for piece in rx {
                if out.send(Ok(piece)).is_err() {
                    break;
                }
            }
            Ok(())
        })
        .unwrap();
        let stop = AtomicBool::new(false);
        let mut buf = Vec::new();
        tx.send(b"abc".to_vec()).unwrap();
        assert_eq!(feed.append(&mut buf, 2, &stop).unwrap(), Some(2));
        assert!(feed.ready(), "one byte of the piece is left");
        assert_eq!(feed.append(&mut buf, 10, &stop).unwrap(), Some(1));
        assert!(!feed.ready(), "nothing more has been sent");
        stop.store(true, Ordering::Relaxed);
        assert_eq!(feed.append(&mut buf, 10, &stop).unwrap(), None);
        feed.unread(b"x");
        tx.send(b"de".to_vec()).unwrap();
        drop(tx);
        let mut rest = Vec::new();
        feed.read_to_end(&mut rest).unwrap();
        assert_eq!((buf, rest), (b"abc".to_vec(), b"xde".to_vec()));
        assert!(feed.ready(), "the end is there to read");
    }

    #[test]
    fn a_producer_error_is_kept_for_the_read_after_a_look_ahead() {
        let mut feed = Feed::spawn("test-feed".to_string(), |_| {
            Err(io::Error::new(io::ErrorKind::InvalidData, "broken"))
        })
        .unwrap();
        let mut buf = Vec::new();
        // Wait for the error to arrive, then look: the look must not lose it.
        while !feed.ready() {
            std::thread::yield_now();
        }
        let stop = AtomicBool::new(false);
        let e = feed.append(&mut buf, 10, &stop).unwrap_err();
        assert_eq!(e.to_string(), "broken");
    }
}
