//! Where each technique last found nothing, kept on the [`Board`](super::board::Board) so
//! that a technique rescans only the units or digits whose candidates changed since.

/// The techniques that keep a [`Quiet`] set of units, by index into [`Quiet::units`], and
/// those that keep a set of digits.
pub(super) mod scan {
    /// Hidden singles (and the units missing a digit).
    pub const HIDDEN_SINGLE: usize = 0;
    /// Naked subsets of `n` cells: `NAKED + n - 2`.
    pub const NAKED: usize = 1;
    /// Hidden subsets of `n` digits: `HIDDEN + n - 2`.
    pub const HIDDEN: usize = 4;
    /// Pointing, by index into [`Quiet::digits`](super::Quiet::digits).
    pub const POINTING: usize = 0;
    /// Claiming, likewise.
    pub const CLAIMING: usize = 1;
    /// Fish of `n` lines (X-wing, swordfish): `FISH + n - 2`, likewise.
    pub const FISH: usize = 2;
}

/// Where each technique last found nothing: a unit's result (subsets, hidden singles) or a
/// digit's (locked candidates, fish) depends on its own candidates alone, so a technique skips what it found
/// nothing in until a candidate there changes. The board clears the marks as its
/// candidates change, and carries them across guesses with the rest of its state, so a
/// trace is the one a full rescan gives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Quiet {
    /// Per technique ([`scan`]): bit `u` = unit `u` holds nothing for it.
    units: [u32; 7],
    /// Per single-digit technique ([`scan`]): bit `d - 1` = digit `d` gives nothing to it.
    digits: [u16; 4],
    /// Units changed since the marks were last read, not yet cleared from them (a
    /// placement only notes what it changed: most are followed by another naked single,
    /// which reads no mark).
    touched_units: u32,
    /// Digits changed likewise.
    touched_digits: u16,
}

impl Quiet {
    /// Notes that candidates of `units` and of the digits `digits` changed.
    pub(super) fn touch(&mut self, units: u32, digits: u16) {
        self.touched_units |= units;
        self.touched_digits |= digits;
    }

    /// Clears the noted changes from the marks.
    fn settle(&mut self) {
        if self.touched_units | u32::from(self.touched_digits) != 0 {
            for q in &mut self.units {
                *q &= !self.touched_units;
            }
            for q in &mut self.digits {
                *q &= !self.touched_digits;
            }
            self.touched_units = 0;
            self.touched_digits = 0;
        }
    }

    /// The units technique `scan` ([`scan`]) found nothing in (bit `u` = unit `u`).
    pub fn units(&mut self, scan: usize) -> &mut u32 {
        self.settle();
        &mut self.units[scan]
    }

    /// The digits technique `scan` ([`scan`]) found nothing for (bit `d - 1` = digit `d`).
    pub fn digits(&mut self, scan: usize) -> &mut u16 {
        self.settle();
        &mut self.digits[scan]
    }
}
