//! Validation of JSON reports against the schema `diskdoc schema` prints, with a real
//! JSON Schema validator (boon, draft 2020-12), compiled once per test binary.

use std::sync::OnceLock;

use serde_json::Value;

use super::SupportError;

use diskdoc_core::report::schema::{BUNDLE_SCHEMA_ID, REPORT_SCHEMA_ID};

struct Compiled {
    schemas: boon::Schemas,
    report: boon::SchemaIndex,
    bundle: boon::SchemaIndex,
}

fn compiled() -> &'static Compiled {
    static SCHEMA: OnceLock<Compiled> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let mut schemas = boon::Schemas::new();
        let mut compiler = boon::Compiler::new();
        for (id, schema) in [
            (
                REPORT_SCHEMA_ID,
                diskdoc_core::report::schema::report_schema(),
            ),
            (
                BUNDLE_SCHEMA_ID,
                diskdoc_core::report::schema::bundle_schema(),
            ),
        ] {
            assert_eq!(schema["$id"], id, "the schema names its own $id");
            compiler
                .add_resource(id, schema)
                .unwrap_or_else(|e| panic!("{id} is not a JSON Schema: {e}"));
        }
        let mut compile = |loc: &str| {
            compiler
                .compile(loc, &mut schemas)
                .unwrap_or_else(|e| panic!("{loc} does not compile: {e:#}"))
        };
        let report = compile(REPORT_SCHEMA_ID);
        let bundle = compile(BUNDLE_SCHEMA_ID);
        Compiled {
            schemas,
            report,
            bundle,
        }
    })
}

/// `Err` with the validator's explanation (every failing keyword and where) when `report`
/// does not match the report schema.
pub fn validate(report: &Value) -> Result<(), SupportError> {
    let c = compiled();
    c.schemas
        .validate(report, c.report)
        .map_err(|e| SupportError::Schema(format!("{e:#}")))
}

/// The same for an evidence bundle (hand-written ones included), against the bundle schema.
pub fn validate_bundle(bundle: &Value) -> Result<(), SupportError> {
    let c = compiled();
    c.schemas
        .validate(bundle, c.bundle)
        .map_err(|e| SupportError::Schema(format!("{e:#}")))
}
