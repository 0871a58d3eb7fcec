//! The one integration-test binary (ripgrep's layout): one module per topic, sharing
//! `support`. `cargo test --release` runs it; tests/fuzz.rs is a second binary, run by CI under
//! the fuzz profile (overflow checks on).

mod support;

mod bench_devices;
mod bench_script;
mod cli_device_errors;
mod cli_matrix;
mod effects;
mod evidence_doc;
mod explain;
mod explain_arrays;
mod explain_common_outputs;
mod explain_freebsd;
mod explain_health;
mod explain_kernel_errors;
mod explain_kernel_quirks;
mod explain_legacy_logs_and_tools;
mod explain_logs;
mod explain_pata;
mod explain_power_pcie;
mod explain_raid_tools;
mod explain_shapes;
mod explain_storage_tools;
mod fio_equivalent;
mod fleet;
mod freebsd_live_probe;
mod freebsd_parsers;
mod freebsd_replay;
mod input_limits;
mod lab;
mod layering;
mod linux_devices;
mod linux_sysfs;
mod privacy;
mod privacy_devices;
mod privacy_structure;
mod replay_hardware;
mod report;
mod report_html;
mod safety_loop_chains;
mod seed_findings;
mod sources_registry;
mod text_parsers;
mod trim_on_loop;
mod web;
mod wizard_pty;
mod wizard_transcripts;
mod zfs_bench_honesty;
