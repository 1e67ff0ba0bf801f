//! An independent trace checker: replays a trace on its own board (candidates as `bool`
//! arrays, units listed by loops) and checks every step against the definition of its
//! technique, written here from the definitions and not from the solver's code.

use sudoku_batch::grid::Grid;
use sudoku_batch::trace::{Outcome, StepKind, Technique, Trace};

#[derive(Clone)]
struct Board {
    cells: [u8; 81],
    cand: [[bool; 10]; 81],
}

fn row_of(c: usize) -> usize {
    c / 9
}
fn col_of(c: usize) -> usize {
    c % 9
}
fn box_of(c: usize) -> usize {
    (c / 9) / 3 * 3 + (c % 9) / 3
}

/// Cells of unit `u`: rows 0-8, columns 9-17, boxes 18-26.
fn unit(u: usize) -> Vec<usize> {
    (0..81)
        .filter(|&c| match u / 9 {
            0 => row_of(c) == u,
            1 => col_of(c) == u - 9,
            _ => box_of(c) == u - 18,
        })
        .collect()
}

fn sees(a: usize, b: usize) -> bool {
    a != b && (row_of(a) == row_of(b) || col_of(a) == col_of(b) || box_of(a) == box_of(b))
}

fn set_bits(mask: u128) -> Vec<usize> {
    (0..81).filter(|&c| mask >> c & 1 == 1).collect()
}
fn unit_bits(mask: u32) -> Vec<usize> {
    (0..27).filter(|&u| mask >> u & 1 == 1).collect()
}
fn digit_bits(mask: u16) -> Vec<u8> {
    (1..=9).filter(|&d| mask >> (d - 1) & 1 == 1).collect()
}

impl Board {
    fn new(g: &Grid) -> Board {
        let mut b = Board {
            cells: [0; 81],
            cand: [[true; 10]; 81],
        };
        for c in 0..81 {
            if g.0[c] != 0 {
                b.set(c, g.0[c]);
            }
        }
        b
    }
    fn set(&mut self, c: usize, d: u8) {
        self.cells[c] = d;
        self.cand[c] = [false; 10];
        for p in 0..81 {
            if sees(c, p) {
                self.cand[p][usize::from(d)] = false;
            }
        }
    }
    fn cands(&self, c: usize) -> Vec<u8> {
        if self.cells[c] != 0 {
            return vec![];
        }
        (1..=9).filter(|&d| self.cand[c][usize::from(d)]).collect()
    }
    fn has(&self, c: usize, d: u8) -> bool {
        self.cells[c] == 0 && self.cand[c][usize::from(d)]
    }
    fn broken(&self) -> bool {
        (0..81).any(|c| self.cells[c] == 0 && self.cands(c).is_empty())
            || (0..27).any(|u| {
                (1..=9).any(|d| {
                    unit(u)
                        .iter()
                        .all(|&c| self.cells[c] != d && !self.has(c, d))
                })
            })
    }
}

