use super::*;

#[test]
fn a_key_names_its_device_and_a_device_its_key() {
    let tags = Live::Cmd(&["camcontrol", "tags", "{disk}", "-v"]);
    assert_eq!(tags.device_in("cmd:camcontrol tags ada0 -v"), Some("ada0"));
    assert_eq!(tags.device_in("cmd:camcontrol tags ada0"), None);
    let info = Live::Cmd(&["diskinfo", "-v", "{dev}"]);
    assert_eq!(info.device_in("cmd:diskinfo -v /dev/da0s1"), Some("da0s1"));
    assert_eq!(info.device_in("cmd:diskinfo -v da0"), None);
    assert_eq!(info.key_for("da0"), "cmd:diskinfo -v /dev/da0");
    assert_eq!(
        Live::Cmd(&["gpart", "list"]).device_in("cmd:gpart list"),
        None
    );
    assert_eq!(
        Live::Sysctl("dev.nvd.{unit}.%parent").key_for("nvd3"),
        "sysctl:dev.nvd.3.%parent"
    );
}

#[test]
fn templates_match_their_instances_only() {
    let t = Live::Cmd(&["camcontrol", "identify", "{disk}"]);
    assert!(t.matches("cmd:camcontrol identify ada0"));
    assert!(!t.matches("cmd:camcontrol identify"));
    assert!(!t.matches("cmd:camcontrol identify ada0 -v"));
    let s = Live::Sysctl("kern.cam.ada.{unit}.write_cache");
    assert!(s.matches("sysctl:kern.cam.ada.12.write_cache"));
    assert!(!s.matches("sysctl:kern.cam.ada.write_cache"));
    assert!(Live::Ioctl("DIOCGSTRIPESIZE").matches("ioctl:/dev/da0:DIOCGSTRIPESIZE"));
    assert_eq!(
        Live::Cmd(&["diskinfo", "-v", "{dev}"])
            .key(Some("/dev/ada0"))
            .map(|k| k.to_string()),
        Some("cmd:diskinfo -v /dev/ada0".to_string())
    );
    assert_eq!(t.key(None), None);
    assert_eq!(
        Live::Cmd(&["gpart", "list"])
            .key(None)
            .map(|k| k.to_string()),
        Some("cmd:gpart list".to_string())
    );
}
