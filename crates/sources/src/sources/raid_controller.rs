//! The typed value every RAID controller tool's parser returns (ssacli, arcconf, Areca
//! cli64, MegaCli, megaclisas-status, tw_cli, the check_raid plugin): the controller's
//! logical drives with their state and running task, and its physical drives with their
//! state and error counters. Each tool's module reads its own layout into this shape; the
//! facts (facts::pasted::raid_tools) turn it into array activity and per-drive states.
//!
//! The state words are the vendors' own: HPE "Interim Recovery Mode" is degraded and
//! "Recovering" a rebuild (HP Smart Array CLI, logical drive state definitions); LSI
//! "Degraded"/"Partially Degraded", drives "Failed", "Offline", "Rebuild",
//! "Unconfigured(bad)" (MegaRAID SAS software user guide, drive and virtual drive states);
//! Adaptec "Degraded", "Impacted", drives "Failed", "Rebuilding", "Defunct" (arcconf
//! command line utility guide); Areca "Degraded", "Rebuilding", "Failed" (Areca CLI manual);
//! 3ware "DEGRADED", "REBUILDING", "INOPERABLE", "VERIFYING" (tw_cli(8)).

/// What a controller does on a logical drive, in /proc/mdstat's words so the checks read
/// controller arrays as they read md ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    /// Rebuilding redundancy onto a replacement or spare drive.
    Recovery,
    /// A consistency check, verify or patrol read.
    Check,
    /// Initialising the redundancy of a new logical drive (parity build).
    Resync,
    /// Expanding, migrating level or stripe size.
    Reshape,
}

impl Task {
    pub fn action(self) -> &'static str {
        match self {
            Task::Recovery => "recovery",
            Task::Check => "check",
            Task::Resync => "resync",
            Task::Reshape => "reshape",
        }
    }
}

/// One logical drive (volume, unit, raid set) as the controller reports it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LogicalDrive {
    /// The tool's name for it: "logicaldrive 1", "Logical Device 0(data)", "u0", "c0u0".
    pub name: String,
    /// "RAID 6", "RAID-5", "Raid1" as printed.
    pub level: Option<String>,
    /// The state as printed ("Interim Recovery Mode", "Degraded", "DEGRADED", "Optimal").
    pub state: String,
    /// Members missing or failed (the controller reconstructs reads from the others), or
    /// the logical drive itself failed or offline.
    pub degraded: bool,
    pub task: Option<Task>,
    /// Progress of the task, 0-100.
    pub percent: Option<f64>,
    /// The line the state is on.
    pub line: String,
    /// The controller's line saying it found unreadable sectors on the logical drive's
    /// members (HPE "Unrecoverable Media Errors: Detected").
    pub media_line: Option<String>,
}

/// One physical drive as the controller reports it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PhysicalDrive {
    /// The tool's address: "1I:1:7" (ssacli port:box:bay), "[32:4]" (enclosure:slot),
    /// "p3" (tw_cli port), "Slot 05" (Areca), "0,3" (arcconf channel,device).
    pub address: String,
    /// The state as printed ("Failed", "Predictive Failure", "Online, Spun Up").
    pub state: String,
    /// The controller took the drive out of service (Failed, Offline, Defunct, Unconfigured
    /// bad, INOPERABLE).
    pub failed: bool,
    /// The drive's own failure prediction tripped (SMART / SCSI informational exception),
    /// as the controller reports it (HPE "Predictive Failure", LSI "Predictive Failure
    /// Count", Adaptec "S.M.A.R.T. warnings").
    pub predictive_failure: bool,
    /// The drive is being rebuilt onto.
    pub rebuilding: bool,
    /// Media errors the controller counted (LSI "Media Error Count", Areca "Media Error
    /// Count"): reads or writes the drive failed with a medium error.
    pub media_errors: Option<u64>,
    /// The controller's predictive-failure count (LSI).
    pub predictive_count: Option<u64>,
    /// The line the state is on.
    pub line: String,
}

impl LogicalDrive {
    /// A logical drive read from its state words ([`logical_state`]), with the progress a
    /// running task's state carries ("Recovering, 55.73% complete").
    pub(crate) fn from_state(name: String, level: Option<String>, state: &str, line: &str) -> Self {
        let (degraded, task) = logical_state(state);
        LogicalDrive {
            name,
            level,
            state: state.trim().to_string(),
            degraded,
            task,
            percent: task.and_then(|_| percent(state)),
            line: line.trim().to_string(),
            media_line: None,
        }
    }
}

impl PhysicalDrive {
    /// A physical drive read from its state words ([`physical_state`]).
    pub(crate) fn from_state(address: &str, state: &str, line: &str) -> Self {
        let (failed, predictive_failure, rebuilding) = physical_state(state);
        PhysicalDrive {
            address: address.to_string(),
            state: state.trim().to_string(),
            failed,
            predictive_failure,
            rebuilding,
            line: line.trim().to_string(),
            ..Default::default()
        }
    }

    /// Whether the controller reports something wrong with the drive itself.
    pub fn has_problem(&self) -> bool {
        self.failed
            || self.predictive_failure
            || self.media_errors.is_some_and(|n| n > 0)
            || self.predictive_count.is_some_and(|n| n > 0)
    }
}

