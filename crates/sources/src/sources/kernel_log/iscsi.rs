//! The Linux iSCSI initiator's messages: its connection and session devices, which
//! drivers/scsi/scsi_transport_iscsi.c names "connection%d:%d" and "session%d".
//!
//! libiscsi.c iscsi_check_transport_timeouts: "connection5:0: ping timeout of 5 secs
//! expired, recv timeout 5, last rx ..., last ping ..., now ..." (the target did not answer
//! a NOP-Out in time); scsi_transport_iscsi.c iscsi_conn_error_event: "connection7:0:
//! detected conn error (1021)" (enum iscsi_err of include/scsi/iscsi_if.h: 1011
//! ISCSI_ERR_CONN_FAILED, 1020 ISCSI_ERR_TCP_CONN_CLOSE, 1021 ISCSI_ERR_SCSI_EH_SESSION_RST,
//! 1022 ISCSI_ERR_NOP_TIMEDOUT); session_recovery_timedout: "session7: session recovery timed
//! out after 120 secs" (replacement_timeout ran out: every command queued on the session
//! fails and its disks go offline).
//!
//! A disk on an iSCSI session is a volume another machine (the target) exports over the
//! network: these lines are the network's or the target's trouble, no drive's. The SCSI
//! disks of the session are its logical units; the lines do not name the host adapter, so
//! a log's iSCSI units are known as the disks at a LUN other than 0 that no USB driver
//! serves (a local SATA or SAS drive is LUN 0, see kernel_log::lun_of), or the disks whose
//! INQUIRY names a software target (LIO-ORG, IET, SCST).

use crate::model::{KernelEvent, KernelEventKind};

/// The controller description facts give a disk on an iSCSI session (checks read it to say
/// what the disk is).
pub const INITIATOR: &str = "iSCSI session (a volume a target exports over the network)";

/// The initiator's connection and session failures of a log, as transport errors.
pub fn errors(log: &str, from: &str) -> Vec<KernelEvent> {
    log.lines()
        .map(|raw| super::strip_prefixes(raw).trim())
        .filter(|b| is_failure(b))
        .map(|b| KernelEvent {
            kind: KernelEventKind::TransportError,
            line: b.to_string(),
            from: from.to_string(),
        })
        .collect()
}

/// "connectionN:M: ping timeout ...", "connectionN:M: detected conn error (E)",
/// "sessionN: session recovery timed out after S secs".
fn is_failure(body: &str) -> bool {
    let Some((dev, rest)) = body.split_once(": ") else {
        return false;
    };
    let unit = |p: &str, x: &str| {
        x.strip_prefix(p).is_some_and(|u| {
            !u.is_empty()
                && u.split(':')
                    .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
    };
    (unit("connection", dev)
        && (rest.starts_with("ping timeout of ") || rest.starts_with("detected conn error (")))
        || (unit("session", dev) && rest.starts_with("session recovery timed out after "))
}

/// The SCSI disks of a log that sit on an iSCSI session, when the log shows the initiator
/// ([`errors`] or its connection lines): see the module docs for how they are known.
pub fn luns(log: &str) -> Vec<String> {
    super::disks_named(log)
        .into_iter()
        .filter(|d| super::usb_driver_of(d, log).is_none())
        .filter(|d| {
            super::lun_of(d, log).is_some_and(|l| l != 0)
                || super::inquiry_of(d, log).is_some_and(|(v, _)| is_software_target_vendor(&v))
        })
        .collect()
}

/// A software SCSI target's T10 vendor identification (SCSI INQUIRY bytes 8-15): Linux LIO
/// ("LIO-ORG", target_core_spc.c), the iSCSI Enterprise Target and tgt ("IET", which
/// Longhorn's engine uses), SCST ("SCST_FIO", "SCST_BIO") and FreeBSD ctl(4) ("FREEBSD",
/// ctl.c CTL_VENDOR). Such a LUN is a file or block device on the target host exported over
/// the network.
pub fn is_software_target_vendor(vendor: &str) -> bool {
    ["LIO-ORG", "IET", "SCST_FIO", "SCST_BIO", "FREEBSD"].contains(&vendor.trim())
}

#[cfg(test)]
mod tests;
