//! The `sudoku` crate's generator: N truly minimal puzzles with no symmetry
//! (`Sudoku::generate_with_symmetry(Symmetry::None)`), one per line on stdout.
//! Usage: peer-generate N -> "N puzzles, G givens on average, T s, P puzzles/s" on stderr.
use std::io::Write;
use std::time::Instant;
use sudoku::{Sudoku, Symmetry};

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .expect("usage: peer-generate N");
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    let start = Instant::now();
    let mut givens = 0usize;
    for _ in 0..n {
        let s = Sudoku::generate_with_symmetry(Symmetry::None);
        givens += s.n_clues() as usize;
        writeln!(out, "{}", s.to_str_line()).expect("write");
    }
    out.flush().expect("flush");
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{n} puzzles, {:.2} givens on average, {secs:.3} s, {:.0} puzzles/s",
        givens as f64 / n as f64,
        n as f64 / secs
    );
}
