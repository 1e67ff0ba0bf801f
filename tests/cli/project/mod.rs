//! The repository itself: help text kept in step with the guide, no module cycles.

mod help_docs;
mod module_graph;
