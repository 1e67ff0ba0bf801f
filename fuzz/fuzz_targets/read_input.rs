//! Fuzz the input readers: layout sniffing and record splitting (lines and CSV) on any
//! bytes, with the options picked by the first input byte. Records must be numbered from
//! 0 without gaps and their lines must never go back; nothing may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_batch::input::{Dataset, Format, LayoutOptions, ReadOptions};

fuzz_target!(|data: &[u8]| {
    let Some((&knobs, bytes)) = data.split_first() else {
        return;
    };
    let opts = LayoutOptions {
        format: [Format::Auto, Format::Lines, Format::Csv][usize::from(knobs % 3)],
        puzzle_column: match (knobs >> 2) % 4 {
            0 => None,
            1 => Some("1".into()),
            2 => Some("2".into()),
            _ => Some("quizzes".into()),
        },
        solution_column: None,
        no_header: knobs & 0x10 != 0,
        delimiter: [None, Some(b'\t')][usize::from(knobs >> 7)],
        member: None,
    };
    let opts = ReadOptions {
        layout: opts,
        ..ReadOptions::default()
    };
    let Ok(mut reader) = Dataset::from_bytes("fuzz", bytes.to_vec(), &opts) else {
        return;
    };
    let mut batch = Vec::new();
    let (mut next, mut last_line) = (0, 0);
    while reader.fill(&mut batch, 7).is_ok() && !batch.is_empty() {
        for r in &batch {
            assert_eq!(r.record, next);
            assert!(r.line >= last_line.max(1));
            next += 1;
            last_line = r.line;
        }
    }
});
