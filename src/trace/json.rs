//! A trace's steps as one JSON array (the `steps` column of `trace`'s JSON Lines output).
//!
//! Each step is an object; keys present only where the step has them:
//!
//! | key | value |
//! |---|---|
//! | `n` | the step's index in the full trace (0-based) |
//! | `kind` | `placement`, `elimination`, `guess`, `backtrack` |
//! | `technique` | the [`Technique`](super::Technique) name |
//! | `cell` | cell 0..81 (row-major) placed, guessed, taken back, or a wing's pivot |
//! | `digit` | digit 1..=9 placed, guessed, taken back, or of a single-digit elimination |
//! | `cells` | the pattern's cells |
//! | `digits` | the pattern's digits |
//! | `base`, `cover` | the pattern's units 0..27 (rows 0-8, columns 9-17, boxes 18-26) |
//! | `removed` | eliminations: `[cell, digit]` pairs removed |
//! | `depth` | guesses open when the step was taken |
//! | `undone` | `true` for a step under a guess that failed (absent otherwise) |

use super::board::{cells_of, digits_of};
use super::{StepKind, Trace, NO_CELL};

/// Appends the decimal digits of `x` (itoa: `write!` through `core::fmt` was half the run
/// time of a `trace` to JSON Lines).
fn int(out: &mut String, x: impl itoa::Integer) {
    out.push_str(itoa::Buffer::new().format(x));
}

/// Appends `items` as a JSON array of numbers.
fn list(out: &mut String, items: impl Iterator<Item = usize>) {
    out.push('[');
    for (i, x) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        int(out, x);
    }
    out.push(']');
}

/// Writes `t`'s steps to `out` (cleared first) as a JSON array; `placements_only` keeps the
/// placements and guesses that stand in the solution (the steps of the Shah layout).
pub fn steps_json(t: &Trace, placements_only: bool, out: &mut String) {
    out.clear();
    out.push('[');
    let mut first = true;
    for (n, s) in t.kept_steps(placements_only) {
        if !first {
            out.push(',');
        }
        first = false;
        out.push_str("{\"n\":");
        int(out, n);
        out.push_str(",\"kind\":\"");
        out.push_str(s.kind.name());
        out.push_str("\",\"technique\":\"");
        out.push_str(s.technique.name());
        out.push('"');
        if s.cell != NO_CELL {
            out.push_str(",\"cell\":");
            int(out, s.cell);
        }
        if s.digit != 0 {
            out.push_str(",\"digit\":");
            int(out, s.digit);
        }
        if s.cells != 0 {
            out.push_str(",\"cells\":");
            list(out, cells_of(s.cells));
        }
        if s.digits != 0 {
            out.push_str(",\"digits\":");
            list(out, digits_of(s.digits).map(usize::from));
        }
        for (key, units) in [(",\"base\":", s.base), (",\"cover\":", s.cover)] {
            if units != 0 {
                out.push_str(key);
                list(out, (0..27).filter(|u| units >> u & 1 != 0));
            }
        }
        if s.kind == StepKind::Elimination {
            out.push_str(",\"removed\":[");
            let mut first_pair = true;
            for &(c, m) in t.removed_by(s) {
                for d in digits_of(m) {
                    if !first_pair {
                        out.push(',');
                    }
                    first_pair = false;
                    out.push('[');
                    int(out, c);
                    out.push(',');
                    int(out, d);
                    out.push(']');
                }
            }
            out.push(']');
        }
        out.push_str(",\"depth\":");
        int(out, s.depth);
        if s.undone {
            out.push_str(",\"undone\":true");
        }
        out.push('}');
    }
    out.push(']');
}
