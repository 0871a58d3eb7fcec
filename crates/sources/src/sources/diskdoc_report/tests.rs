use super::*;

#[test]
fn findings_with_wrapped_ids() {
    let t = "diskdoc 0.1.0 report, Linux\n===========================\n\
                 Findings: 2 problems\n\n\
                 1. [critical] sda: 8 pending sectors (Current_Pending_Sector)\n    (media-errors)\n    sda: 8 pending...\n\n\
                 2. [warning] ada1: 2 link speed step-down line(s) (link-errors)\n\
                 3. [unknown] sda: partition table type of sda unknown\n    (partition-table-limit)\n";
    assert_eq!(platform(t).as_deref(), Some("Linux"));
    let f = parse(t);
    assert_eq!(f.len(), 3);
    assert_eq!(f[0].check, "media-errors");
    assert_eq!(f[0].device, "sda");
    assert_eq!(f[0].severity, "critical");
    assert_eq!(f[0].title, "8 pending sectors (Current_Pending_Sector)");
    assert_eq!(f[1].check, "link-errors");
    assert_eq!(f[1].device, "ada1");
    assert_eq!(f[2].severity, "unknown");
}
