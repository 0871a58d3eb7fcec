use super::*;

#[test]
fn connection_and_session_failures() {
    let log = "[Thu Sep 25 12:08:27 2025] sd 4:0:0:1: [sdc] Write cache: disabled, read cache: enabled, supports DPO and FUA\n\
               [Thu Sep 25 12:08:27 2025] sd 4:0:0:1: [sdc] Attached SCSI disk\n\
               [Thu Sep 25 12:12:58 2025]  connection5:0: ping timeout of 5 secs expired, recv timeout 5, last rx 4798244803, last ping 4798249856, now 4798255104\n\
               [Thu Sep 25 12:12:58 2025]  connection5:0: detected conn error (1022)\n\
               kern  :info  : [Jan13 04:33] [Tue Jan 13 04:33:10 2026] [  T129]  session7: session recovery timed out after 120 secs\n";
    let e = errors(log, "paste");
    assert_eq!(e.len(), 3, "{e:?}");
    assert!(e.iter().all(|x| x.kind == KernelEventKind::TransportError));
    assert_eq!(luns(log), vec!["sdc".to_string()]);
    // Near misses: a session's login is no failure, and a local drive at LUN 0 is no
    // iSCSI unit.
    assert!(errors("[ 1.0] connection1:0: detected conn login", "p").is_empty());
    assert!(errors("[ 1.0] session1: logged in", "p").is_empty());
    let local = "[ 1.0] sd 0:0:0:0: [sda] Attached SCSI disk\n";
    assert!(luns(local).is_empty());
}
