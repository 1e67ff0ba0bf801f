//! JSON export: the whole [`BenchReport`] (provenance, settings, inputs, results).

use anyhow::Result;

use super::Exporter;
use crate::bench::BenchReport;

/// Writes the report as pretty-printed JSON; field names carry their units.
pub struct JsonExporter;

impl Exporter for JsonExporter {
    fn serialize(&self, report: &BenchReport) -> Result<Vec<u8>> {
        let mut out = serde_json::to_vec_pretty(report)?;
        out.push(b'\n');
        Ok(out)
    }
}
