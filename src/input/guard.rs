//! The SIGBUS guard: a memory-mapped input that shrinks while it is read never kills the
//! process (issue 10).
//!
//! When another process truncates a file we have mapped, the kernel removes the pages past
//! the new end from the map, and the next read of one of them raises SIGBUS, whose default
//! action kills the process (exit 135) with temporaries left behind and no word of why.
//! [`MappedFile`] registers its address range in a fixed table, and a SIGBUS handler
//! (installed once, on Linux) looks the faulting address up there:
//!
//! - **inside a registered map**: the handler maps anonymous zero pages over the rest of
//!   that map, from the faulting page to its end (`mmap` with `MAP_FIXED`), marks the map
//!   [faulted](MappedFile::faulted) and returns. The read that faulted is run again and sees
//!   zero bytes, so the reader goes on harmlessly to the end of its block; the dataset then
//!   sees the mark and stops the run through the normal error path (one line, exit 2,
//!   outputs not committed, their temporaries removed).
//! - **anywhere else**: the handler that was there before (Rust's stack-overflow report, or
//!   the default action) gets the signal, so a real bug still ends the process as before.
//!
//! Rejected: writing a message and calling `_exit(2)` from the handler. It is simpler, but it
//! needs every output's temporary registered in advance, skips the commit logic's own
//! clean-up, and gives a second exit path to keep in step with the first.
//!
//! Elsewhere than Linux no handler is installed: a truncation there can still end the
//! process with SIGBUS, and `--no-mmap` avoids it (README, "Memory and the memory map").

use std::ops::Deref;

/// A read-only memory map of a file, guarded against the file shrinking under it (see the
/// module documentation).
pub struct MappedFile {
    map: memmap2::Mmap,
    /// The slot of the guard's table that holds this map's range (`None` without a guard).
    slot: Option<usize>,
}

impl MappedFile {
    /// Guards `map`. `None` when the guard cannot take it (its table is full, or the handler
    /// could not be installed): the caller then reads the file as a stream instead.
    pub fn new(map: memmap2::Mmap) -> Option<MappedFile> {
        #[cfg(target_os = "linux")]
        {
            let slot = imp::register(map.as_ptr() as usize, map.len())?;
            Some(MappedFile {
                map,
                slot: Some(slot),
            })
        }
        #[cfg(not(target_os = "linux"))]
        Some(MappedFile { map, slot: None })
    }

    /// Whether a read of the map faulted (SIGBUS: the file shrank, or a page of it could not
    /// be read) and the rest of the map now reads as zero bytes. Once true, records read from
    /// the map since it was opened cannot be trusted.
    pub fn faulted(&self) -> bool {
        #[cfg(target_os = "linux")]
        if let Some(slot) = self.slot {
            return imp::faulted(slot);
        }
        false
    }
}

/// Installs the SIGBUS handler now, once per process (the first guarded map installs it
/// otherwise); whether it is in place (never elsewhere than Linux). The library only maps
/// when [`super::ReadOptions::mmap`] asks for it; the binary, which maps by default, calls
/// this at start, so the handler is its own choice and not a side effect of a read.
pub fn install() -> bool {
    #[cfg(target_os = "linux")]
    return imp::install();
    #[cfg(not(target_os = "linux"))]
    false
}

impl Deref for MappedFile {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.map
    }
}

impl Drop for MappedFile {
    /// Takes the range out of the guard's table before the map itself is unmapped (the
    /// fields are dropped after this), so the handler never claims a fault in memory that
    /// is no longer ours.
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        if let Some(slot) = self.slot {
            imp::unregister(slot);
        }
    }
}

#[cfg(target_os = "linux")]
mod imp {
    use std::ffi::{c_int, c_void};
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::OnceLock;

    /// Maps that may be guarded at once; one more is read as a stream.
    const SLOTS: usize = 64;

    /// One registered map: `[start, end)`, and whether a read of it faulted. `end` is 0
    /// while the slot is free or being filled in, so the handler never matches it then.
    struct Slot {
        start: AtomicUsize,
        end: AtomicUsize,
        faulted: AtomicBool,
    }

    static MAPS: [Slot; SLOTS] = [const {
        Slot {
            start: AtomicUsize::new(0),
            end: AtomicUsize::new(0),
            faulted: AtomicBool::new(false),
        }
    }; SLOTS];

    /// The page size, bytes (read once before the handler is installed: `sysconf` is not
    /// on the list of functions a handler may call).
    static PAGE: AtomicUsize = AtomicUsize::new(0);