/// The candidates (cell, digit) that an elimination step's named technique, by its
/// definition, removes on board `b`; an error when the pattern is not that technique.
fn implied(
    b: &Board,
    t: Technique,
    s: &sudoku_batch::trace::Step,
) -> Result<Vec<(usize, u8)>, String> {
    let cells = set_bits(s.cells);
    let digits = digit_bits(s.digits);
    let base = unit_bits(s.base);
    let cover = unit_bits(s.cover);
    let mut out = Vec::new();
    match t {
        Technique::Pointing | Technique::Claiming | Technique::XWing | Technique::Swordfish => {
            let d = s.digit;
            let n = match t {
                Technique::XWing => 2,
                Technique::Swordfish => 3,
                _ => 1,
            };
            if base.len() != n || cover.len() != n {
                return Err(format!(
                    "{} base and {} cover units",
                    base.len(),
                    cover.len()
                ));
            }
            let kinds_ok = match t {
                Technique::Pointing => base[0] >= 18 && cover[0] < 18,
                Technique::Claiming => base[0] < 18 && cover[0] >= 18,
                _ => {
                    (base.iter().all(|&u| u < 9) && cover.iter().all(|&u| (9..18).contains(&u)))
                        || (base.iter().all(|&u| (9..18).contains(&u))
                            && cover.iter().all(|&u| u < 9))
                }
            };
            if !kinds_ok {
                return Err(format!("base {base:?} cover {cover:?} of the wrong kinds"));
            }
            let in_any = |us: &[usize], c: usize| us.iter().any(|&u| unit(u).contains(&c));
            for c in 0..81 {
                if in_any(&base, c) && b.has(c, d) && !in_any(&cover, c) {
                    return Err(format!("cell {c} holds {d} in base outside the cover"));
                }
            }
            for c in 0..81 {
                if in_any(&cover, c) && !in_any(&base, c) {
                    out.push((c, d));
                }
            }
        }
        Technique::NakedPair | Technique::NakedTriple | Technique::NakedQuad => {
            let n = 2 + [
                Technique::NakedPair,
                Technique::NakedTriple,
                Technique::NakedQuad,
            ]
            .iter()
            .position(|&x| x == t)
            .expect("a naked subset");
            let [u] = base[..] else {
                return Err("not one unit".into());
            };
            let members = unit(u);
            if cells.len() != n
                || !cells
                    .iter()
                    .all(|c| members.contains(c) && b.cells[*c] == 0)
            {
                return Err(format!(
                    "cells {cells:?} are not {n} empty cells of unit {u}"
                ));
            }
            let mut union: Vec<u8> = cells.iter().flat_map(|&c| b.cands(c)).collect();
            union.sort();
            union.dedup();
            if union.len() != n {
                return Err(format!("cells {cells:?} hold {union:?}"));
            }
            for &c in &members {
                if !cells.contains(&c) {
                    out.extend(union.iter().map(|&d| (c, d)));
                }
            }
        }
        Technique::HiddenPair | Technique::HiddenTriple | Technique::HiddenQuad => {
            let n = 2 + [
                Technique::HiddenPair,
                Technique::HiddenTriple,
                Technique::HiddenQuad,
            ]
            .iter()
            .position(|&x| x == t)
            .expect("a hidden subset");
            let [u] = base[..] else {
                return Err("not one unit".into());
            };
            let members = unit(u);
            if cells.len() != n || digits.len() != n || !cells.iter().all(|c| members.contains(c)) {
                return Err(format!(
                    "{cells:?} / {digits:?} is not a subset of {n} in unit {u}"
                ));
            }
            for &c in &members {
                for &d in &digits {
                    if b.has(c, d) && !cells.contains(&c) {
                        return Err(format!("digit {d} also in cell {c}"));
                    }
                }
            }
            for &c in &cells {
                out.extend((1..=9).filter(|d| !digits.contains(d)).map(|d| (c, d)));
            }
        }
        Technique::XyWing | Technique::XyzWing => {
            let (p, z) = (usize::from(s.cell), s.digit);
            let [a, c2] = cells[..] else {
                return Err("not two pincers".into());
            };
            let (pc, ac, bc) = (b.cands(p), b.cands(a), b.cands(c2));
            if !sees(p, a) || !sees(p, c2) || ac.len() != 2 || bc.len() != 2 {
                return Err("pincers not bivalue cells the pivot sees".into());
            }
            if !ac.contains(&z) || !bc.contains(&z) {
                return Err(format!("z = {z} not in both pincers"));
            }
            let x = ac.iter().find(|&&d| d != z).copied();
            let y = bc.iter().find(|&&d| d != z).copied();
            let (Some(x), Some(y)) = (x, y) else {
                return Err("pincer without x/y".into());
            };
            let mut want = if t == Technique::XyWing {
                vec![x, y]
            } else {
                vec![x, y, z]
            };
            want.sort();
            if x == y || pc != want {
                return Err(format!("pivot {pc:?} against pincers {ac:?} {bc:?}"));
            }
            for c in 0..81 {
                let all = sees(c, a) && sees(c, c2) && (t == Technique::XyWing || sees(c, p));
                if all && c != p {
                    out.push((c, z));
                }
            }
        }
        _ => return Err(format!("{t:?} is not an elimination")),
    }
    Ok(out)
}

