//! `trace`'s steps as a nested Arrow column, for Parquet output (cargo feature `parquet`,
//! issue 35: "Parquet (list columns)"): each row's `trace` is a list of structs, one per
//! step, with the fields of the JSON step object ([`crate::trace::json`]) under the same
//! names, built straight from the [`Trace`] (no JSON text is made).
//!
//! ```text
//! trace: List<Struct<                  null for an invalid record
//!     n: UInt32,                       index in the full trace
//!     kind: Utf8,                      placement | elimination | guess | backtrack
//!     technique: Utf8,                 a technique name (docs/trace.md)
//!     cell: UInt8?,  digit: UInt8?,    null where the JSON step has no key
//!     cells: List<UInt8>?,  digits: List<UInt8>?,
//!     base: List<UInt8>?,   cover: List<UInt8>?,
//!     removed: List<Struct<cell: UInt8, digit: UInt8>>?,   eliminations only
//!     depth: UInt16,
//!     undone: Boolean>>                false where the JSON step has no key
//! ```
//!
//! A field is null exactly where the JSON step omits its key, `undone` aside (never null:
//! `false`). `kind` and `technique` are plain strings rather than Arrow dictionaries: every
//! reader (pandas, polars, DuckDB, Spark, Hugging Face `datasets`, which has no dictionary
//! type) takes them as text with no lookup table, and the Parquet pages still store them
//! dictionary-encoded (4 kinds, 19 techniques), a few bits a step.

use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, ListBuilder, NullBufferBuilder, OffsetBufferBuilder, StringBuilder,
    UInt16Builder, UInt32Builder, UInt8Builder,
};
use arrow_array::{ArrayRef, ListArray, StructArray};
use arrow_schema::{DataType, Field, Fields};

use crate::trace::board::{cells_of, digits_of};
use crate::trace::{StepKind, Trace, NO_CELL};

/// Arrow bytes a step holds besides its strings and list items: `n` 4, `cell` and `digit`
/// 2, `depth` 2, offsets of the 2 strings and 5 lists 28, validity and `undone` bits 1.
const STEP_BYTES: usize = 37;

/// Leaf values a step adds besides its list items: one each for its 6 plain fields and,
/// item or not, for its 7 list leaves (`cells`, `digits`, `base`, `cover`, `removed`'s
/// `cell` and `digit`, counted as one list here and its pair below).
const STEP_LEAVES: usize = 13;

/// Bytes the Parquet writer holds for each leaf value while it writes a batch: its
/// definition and repetition levels (`i16` each) and its index (`usize`), for every leaf of
/// the column at once: for a step about 3x its Arrow bytes. Left out of the estimate,
/// 100,000 traces to Parquet peaked at 380-440 MB RSS, against 220-300 MB as JSON text.
const LEVEL_BYTES: usize = 12;

/// The item field of a list of small whole numbers (never null).
fn u8_item() -> Arc<Field> {
    Arc::new(Field::new("item", DataType::UInt8, false))
}

/// The fields of a `removed` pair.
fn pair_fields() -> Fields {
    Fields::from(vec![
        Field::new("cell", DataType::UInt8, false),
        Field::new("digit", DataType::UInt8, false),
    ])
}

fn pair_item() -> Arc<Field> {
    Arc::new(Field::new("item", DataType::Struct(pair_fields()), false))
}

/// The fields of a step, in the JSON key order.
fn step_fields() -> Fields {
    let list = || DataType::List(u8_item());
    Fields::from(vec![
        Field::new("n", DataType::UInt32, false),
        Field::new("kind", DataType::Utf8, false),
        Field::new("technique", DataType::Utf8, false),
        Field::new("cell", DataType::UInt8, true),
        Field::new("digit", DataType::UInt8, true),
        Field::new("cells", list(), true),
        Field::new("digits", list(), true),
        Field::new("base", list(), true),
        Field::new("cover", list(), true),
        Field::new("removed", DataType::List(pair_item()), true),
        Field::new("depth", DataType::UInt16, false),
        Field::new("undone", DataType::Boolean, false),
    ])
}

fn step_item() -> Arc<Field> {
    Arc::new(Field::new("item", DataType::Struct(step_fields()), false))
}

/// The Arrow type of the `trace` column (the module's diagram).
pub(crate) fn data_type() -> DataType {
    DataType::List(step_item())
}

/// A list of small numbers, or null when there are none (the JSON omits the key).
fn push_list(b: &mut ListBuilder<UInt8Builder>, items: impl Iterator<Item = u8>) -> usize {
    let mut k = 0;
    for x in items {
        b.values().append_value(x);
        k += 1;
    }
    b.append(k > 0);
    k
}