    /// The SIGBUS action that was in place before ours, for faults outside our maps.
    static PREVIOUS: OnceLock<libc::sigaction> = OnceLock::new();

    /// Registers `[start, start + len)`; `None` when the table is full or the handler is
    /// not installed.
    pub(super) fn register(start: usize, len: usize) -> Option<usize> {
        if start == 0 || len == 0 || !install() {
            return None;
        }
        for (i, slot) in MAPS.iter().enumerate() {
            if slot
                .start
                .compare_exchange(0, start, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
            {
                slot.faulted.store(false, Ordering::SeqCst);
                slot.end.store(start + len, Ordering::Release);
                return Some(i);
            }
        }
        None
    }

    /// Frees slot `i` (its map is about to be unmapped).
    pub(super) fn unregister(i: usize) {
        MAPS[i].end.store(0, Ordering::Release);
        MAPS[i].faulted.store(false, Ordering::SeqCst);
        MAPS[i].start.store(0, Ordering::Release);
    }

    /// Whether a read of slot `i`'s map faulted.
    pub(super) fn faulted(i: usize) -> bool {
        MAPS[i].faulted.load(Ordering::SeqCst)
    }

    /// Installs the handler once per process; whether it is in place.
    pub(super) fn install() -> bool {
        static INSTALLED: OnceLock<bool> = OnceLock::new();
        *INSTALLED.get_or_init(|| {
            // SAFETY: sysconf reads a constant of the system; no memory of ours is involved.
            let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
            if page <= 0 || !(page as usize).is_power_of_two() {
                return false;
            }
            PAGE.store(page as usize, Ordering::SeqCst);
            // SAFETY: an all-zero `sigaction` is a valid value of this plain C struct (no
            // handler, empty mask, no flags); `sigaction` then fills `previous` in and
            // installs ours. `on_sigbus` has the three-argument signature that SA_SIGINFO
            // requires. A SIGBUS outside our maps in the instant before PREVIOUS is set
            // finds it unset, and `chain` then takes the default action: what happened
            // before any handler existed. No map is registered before this returns.
            unsafe {
                let mut ours: libc::sigaction = std::mem::zeroed();
                ours.sa_sigaction = on_sigbus as *const () as usize;
                // SA_ONSTACK: a stack overflow that reaches the previous handler (Rust's
                // report) must run on the thread's alternate stack, as it was installed.
                ours.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut ours.sa_mask);
                let mut previous: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(libc::SIGBUS, &ours, &mut previous) != 0 {
                    return false;
                }
                let _ = PREVIOUS.set(previous);
            }
            true
        })
    }

    /// The SIGBUS handler (module documentation of [`super`]).
    ///
    /// It calls only what a signal handler may: atomic loads and stores, `mmap`, the
    /// previous handler, `sigaction` and `raise`. (`mmap` is not on POSIX's list of
    /// async-signal-safe functions, but on Linux it is one system call that takes no lock in
    /// user space, which is what the list guards against.)
    extern "C" fn on_sigbus(sig: c_int, info: *mut libc::siginfo_t, ctx: *mut c_void) {
        // SAFETY: the kernel passes a valid siginfo_t for a handler installed with
        // SA_SIGINFO; si_addr is the faulting address for a fault (and a meaningless value,
        // matched against no map, for a SIGBUS sent by kill).
        let (addr, code) = unsafe { ((*info).si_addr() as usize, (*info).si_code) };
        // A signal sent by a process (si_code <= 0) is not a fault of ours.
        if code > 0 && zero_fill(addr) {
            return;
        }
        // SAFETY: `info` and `ctx` are the kernel's, passed on unchanged to the handler that
        // was installed before ours, as the kernel would have called it.
        unsafe { chain(sig, info, ctx) }
    }