/// A logical drive, or a whole controller, whose write cache the controller runs off
/// (write-through): every write waits for the member drives.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CacheOff {
    /// The logical drive ("virtual drive 0 of adapter 0", "VD 0/0") or the controller
    /// ("Smart Array P441 in Slot 1") when its cache is off for all its drives.
    pub name: String,
    /// The line that says so.
    pub line: String,
    /// The controller turned the cache off itself, against the policy it was given: MegaCli's
    /// current cache policy WriteThrough under a WriteBack default, storcli's WT under a
    /// WriteBack initial setting, arcconf's write-cache setting Enabled with its status Off,
    /// HPE's "Cache Status: Temporarily/Permanently Disabled". Not its owner's choice.
    pub fallback: bool,
    /// What the tool says of it ("default policy WriteBack", HPE's "Cache Status Details").
    pub why: Option<String>,
    /// `name` is the controller: its one cache module serves every logical drive on it
    /// (HPE's and Adaptec's "Cache Status" are controller properties).
    pub whole_controller: bool,
}

/// What one tool's output says.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ControllerReport {
    pub logical: Vec<LogicalDrive>,
    pub physical: Vec<PhysicalDrive>,
    pub cache_off: Vec<CacheOff>,
    /// The cache's battery or flash backup as printed ("Optimal", "Failed (Replace
    /// Batteries)", "Learning"); None when not shown.
    pub cache_protection: Option<String>,
}

impl ControllerReport {
    /// How many drives the parser read (for the registry test).
    pub fn len(&self) -> usize {
        self.logical
            .len()
            .saturating_add(self.physical.len())
            .saturating_add(self.cache_off.len())
            .saturating_add(usize::from(self.cache_protection.is_some()))
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A logical-drive state word read case-insensitively: (degraded, task it names).
/// Covers the vendors' words listed in the module doc.
pub(crate) fn logical_state(state: &str) -> (bool, Option<Task>) {
    let s = state.to_ascii_lowercase();
    let has = |w: &str| s.contains(w);
    let degraded = has("degraded")
        || has("dgrd")
        || has("pdgd")
        || has("interim recovery")
        || has("ready for rebuild")
        || has("failed")
        || has("offline")
        || has("offln")
        || has("inoperable")
        || has("critical")
        || has("rebuild")
        || has("recover");
    // HPE's "Interim Recovery Mode" is the degraded state, not a recovery running.
    let s = s.replace("interim recovery", "interim");
    let has = |w: &str| s.contains(w);
    let task = if has("ready for") || has("queued") {
        // Waiting for a rebuild or expansion that has not started.
        None
    } else if has("rebuild") || has("recover") || has("rbld") {
        Some(Task::Recovery)
    } else if has("verif") || has("consistency") || has("check") || has("patrol") {
        Some(Task::Check)
    } else if has("initializ") || has("build") || has("background init") {
        Some(Task::Resync)
    } else if has("expand") || has("migrat") || has("transform") || has("reconstruct") {
        Some(Task::Reshape)
    } else {
        None
    };
    (degraded, task)
}

/// A physical-drive state word read case-insensitively: (failed, predictive failure,
/// rebuilding).
pub(crate) fn physical_state(state: &str) -> (bool, bool, bool) {
    let s = state.to_ascii_lowercase();
    let has = |w: &str| s.contains(w);
    let predictive = has("predictive failure") || has("smart error") || has("pfa");
    let failed = !predictive
        && (has("failed")
            || has("offline")
            || has("offln")
            || has("defunct")
            || has("unconfigured(bad)")
            || has("ubad")
            || has("inoperable")
            || has("dead"));
    let rebuilding = has("rebuild") || has("rbld");
    (failed, predictive, rebuilding)
}

/// A write policy as the tools print it: Some(true) write-through. MegaCli "WriteThrough" /
/// "WriteBack" / "Always WriteBack" (its cache policy's first field), storcli's Cache column
/// ("RWTD", "RaAWBD", perccli2 "NR,WT"), arcconf "Disabled (write-through)" / "Enabled
/// (write-back)".
pub(crate) fn write_through(policy: &str) -> Option<bool> {
    let p: String = policy
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_uppercase();
    if p.contains("WRITETHROUGH") || p.contains("WT") {
        Some(true)
    } else if p.contains("WRITEBACK") || p.contains("WB") {
        Some(false)
    } else {
        None
    }
}

/// An HPE Smart Array (and Microchip SmartRAID, arcconf 3.x) "Cache Status" value that says
/// the controller turned its cache off: "Temporarily Disabled" (backup power charging or
/// low), "Permanently Disabled" (backup power failed or not compatible, cache module fault),
/// "Failed". "OK" and "Not Configured" (no cache ratio set: HBA mode, SSD Smart Path) are not.
pub(crate) fn cache_status_off(v: &str) -> bool {
    let v = v.to_ascii_lowercase();
    v.contains("disabled") || v.contains("failed")
}

/// The first percentage in `s` ("55.73% complete", "In Progress 36%", "98%"), within 0-100.
pub fn percent(s: &str) -> Option<f64> {
    let i = s.find('%')?;
    let head = s.get(..i)?.trim_end();
    let start = head
        .rfind(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map_or(0, |k| k.saturating_add(1));
    head.get(start..)?
        .parse::<f64>()
        .ok()
        .filter(|p| (0.0..=100.0).contains(p))
}

#[cfg(test)]
mod tests;
