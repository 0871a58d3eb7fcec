use super::*;

#[test]
fn placeholders_are_spoken_of_and_commands_take_a_name_to_fill_in() {
    assert_eq!(
        placeholder_in("smartctl -t long /dev/pasted-disk", true),
        "smartctl -t long /dev/DISK"
    );
    assert_eq!(
        placeholder_in("camcontrol identify pasted-disk2", true),
        "camcontrol identify DISK2"
    );
    assert_eq!(
        placeholder_in("write cache state of pasted-disk unknown", false),
        "write cache state of the disk you pasted unknown"
    );
    assert_eq!(
        placeholder_in("pasted-disk2 and sda", false),
        "the disk you pasted (drive 2) and sda"
    );
    assert_eq!(placeholder_in("sda only", true), "sda only");
}

#[test]
fn one_drive_outputs_are_the_identify_and_smart_reports() {
    let one: Vec<&str> = Tool::all().filter(|t| per_disk(*t)).map(Tool::id).collect();
    assert_eq!(
        one,
        [
            sources::camcontrol_identify::SPEC.id,
            sources::camcontrol_identify::ATACONTROL_SPEC.id,
            sources::atacontrol_smart::SPEC.id,
            sources::smartctl::SPEC.id,
            sources::smartctl::JSON_SPEC.id,
            sources::hdparm::IDENTIFY_SPEC.id,
            // One drive's INQUIRY, READ CAPACITY and VPD pages (model, block sizes,
            // provisioning, limits, rotation rate).
            sources::sg_inq::SPEC.id,
            sources::sg_readcap::SPEC.id,
            sources::sg_vpd::SPEC.id,
            // One drive's mode pages and vendor report (write cache, power timers).
            sources::sdparm::SPEC.id,
            sources::openseachest::SPEC.id,
            // One drive's queue: tied to the pasted disk when nothing names it.
            sources::camcontrol_tags::SPEC.id,
        ]
    );
}
