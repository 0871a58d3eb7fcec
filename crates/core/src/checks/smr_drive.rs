//! `smr-drive`: a drive-managed shingled (SMR) hard disk. It writes into a CMR cache zone
//! and later rewrites whole shingled bands; once the cache is full, sustained random or
//! large writes drop to a few MB/s and single I/Os stall for seconds, which RAID and ZFS
//! rebuilds suffer most. Evidence: the model table below (each entry with its source, the
//! way smartmontools' drivedb.h keeps one), smartctl's drive-database family "(SMR)", and
//! Linux queue/zoned (Documentation/ABI/stable/sysfs-block: none, host-aware, host-managed).

use crate::checks::common::{self, Media};
use crate::checks::measured_common::{best_seq_read, by_disk, mbps};
use crate::checks::{Check, Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::{DiskFacts, LayerKind, SystemFacts};
use crate::sources::{ask_bare, spec::Ask};

pub const ID: &str = "smr-drive";

/// One drive-managed SMR model family: a model-number fragment and where it is documented.
#[derive(Debug, Clone, Copy)]
struct SmrModel {
    /// Upper-case fragment of the model string ("WD40EFAX", "ST4000DM004", "HDWD240").
    pub fragment: &'static str,
    pub family: &'static str,
    pub source: &'static str,
}

const DRIVEDB_WD: &str = "smartmontools drivedb.h \"Western Digital Red (SMR)\", \
    regex WDC WD[2346]0EFAX-.* (ticket #1313); Western Digital blog, April 2020";
const WD_CLIENT: &str = "Western Digital, \"Data on Device-Managed SMR in WD Client and \
    Consumer Drives\" (April 2020)";
const DRIVEDB_SG: &str = "smartmontools drivedb.h \"Seagate BarraCuda 3.5 (SMR)\", regex \
    ST(2000DM00[589]|3000DM007|4000DM00[45]|6000DM003|8000DM004)-.*";
const SEAGATE_2020: &str = "Seagate's list of SMR models given to Blocks & Files, April 2020";
const DRIVEDB_SG_ARCHIVE: &str = "smartmontools drivedb.h \"Seagate Archive HDD (SMR)\", \
    regex ST[568]000AS00[01][12]-.* (named \"Seagate Archive HDD\" before smartmontools 7.2)";
const TOSHIBA_2020: &str = "Toshiba's statement of its DM-SMR models to Blocks & Files, \
    April 2020 (P300 4/6 TB, DT02, L200)";

/// The table, checked by a test: fragments are unique and none contains another.
const SMR_MODELS: &[SmrModel] = &[
    SmrModel {
        fragment: "WD20EFAX",
        family: "WD Red 2 TB",
        source: DRIVEDB_WD,
    },
    SmrModel {
        fragment: "WD30EFAX",
        family: "WD Red 3 TB",
        source: DRIVEDB_WD,
    },
    SmrModel {
        fragment: "WD40EFAX",
        family: "WD Red 4 TB",
        source: DRIVEDB_WD,
    },
    SmrModel {
        fragment: "WD60EFAX",
        family: "WD Red 6 TB",
        source: DRIVEDB_WD,
    },
    SmrModel {
        fragment: "WD20EZAZ",
        family: "WD Blue 3.5\" 2 TB",
        source: WD_CLIENT,
    },
    SmrModel {
        fragment: "WD60EZAZ",
        family: "WD Blue 3.5\" 6 TB",
        source: WD_CLIENT,
    },
    SmrModel {
        fragment: "WD10SPZX",
        family: "WD Blue 2.5\" 1 TB",
        source: WD_CLIENT,
    },
    SmrModel {
        fragment: "WD20SPZX",
        family: "WD Blue 2.5\" 2 TB",
        source: WD_CLIENT,
    },
    SmrModel {
        fragment: "WD10SPSX",
        family: "WD Black 2.5\" 1 TB",
        source: WD_CLIENT,
    },
    SmrModel {
        fragment: "ST2000DM005",
        family: "Seagate BarraCuda 3.5 (DM005)",
        source: DRIVEDB_SG,
    },
    SmrModel {
        fragment: "ST2000DM008",
        family: "Seagate BarraCuda 3.5",
        source: DRIVEDB_SG,
    },
    SmrModel {
        fragment: "ST2000DM009",
        family: "Seagate BarraCuda 3.5",
        source: DRIVEDB_SG,
    },
    SmrModel {
        fragment: "ST3000DM007",
        family: "Seagate BarraCuda 3.5",
        source: DRIVEDB_SG,
    },
    SmrModel {
        fragment: "ST4000DM004",
        family: "Seagate BarraCuda 3.5 (DM004)",
        source: DRIVEDB_SG,
    },
    SmrModel {
        fragment: "ST4000DM005",
        family: "Seagate BarraCuda 3.5 (DM005)",
        source: DRIVEDB_SG,
    },
    SmrModel {
        fragment: "ST6000DM003",
        family: "Seagate BarraCuda 3.5",
        source: DRIVEDB_SG,
    },
    SmrModel {
        fragment: "ST8000DM004",
        family: "Seagate BarraCuda 3.5 (DM004)",
        source: DRIVEDB_SG,
    },
    SmrModel {
        fragment: "ST5000DM000",
        family: "Seagate Desktop HDD 5 TB",
        source: SEAGATE_2020,
    },
    SmrModel {
        fragment: "ST500LM030",
        family: "Seagate BarraCuda 2.5",
        source: SEAGATE_2020,
    },
    SmrModel {
        fragment: "ST1000LM048",
        family: "Seagate BarraCuda 2.5",
        source: SEAGATE_2020,
    },
    SmrModel {
        fragment: "ST2000LM015",
        family: "Seagate BarraCuda 2.5",
        source: SEAGATE_2020,
    },
    SmrModel {
        fragment: "ST3000LM024",
        family: "Seagate BarraCuda 2.5",
        source: SEAGATE_2020,
    },
    SmrModel {
        fragment: "ST4000LM024",
        family: "Seagate BarraCuda 2.5",
        source: SEAGATE_2020,
    },
    SmrModel {
        fragment: "ST5000LM000",
        family: "Seagate BarraCuda 2.5",
        source: SEAGATE_2020,
    },
    SmrModel {
        fragment: "ST5000AS00",
        family: "Seagate Archive HDD v2 5 TB",
        source: DRIVEDB_SG_ARCHIVE,
    },
    SmrModel {
        fragment: "ST6000AS00",
        family: "Seagate Archive HDD v2 6 TB",
        source: DRIVEDB_SG_ARCHIVE,
    },
    SmrModel {
        fragment: "ST8000AS00",
        family: "Seagate Archive HDD v2 8 TB",
        source: DRIVEDB_SG_ARCHIVE,
    },
    SmrModel {
        fragment: "HDWD240",
        family: "Toshiba P300 4 TB",
        source: TOSHIBA_2020,
    },
    SmrModel {
        fragment: "HDWD260",
        family: "Toshiba P300 6 TB",
        source: TOSHIBA_2020,
    },
    SmrModel {
        fragment: "DT02ABA400",
        family: "Toshiba DT02 4 TB",
        source: TOSHIBA_2020,
    },
    SmrModel {
        fragment: "DT02ABA600",
        family: "Toshiba DT02 6 TB",
        source: TOSHIBA_2020,
    },
    SmrModel {
        fragment: "HDWL110",
        family: "Toshiba L200 1 TB",
        source: TOSHIBA_2020,
    },
    SmrModel {
        fragment: "HDWL120",
        family: "Toshiba L200 2 TB",
        source: TOSHIBA_2020,
    },
    SmrModel {
        fragment: "MQ04ABF100",
        family: "Toshiba MQ04 1 TB",
        source: TOSHIBA_2020,
    },
    SmrModel {
        fragment: "MQ04ABD200",
        family: "Toshiba MQ04 2 TB",
        source: TOSHIBA_2020,
    },
];

/// The table entry matching a model string, if any.
fn lookup(model: &str) -> Option<&'static SmrModel> {
    let m = model.to_ascii_uppercase();
    SMR_MODELS.iter().find(|e| m.contains(e.fragment))
}

