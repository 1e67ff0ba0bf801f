//! Fuzz `grid::parse_cells` and `parse_solution`: any bytes give a grid or a reason, never a
//! panic; a grid round-trips through its Display form.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_batch::grid::{parse_cells, parse_solution};

fuzz_target!(|data: &[u8]| {
    match parse_cells(data) {
        Ok(g) => {
            assert_eq!(data.len(), 81);
            assert_eq!(parse_cells(g.to_string().as_bytes()), Ok(g));
            let _ = g.conflicts();
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    if let Ok(s) = parse_solution(data) {
        assert!(s.0.iter().all(|&d| (1..=9).contains(&d)));
    }
});
