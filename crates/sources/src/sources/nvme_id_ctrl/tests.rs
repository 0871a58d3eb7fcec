use super::*;

#[test]
fn identify_fields_and_power_states() {
    // nvme-cli's layout (nvme-print-stdout.c stdout_id_ctrl): names padded to ten
    // columns, values as the structure holds them.
    let t = "NVME Identify Controller:\n\
                 vid       : 0x1344\n\
                 ssvid     : 0x1344\n\
                 sn        : 24054714EE91        \n\
                 mn        : Micron_2400_MTFDKBA1T0QFM               \n\
                 fr        : V3MA003 \n\
                 apsta     : 0x1\n\
                 wctemp    : 357\n\
                 cctemp    : 358\n\
                 ps      0 : mp:5.50W operational enlat:0 exlat:0 rrt:0 rrl:0\n\
                 \x20         rwt:0 rwl:0 idle_power:- active_power:-\n\
                 ps      4 : mp:0.0040W non-operational enlat:15000 exlat:20000 rrt:4 rrl:4\n";
    let id = parse(t).expect("identify");
    assert_eq!(id.model.as_deref(), Some("Micron_2400_MTFDKBA1T0QFM"));
    assert_eq!(id.serial.as_deref(), Some("24054714EE91"));
    assert_eq!(id.firmware.as_deref(), Some("V3MA003"));
    assert_eq!(id.apst_supported, Some(true));
    assert_eq!((id.wctemp_k, id.cctemp_k), (Some(357), Some(358)));
    assert_eq!(id.power_states_w, vec![5.5, 0.004]);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    // Near misses: prose quoting the header, another tool's "key : value" lines.
    assert_eq!(
        start(&[
            "NVME Identify Controller: is what nvme id-ctrl prints",
            "so"
        ]),
        spec::Start::No
    );
    assert!(parse("vid : 0x1344\nmn : X\n").is_none());
}