/// Replays `t` on `puzzle` and checks it (see the module doc); returns the final board.
pub fn check(puzzle: &Grid, t: &Trace) -> Result<Grid, String> {
    let mut b = Board::new(puzzle);
    let mut open: Vec<(Board, usize)> = Vec::new();
    let mut undone = vec![false; t.steps.len()];
    for (i, s) in t.steps.iter().enumerate() {
        let at = |m: String| format!("step {i} ({:?} {:?}): {m}", s.kind, s.technique);
        let (c, d) = (usize::from(s.cell), s.digit);
        match s.kind {
            StepKind::Placement | StepKind::Guess => {
                if c >= 81 || !b.has(c, d) {
                    return Err(at(format!("{d} is not a candidate of cell {c}")));
                }
                match s.technique {
                    Technique::NakedSingle if b.cands(c) != [d] => {
                        return Err(at(format!("cell {c} has {:?}", b.cands(c))));
                    }
                    Technique::HiddenSingleBox
                    | Technique::HiddenSingleRow
                    | Technique::HiddenSingleColumn => {
                        let [u] = unit_bits(s.base)[..] else {
                            return Err(at("no unit".into()));
                        };
                        let kind = [
                            Technique::HiddenSingleRow,
                            Technique::HiddenSingleColumn,
                            Technique::HiddenSingleBox,
                        ][u / 9];
                        let spots: Vec<usize> =
                            unit(u).into_iter().filter(|&x| b.has(x, d)).collect();
                        if kind != s.technique || spots != [c] {
                            return Err(at(format!("{d} in unit {u} at {spots:?}")));
                        }
                    }
                    Technique::NakedSingle => {}
                    Technique::Guess if s.kind == StepKind::Guess => open.push((b.clone(), i)),
                    other => return Err(at(format!("{other:?} does not place"))),
                }
                b.set(c, d);
            }
            StepKind::Backtrack => {
                if !b.broken() {
                    return Err(at("backtrack on a board with no contradiction".into()));
                }
                let Some((before, g)) = open.pop() else {
                    return Err(at("no open guess".into()));
                };
                let guess = &t.steps[g];
                if (guess.cell, guess.digit) != (s.cell, s.digit) {
                    return Err(at("does not take back the latest guess".into()));
                }
                undone[g..i].iter_mut().for_each(|u| *u = true);
                b = before;
                b.cand[c][usize::from(d)] = false;
            }
            StepKind::Elimination => {
                let removed = t.removed_by(s);
                if removed.is_empty() {
                    return Err(at("removes nothing".into()));
                }
                let implied = implied(&b, s.technique, s).map_err(at)?;
                for &(cell, mask) in removed {
                    for d in digit_bits(mask) {
                        let cell = usize::from(cell);
                        if !b.has(cell, d) {
                            return Err(at(format!("{d} is not a candidate of {cell}")));
                        }
                        if !implied.contains(&(cell, d)) {
                            return Err(at(format!("{d} at {cell} is not implied")));
                        }
                        b.cand[cell][usize::from(d)] = false;
                    }
                }
            }
        }
    }
    let marked: Vec<bool> = t.steps.iter().map(|s| s.undone).collect();
    if marked != undone {
        return Err("steps marked undone are not those of the failed guesses".into());
    }
    let grid = Grid(b.cells);
    match t.outcome {
        Some(Outcome::Solved)
            if grid != t.grid || !grid.is_complete_valid() || !grid.keeps_givens(puzzle) =>
        {
            Err("the final grid is not a solution of the puzzle".into())
        }
        Some(Outcome::Unsolvable) if !open.is_empty() || !b.broken() => {
            Err("unsolvable without every branch failed".into())
        }
        _ => Ok(grid),
    }
}