    /// If `addr` lies in a registered map, maps zero pages over that map from `addr`'s page
    /// to its end, marks it faulted and says so.
    fn zero_fill(addr: usize) -> bool {
        let page = PAGE.load(Ordering::Relaxed);
        for slot in &MAPS {
            let end = slot.end.load(Ordering::Acquire);
            let start = slot.start.load(Ordering::Acquire);
            if end == 0 || addr < start || addr >= end {
                continue;
            }
            let from = addr & !(page - 1);
            let to = (end + page - 1) & !(page - 1);
            // SAFETY: errno is saved and restored so the interrupted code never sees ours.
            // `[from, to)` lies inside the registered map (the whole pages of
            // `[start, end)`, as mmap rounds a map up to whole pages), which stays mapped
            // until its MappedFile is dropped, and that unregisters the range first. Other
            // code only reads these bytes, through `&[u8]` borrowed from the map: after this
            // call they read as zeros instead of the file's bytes that no longer exist. A
            // byte changing under a shared borrow is what any mapped file allows (the same
            // as another process writing the file); the readers check every index against
            // the slice's length, which does not change, so the worst outcome is wrong
            // records, and the faulted mark makes the dataset discard the whole run.
            // MAP_FIXED replaces those pages in place; memmap2's munmap of the whole range
            // later removes our pages with the rest.
            let mapped = unsafe {
                let errno = *libc::__errno_location();
                let p = libc::mmap(
                    from as *mut c_void,
                    to - from,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                );
                *libc::__errno_location() = errno;
                p != libc::MAP_FAILED
            };
            if mapped {
                slot.faulted.store(true, Ordering::SeqCst);
            }
            return mapped;
        }
        false
    }

    /// Passes a signal that is not ours to the handler installed before ours; with none (the
    /// default action, or ignore, which the kernel does not honour for a fault), restores the
    /// default action and raises the signal again, so the process ends as it would have.
    ///
    /// # Safety
    /// `info` and `ctx` must be the ones the kernel passed to [`on_sigbus`].
    unsafe fn chain(sig: c_int, info: *mut libc::siginfo_t, ctx: *mut c_void) {
        let previous = PREVIOUS.get();
        let handler = previous.map_or(libc::SIG_DFL, |p| p.sa_sigaction);
        match previous {
            Some(p) if handler != libc::SIG_DFL && handler != libc::SIG_IGN => {
                if p.sa_flags & libc::SA_SIGINFO != 0 {
                    // SAFETY: with SA_SIGINFO the previous handler was installed as a
                    // three-argument function, and that is what `handler` holds.
                    let f: extern "C" fn(c_int, *mut libc::siginfo_t, *mut c_void) =
                        unsafe { std::mem::transmute(handler) };
                    f(sig, info, ctx);
                } else {
                    // SAFETY: without SA_SIGINFO it was installed as a one-argument function.
                    let f: extern "C" fn(c_int) = unsafe { std::mem::transmute(handler) };
                    f(sig);
                }
            }
            _ => {
                // SAFETY: sigaction and raise are async-signal-safe; the default action of
                // SIGBUS ends the process once the handler returns and unblocks it (and a
                // fault would raise it again anyway when the read runs again).
                unsafe {
                    let mut default: libc::sigaction = std::mem::zeroed();
                    default.sa_sigaction = libc::SIG_DFL;
                    libc::sigemptyset(&mut default.sa_mask);
                    libc::sigaction(sig, &default, std::ptr::null_mut());
                    libc::raise(sig);
                }
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::super::MappedFile;
        use super::*;

        #[test]
        fn a_read_past_a_truncation_reads_zeros_and_marks_the_map() {
            let page = {
                install();
                PAGE.load(Ordering::SeqCst)
            };
            let mut file = tempfile::tempfile().unwrap();
            std::io::Write::write_all(&mut file, &vec![b'7'; 3 * page]).unwrap();
            // SAFETY: the file is ours alone; truncating it under the map is the point of
            // the test, and the guard below is what makes that sound.
            let map = unsafe { crate::input::source::map_file(&file) }.unwrap();
            let map = MappedFile::new(map).expect("a free slot");
            assert_eq!(map[page], b'7');
            assert!(!map.faulted());
            file.set_len(10).unwrap();
            // The first page still holds the file's first 10 bytes; the third is gone.
            let past = std::ptr::addr_of!(map[2 * page + 5]);
            // SAFETY: `past` points into the map, which is alive; a volatile read makes the
            // fault happen here rather than be optimised away.
            assert_eq!(unsafe { std::ptr::read_volatile(past) }, 0);
            assert!(map.faulted());
            assert_eq!(map[0], b'7');
            assert_eq!(map.len(), 3 * page);
        }

        #[test]
        fn the_table_registers_and_frees_ranges() {
            let a = register(0x1000_0000, 100).unwrap();
            let b = register(0x2000_0000, 100).unwrap();
            assert_ne!(a, b);
            assert!(!faulted(a));
            // An address outside every map is not ours; nothing is mapped for it.
            assert!(!zero_fill(0x3000_0000));
            unregister(a);
            unregister(b);
            assert_eq!(MAPS[a].end.load(Ordering::SeqCst), 0);
        }
    }
}
