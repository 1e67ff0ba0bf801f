//! Symmetric puzzles (`--symmetry`): the cells are grouped into orbits under the chosen
//! symmetry of the square, and givens are removed an orbit at a time, so the pattern of
//! givens keeps the symmetry (the digits need not).

use crate::grid::CELLS;

/// A symmetry of the pattern of givens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Symmetry {
    /// No symmetry: each cell on its own.
    #[default]
    None,
    /// Half-turn about the centre: `(r, c)` with `(8 - r, 8 - c)`.
    Rotate180,
    /// Quarter-turns about the centre: `(r, c)`, `(c, 8 - r)`, `(8 - r, 8 - c)`, `(8 - c, r)`.
    Rotate90,
    /// Mirror in the main diagonal: `(r, c)` with `(c, r)`.
    Diagonal,
    /// Mirror in the anti-diagonal: `(r, c)` with `(8 - c, 8 - r)`.
    AntiDiagonal,
    /// Mirror left to right: `(r, c)` with `(r, 8 - c)`.
    Horizontal,
    /// Mirror top to bottom: `(r, c)` with `(8 - r, c)`.
    Vertical,
    /// All eight symmetries of the square (quarter-turns and mirrors).
    Full,
}

/// A map of cells, `(r, c)` to a new `(r, c)`.
type CellMap = fn(usize, usize) -> (usize, usize);

impl Symmetry {
    /// Every symmetry, in the order `--help` lists them.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::None,
        Symmetry::Rotate180,
        Symmetry::Rotate90,
        Symmetry::Diagonal,
        Symmetry::AntiDiagonal,
        Symmetry::Horizontal,
        Symmetry::Vertical,
        Symmetry::Full,
    ];

    /// The name `--symmetry` takes: `none`, `180`, `90`, `diagonal`, `antidiagonal`,
    /// `horizontal`, `vertical`, `full`.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotate180 => "180",
            Symmetry::Rotate90 => "90",
            Symmetry::Diagonal => "diagonal",
            Symmetry::AntiDiagonal => "antidiagonal",
            Symmetry::Horizontal => "horizontal",
            Symmetry::Vertical => "vertical",
            Symmetry::Full => "full",
        }
    }

    /// The symmetry called `name` (see [`Symmetry::name`]; `rotate180`, `rotate90` too).
    pub fn from_name(name: &str) -> Option<Symmetry> {
        let name = name.to_ascii_lowercase();
        let name = name.strip_prefix("rotate").unwrap_or(&name);
        Symmetry::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The maps that generate the group.
    fn generators(self) -> &'static [CellMap] {
        match self {
            Symmetry::None => &[],
            Symmetry::Rotate180 => &[|r, c| (8 - r, 8 - c)],
            Symmetry::Rotate90 => &[|r, c| (c, 8 - r)],
            Symmetry::Diagonal => &[|r, c| (c, r)],
            Symmetry::AntiDiagonal => &[|r, c| (8 - c, 8 - r)],
            Symmetry::Horizontal => &[|r, c| (r, 8 - c)],
            Symmetry::Vertical => &[|r, c| (8 - r, c)],
            Symmetry::Full => &[|r, c| (c, 8 - r), |r, c| (c, r)],
        }
    }

    /// [`Symmetry::orbits`], computed once per symmetry for the whole process: every
    /// candidate needs them (in an order of its own), and building them allocates a
    /// vector per orbit.
    pub fn cached_orbits(self) -> &'static [Vec<u8>] {
        static CACHE: [std::sync::OnceLock<Vec<Vec<u8>>>; Symmetry::ALL.len()] =
            [const { std::sync::OnceLock::new() }; Symmetry::ALL.len()];
        let at = Symmetry::ALL
            .iter()
            .position(|&s| s == self)
            .expect("every symmetry is in ALL");
        CACHE[at].get_or_init(|| self.orbits())
    }

    /// The orbits of the 81 cells (0-based, row-major), each sorted, in the order of their
    /// first cell: every cell in exactly one.
    pub fn orbits(self) -> Vec<Vec<u8>> {
        let mut seen = [false; CELLS];
        let mut orbits = Vec::new();
        for start in 0..CELLS {
            if seen[start] {
                continue;
            }
            seen[start] = true;
            let mut orbit = vec![start];
            let mut i = 0;
            while i < orbit.len() {
                let (r, c) = (orbit[i] / 9, orbit[i] % 9);
                for map in self.generators() {
                    let (nr, nc) = map(r, c);
                    let next = nr * 9 + nc;
                    if !seen[next] {
                        seen[next] = true;
                        orbit.push(next);
                    }
                }
                i += 1;
            }
            orbit.sort_unstable();
            orbits.push(orbit.into_iter().map(|c| c as u8).collect());
        }
        orbits
    }

    /// Whether the pattern of givens of `cells` (0 = blank) has this symmetry.
    pub fn holds(self, cells: &[u8; CELLS]) -> bool {
        self.orbits().iter().all(|o| {
            let given = cells[usize::from(o[0])] != 0;
            o.iter().all(|&c| (cells[usize::from(c)] != 0) == given)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits_partition_the_grid_with_the_sizes_of_each_group() {
        // (orbits, largest orbit): cells fixed by the maps make the smaller orbits.
        let expect = [
            (Symmetry::None, 81, 1),
            (Symmetry::Rotate180, 41, 2),
            (Symmetry::Rotate90, 21, 4),
            (Symmetry::Diagonal, 45, 2),
            (Symmetry::AntiDiagonal, 45, 2),
            (Symmetry::Horizontal, 45, 2),
            (Symmetry::Vertical, 45, 2),
            (Symmetry::Full, 15, 8),
        ];
        for (s, count, largest) in expect {
            let orbits = s.orbits();
            assert_eq!(orbits.len(), count, "{s:?}");
            assert_eq!(orbits.iter().map(Vec::len).max(), Some(largest), "{s:?}");
            let mut all: Vec<u8> = orbits.concat();
            all.sort_unstable();
            assert_eq!(all, (0..81).collect::<Vec<u8>>(), "{s:?}");
            assert_eq!(Symmetry::from_name(s.name()), Some(s));
        }
        assert_eq!(Symmetry::from_name("rotate180"), Some(Symmetry::Rotate180));
        assert_eq!(Symmetry::from_name("45"), None);
    }
}
