//! Reading inputs as people publish them.

mod bad_bytes;
mod by_content;
mod cases;
mod csv_rfc4180;
mod delimiters;
mod json_grids;
mod layouts;
mod live;
mod long_line;
mod published;
mod streams;
mod truncation;