pub(crate) struct SmrDrive;

impl Check for SmrDrive {
    fn id(&self) -> &'static str {
        ID
    }
    fn label(&self) -> &'static str {
        "Recording (SMR/CMR)"
    }
    fn summary(&self) -> &'static str {
        SUMMARY.as_str()
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        // SMR is a hard-disk recording method, so a model in the table is a hard disk even
        // when the paste stops before the rotation rate (a truncated hdparm -I).
        common::disks(sys)
            .filter(|d| match common::media(d) {
                Some(m) => m == Media::Hdd,
                None => d.model.value().is_some_and(|m| lookup(m).is_some()),
            })
            .map(|d| check_disk(sys, d))
            .collect()
    }
}

fn in_array(sys: &SystemFacts, d: &DiskFacts) -> bool {
    d.layers.iter().any(|l| {
        matches!(
            l.kind,
            Some(LayerKind::Zfs | LayerKind::Md | LayerKind::Gmirror)
        )
    }) || sys.arrays.value().is_some_and(|a| {
        a.iter().any(|x| {
            x.members
                .iter()
                .any(|m| m.starts_with(&d.name) || m.ends_with(&d.name))
        })
    })
}

/// The check's one-line summary; the program whose drive database names SMR families is
/// the SMART source's to name.
static SUMMARY: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "drive-managed SMR hard disk (model table with sources, {} \"(SMR)\" family, sysfs \
         zoned): slow sustained writes, long stalls",
        ask_bare(Ask::SmartProgram)
    )
});

