//! The library used as a library: the public core, the canonical form, property tests.

mod canon;
mod core_api;
mod properties;