/// Rows of the `trace` column so far, one builder per leaf field.
pub(crate) struct StepsBuilder {
    /// Steps per row.
    rows: OffsetBufferBuilder<i32>,
    /// Which rows have a trace.
    row_valid: NullBufferBuilder,
    n: UInt32Builder,
    kind: StringBuilder,
    technique: StringBuilder,
    cell: UInt8Builder,
    digit: UInt8Builder,
    cells: ListBuilder<UInt8Builder>,
    digits: ListBuilder<UInt8Builder>,
    base: ListBuilder<UInt8Builder>,
    cover: ListBuilder<UInt8Builder>,
    /// Pairs per step.
    removed: OffsetBufferBuilder<i32>,
    /// Which steps have `removed` (the eliminations).
    removed_valid: NullBufferBuilder,
    removed_cell: UInt8Builder,
    removed_digit: UInt8Builder,
    depth: UInt16Builder,
    undone: BooleanBuilder,
}

impl StepsBuilder {
    pub(crate) fn new() -> StepsBuilder {
        let list = || ListBuilder::new(UInt8Builder::new()).with_field(u8_item());
        StepsBuilder {
            rows: OffsetBufferBuilder::new(1024),
            row_valid: NullBufferBuilder::new(1024),
            n: UInt32Builder::new(),
            kind: StringBuilder::new(),
            technique: StringBuilder::new(),
            cell: UInt8Builder::new(),
            digit: UInt8Builder::new(),
            cells: list(),
            digits: list(),
            base: list(),
            cover: list(),
            removed: OffsetBufferBuilder::new(1024),
            removed_valid: NullBufferBuilder::new(1024),
            removed_cell: UInt8Builder::new(),
            removed_digit: UInt8Builder::new(),
            depth: UInt16Builder::new(),
            undone: BooleanBuilder::new(),
        }
    }

    /// Appends one row: the steps of `t` that [`Trace::kept_steps`] keeps. Returns an
    /// estimate of the bytes it costs until its batch is written (its Arrow bytes and the
    /// writer's levels), which the writer counts toward its batch limit.
    pub(crate) fn append(&mut self, t: &Trace, placements_only: bool) -> usize {
        let mut steps = 0;
        let mut bytes = 0;
        for (n, s) in t.kept_steps(placements_only) {
            steps += 1;
            self.n
                .append_value(u32::try_from(n).expect("a trace holds under 2^32 steps"));
            self.kind.append_value(s.kind.name());
            self.technique.append_value(s.technique.name());
            self.cell
                .append_option((s.cell != NO_CELL).then_some(s.cell));
            self.digit.append_option((s.digit != 0).then_some(s.digit));
            let mut items = push_list(&mut self.cells, cells_of(s.cells).map(|c| c as u8));
            items += push_list(&mut self.digits, digits_of(s.digits));
            for (b, units) in [(&mut self.base, s.base), (&mut self.cover, s.cover)] {
                items += push_list(b, (0..27u8).filter(|u| units >> u & 1 != 0));
            }
            let mut pairs = 0;
            if s.kind == StepKind::Elimination {
                for &(c, m) in t.removed_by(s) {
                    for d in digits_of(m) {
                        self.removed_cell.append_value(c);
                        self.removed_digit.append_value(d);
                        pairs += 1;
                    }
                }
            }
            self.removed.push_length(pairs);
            self.removed_valid.append(s.kind == StepKind::Elimination);
            self.depth.append_value(s.depth);
            self.undone.append_value(s.undone);
            let arrow =
                STEP_BYTES + s.kind.name().len() + s.technique.name().len() + items + 2 * pairs;
            bytes += arrow + LEVEL_BYTES * (STEP_LEAVES + items + 2 * pairs);
        }
        self.rows.push_length(steps);
        self.row_valid.append_non_null();
        bytes
    }

    /// Appends a row without a trace (null).
    pub(crate) fn append_null(&mut self) {
        self.rows.push_length(0);
        self.row_valid.append_null();
    }

    /// The rows so far as one array of [`data_type`]; the builder starts again empty.
    pub(crate) fn finish(&mut self) -> ArrayRef {
        let take = |b: &mut OffsetBufferBuilder<i32>| {
            std::mem::replace(b, OffsetBufferBuilder::new(1024)).finish()
        };
        let pairs = StructArray::new(
            pair_fields(),
            vec![
                Arc::new(self.removed_cell.finish()),
                Arc::new(self.removed_digit.finish()),
            ],
            None,
        );
        let removed = ListArray::new(
            pair_item(),
            take(&mut self.removed),
            Arc::new(pairs),
            self.removed_valid.finish(),
        );
        let steps = StructArray::new(
            step_fields(),
            vec![
                Arc::new(self.n.finish()),
                Arc::new(self.kind.finish()),
                Arc::new(self.technique.finish()),
                Arc::new(self.cell.finish()),
                Arc::new(self.digit.finish()),
                Arc::new(self.cells.finish()),
                Arc::new(self.digits.finish()),
                Arc::new(self.base.finish()),
                Arc::new(self.cover.finish()),
                Arc::new(removed),
                Arc::new(self.depth.finish()),
                Arc::new(self.undone.finish()),
            ],
            None,
        );
        Arc::new(ListArray::new(
            step_item(),
            take(&mut self.rows),
            Arc::new(steps),
            self.row_valid.finish(),
        ))
    }
}