pub(crate) fn check_disk(sys: &SystemFacts, d: &DiskFacts) -> Finding {
    let model = d.model.value().cloned().unwrap_or_default();
    let entry = lookup(&model);
    let family = d.smart.value().and_then(|s| s.model_family.clone());
    let by_family = family
        .as_deref()
        .is_some_and(crate::sources::smartctl::family_is_smr);
    let zoned = d.zoned.value().map(|z| z.trim().to_string());
    let zoned_dev = zoned
        .as_deref()
        .is_some_and(|z| z == "host-aware" || z == "host-managed");
    if entry.is_none() && !by_family && !zoned_dev {
        let mut f = common::pass(ID, d, "not a known SMR drive")
            .explain(format!(
                "{} is not in diskdoc's table of {} drive-managed SMR models{}{}. Vendors \
                 do not always say; a write test that collapses after some GB would still \
                 reveal one.",
                if model.is_empty() {
                    "The model"
                } else {
                    &model
                },
                SMR_MODELS.len(),
                family
                    .as_ref()
                    .map(|f| {
                        format!(
                            ", and {}'s database calls it \"{f}\"",
                            ask_bare(Ask::SmartProgram)
                        )
                    })
                    .unwrap_or_default(),
                zoned
                    .as_ref()
                    .map(|z| format!("; queue/zoned is {z}"))
                    .unwrap_or_default(),
            ))
            .confidence(Confidence::Low);
        f = common::cite(f, &d.model, model.clone());
        return f;
    }
    let array = in_array(sys, d);
    let mut expl = String::new();
    if let Some(e) = entry {
        expl.push_str(&format!(
            "{model} is a drive-managed shingled (SMR) disk ({}; source: {}). ",
            e.family, e.source
        ));
    } else if by_family {
        expl.push_str(&format!(
            "{}'s drive database names this drive \"{}\": a shingled (SMR) disk. ",
            ask_bare(Ask::SmartProgram),
            family.clone().unwrap_or_default()
        ));
    }
    if zoned_dev {
        expl.push_str(&format!(
            "The kernel reports it as a {} zoned device. ",
            zoned.clone().unwrap_or_default()
        ));
    }
    expl.push_str(
        "It takes writes into a small conventional cache area and rewrites whole shingled \
         bands later: short bursts are fast, but sustained or random writes fall to a few \
         MB/s once the cache fills, and single requests can stall for seconds. ",
    );
    if array {
        expl.push_str(
            "It sits in a RAID or ZFS pool: a rebuild or resilver writes for hours without \
             pause, exactly what SMR handles worst, and stalls can make the array drop it. ",
        );
    }
    let mut conf = Confidence::Medium;
    if let Some(rs) = by_disk(sys).get(&d.name) {
        let read = best_seq_read(rs).map(|r| r.bytes_per_sec);
        let write = rs
            .iter()
            .filter(|r| r.error.is_none() && r.test.is_write() && r.bytes > 0)
            .map(|r| r.bytes_per_sec)
            .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.min(v))));
        if let (Some(r), Some(w)) = (read, write)
            && w < r * 0.5
        {
            conf = Confidence::High;
            expl.push_str(&format!(
                "The write test fits this: {} written against {} read.",
                mbps(w),
                mbps(r)
            ));
        }
    }
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        if array {
            Severity::Warning
        } else {
            Severity::Notice
        },
        format!(
            "{}: shingled (SMR) drive{}",
            d.name,
            if array { " in an array" } else { "" }
        ),
    )
    .explain(expl)
    .confidence(conf)
    .impact(0.4);
    if entry.is_some() {
        f = common::cite(f, &d.model, model.clone());
    }
    if by_family {
        f = common::cite(
            f,
            &d.smart,
            format!("model_family={}", family.clone().unwrap_or_default()),
        );
    }
    if zoned_dev {
        f = common::cite(f, &d.zoned, format!("zoned={}", zoned.unwrap_or_default()));
    }
    f.fix(fix(sys.platform, d, array))
}

fn fix(platform: Platform, d: &DiskFacts, array: bool) -> Fix {
    let mut steps = vec![
        "Use it for what SMR does well: archives, backups, media written once and read often"
            .to_string(),
        "For RAID, ZFS or busy random writes, use a CMR model (WD Red Plus/Pro EFZX/FFBX, \
         Seagate IronWolf, Toshiba N300/MG)"
            .to_string(),
    ];
    if array {
        steps.push(format!(
            "Replace {} with a CMR drive one member at a time, letting each rebuild finish",
            d.name
        ));
    }
    if platform == Platform::Linux {
        steps.push(format!(
            "Check: `cat /sys/block/{}/queue/zoned` (drive-managed SMR says none)",
            d.name
        ));
    }
    Fix {
        platform,
        summary: "keep SMR drives out of write-heavy and rebuild-heavy roles".into(),
        steps,
        risk: "replacing array members means rebuilds; keep a backup while they run".into(),
    }
}

#[cfg(test)]
mod tests;
