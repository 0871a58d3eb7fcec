//! The JSON Schema of the report envelope, generated from the report types themselves
//! (schemars reads the same serde attributes the writer and the loader use, so the schema
//! cannot drift from what diskdoc writes). `diskdoc schema` prints it and
//! docs/report.schema.json holds a copy that tests/it/report.rs keeps equal to it.
//!
//! Every `kind` shares the one envelope; the two fields that are held as free JSON inside
//! the envelope (`explanation`, `comparison`) get the schema of the value they hold, so a
//! validator checks them too.

use schemars::Schema;
use schemars::generate::SchemaSettings;
use schemars::transform::RecursiveTransform;

use crate::report::envelope::Envelope;

/// The schema of every JSON report diskdoc writes (draft 2020-12), as pretty JSON with a
/// trailing newline, the form `diskdoc schema` prints.
pub fn report_schema_json() -> String {
    let mut text = serde_json::to_string_pretty(&report_schema())
        .unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    text.push('\n');
    text
}

/// The schema as a JSON value.
///
/// It describes what this diskdoc *writes* (schemars' serialize contract): a field with a
/// serde default is still required when the writer always emits it (`kind`, `scope`), and
/// every object refuses properties it does not name. The loader is more lenient on purpose
/// (schema-1 reports without `kind` still load), so an old report may load and yet not
/// validate.
pub fn report_schema() -> serde_json::Value {
    let mut generator = SchemaSettings::draft2020_12()
        .for_serialize()
        .with_transform(RecursiveTransform(close_objects))
        .into_generator();
    let mut schema = generator.root_schema_for::<Envelope>();
    schema.insert("$id".to_string(), REPORT_SCHEMA_ID.into());
    schema.insert(
        "title".to_string(),
        format!(
            "diskdoc report, schema version {}",
            super::REPORT_SCHEMA_VERSION
        )
        .into(),
    );
    schema.to_value()
}

/// `$id` of [`report_schema`] (a name, not a place to fetch it from).
pub const REPORT_SCHEMA_ID: &str = "https://diskdoc.invalid/report.schema.json";

/// `$id` of [`bundle_schema`].
pub const BUNDLE_SCHEMA_ID: &str = "https://diskdoc.invalid/evidence.schema.json";

/// The schema of an evidence bundle as diskdoc *reads* it (schemars' deserialize contract):
/// bundles are also written by hand (docs/evidence-format.md), so a field with a serde
/// default (`elapsed_ms`, `origin`) may be left out. The bundle inside a report, which
/// diskdoc wrote, is held to [`report_schema`]'s stricter `$defs/EvidenceBundle`.
pub fn bundle_schema() -> serde_json::Value {
    let mut generator = SchemaSettings::draft2020_12()
        .for_deserialize()
        .with_transform(RecursiveTransform(close_objects))
        .into_generator();
    let mut schema = generator.root_schema_for::<crate::evidence::EvidenceBundle>();
    schema.insert("$id".to_string(), BUNDLE_SCHEMA_ID.into());
    schema.insert(
        "title".to_string(),
        format!(
            "diskdoc evidence bundle, schema version {}",
            crate::evidence::SCHEMA_VERSION
        )
        .into(),
    );
    schema.to_value()
}

/// Every object schema that lists its properties refuses any other: the envelope does so
/// through serde's `deny_unknown_fields`, and the nested types (findings, facts, results)
/// are only ever written by diskdoc, so an extra property there is a mismatch too.
fn close_objects(schema: &mut Schema) {
    if let Some(obj) = schema.as_object_mut()
        && obj.contains_key("properties")
        && !obj.contains_key("additionalProperties")
    {
        obj.insert("additionalProperties".to_string(), false.into());
    }
}
