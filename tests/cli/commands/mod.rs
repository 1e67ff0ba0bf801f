//! Each command end to end.

mod augment;
mod bench;
mod canon;
mod formats;
mod generate;
mod jsonl_npz;
mod kernel;
mod parquet;
mod plot;
mod rate;
mod shard;
mod shared_data;
mod solve;
mod trace;
mod verify;
