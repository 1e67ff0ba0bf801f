pub mod grid;
pub mod solver;
