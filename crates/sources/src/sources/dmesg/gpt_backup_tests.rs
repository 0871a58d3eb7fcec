use super::gpt_backup_not_at_end;

#[test]
fn secondary_gpt_header_lines_name_their_disk() {
    let log = "vtbd0: 40960MB (83886080 512 byte sectors)\n\
                   GEOM: vtbd0: the secondary GPT header is not in the last LBA.\n\
                   Dec  4 10:00:01 host kernel: GEOM: da2: the secondary GPT header is not in the last LBA.\n\
                   GEOM: da2: the secondary GPT header is not in the last LBA.\n\
                   GEOM: ada0: the primary GPT table is corrupt or invalid.\n";
    let m = gpt_backup_not_at_end(log);
    let disks: Vec<_> = m.iter().filter_map(|x| x.partition.as_deref()).collect();
    assert_eq!(disks, vec!["vtbd0", "da2"]);
    assert!(m.iter().all(|x| x.line.starts_with("GEOM: ")), "{m:?}");
}

#[test]
fn an_automatic_resize_of_a_grown_provider_names_its_disk() {
    let log = "(ada1:ahcich1:0:0:0): Capacity data has changed\n\
                   Jun 10 10:00:01 nas kernel: GEOM_PART: vtbd1 was automatically resized.\n\
                   GEOM_PART: ada1 was automatically resized.\n\
                   \x20 Use `gpart commit ada1` to save changes or `gpart undo ada1` to revert them.\n\
                   GEOM_PART: partition 2 on (ada1, GPT) is not aligned on 4096 bytes\n";
    let m = gpt_backup_not_at_end(log);
    let disks: Vec<_> = m.iter().filter_map(|x| x.partition.as_deref()).collect();
    assert_eq!(disks, vec!["vtbd1", "ada1"]);
}
