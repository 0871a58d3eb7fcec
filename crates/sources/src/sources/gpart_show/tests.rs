/// The header's sector count against its media size tells 4Kn from 512-byte sectors,
/// in any spacing (a page that collapsed the blanks), and stays silent when they
/// disagree with both.
#[test]
fn sector_size_from_the_header() {
    for (t, want) in [
        (
            "=> 6 234423115 nvd0 GPT (894G)\n6 131072 1 efi (512M)\n",
            Some(4096),
        ),
        ("=>       256  468843345  nvd1  GPT  (1.7T)\n", Some(4096)),
        ("=>       40  1953525088  ada0  GPT  (932G)\n", Some(512)),
        ("=>      63  976773105  ada1  MBR  (466G)\n", Some(512)),
        // Inside a slice the header is the slice's: still its own sectors and size.
        ("=>      0  976773105  ada1s1  BSD  (466G)\n", Some(512)),
        // Neither: a size that matches no sector size, or none printed.
        ("=>      40  1000  da0  GPT  (894G)\n", None),
        ("=>      40  1953525088  ada0  GPT\n", None),
    ] {
        let b = parse(t);
        assert_eq!(b[0].sector_size_from_header(), want, "{t}");
    }
}

use super::*;

#[test]
fn labels_raw_types_and_ebr_names() {
    // gpart show -l: labels in the type column, "(null)" for an unlabelled partition.
    let b = parse(
        "=>       40  41942960  ada0  GPT  (20G)\n         40      1024     1  gptboot0  (512K)\n       1064       984        - free -  (492K)\n       2048   4194304     2  swap0  (2.0G)\n    4196352  37744640     3  (null)  (18G)\n",
    );
    let rows: Vec<(Option<&str>, Option<&str>)> = b[0]
        .partitions()
        .map(|e| (e.type_name.as_deref(), e.label.as_deref()))
        .collect();
    assert_eq!(
        rows,
        [
            (None, Some("gptboot0")),
            (None, Some("swap0")),
            (None, None)
        ]
    );
    // gpart show -r on MBR: decimal raw types; 5 is the extended container.
    let r = parse(
        "=>       63  312581745  ada0  MBR  (149G)\n         63  104857600     1  7  [active]  (50G)\n  104857663  207724145     4  5  (99G)\n\n=>        0  207724145  ada0s4  EBR  (99G)\n          0  104857600         1  131  (50G)\n  104857600  102866545  51200001  130  (49G)\n",
    );
    let t: Vec<Option<&str>> = r[0].partitions().map(|e| e.type_name.as_deref()).collect();
    assert_eq!(t, [Some("7"), Some("ebr")]);
    assert_eq!(r[0].entries[0].attrs, ["active"]);
    // Plain-form EBR rows are named by position from 5, whatever gpe_index says.
    let names: Vec<Option<&str>> = r[1].partitions().map(|e| e.provider.as_deref()).collect();
    assert_eq!(names, [Some("ada0s5"), Some("ada0s6")]);
    // An MBR type without an alias ("!12") and -p names stay as printed.
    let p = parse("=>  63  1000  da0  MBR  (500K)\n    63   937  da0s1  !12  (468K)\n");
    let e = p[0].partitions().next().unwrap();
    assert_eq!(
        (e.provider.as_deref(), e.type_name.as_deref()),
        (Some("da0s1"), Some("!12"))
    );
}

#[test]
fn corrupt_label_views_parse_and_their_names_are_secrets() {
    let text = "=>      40  41942960  da1  GPT  (20G) [CORRUPT]\n\
                        40      1024    1  freebsd-boot  (512K)\n\
                      1064  41941936    2  freebsd-ufs  (20G)\n\
                \n\
                =>      40  41942960  gpt/rootdisk  GPT  (20G) [CORRUPT]\n\
                        40      1024             1  freebsd-boot  (512K)\n\
                \n\
                =>      40  41942960  diskid/DISK-ZA1B2C3D  GPT  (20G) [CORRUPT]\n\
                        40      1024                      1  freebsd-boot  (512K)\n";
    let blocks = parse(text);
    assert_eq!(blocks.len(), 3);
    assert!(blocks.iter().all(|b| b.corrupt && b.scheme == "GPT"));
    let found: Vec<String> = secrets(text).into_iter().map(|f| f.value).collect();
    assert_eq!(found, ["rootdisk", "ZA1B2C3D"]);
    // A plain provider carries none.
    assert!(secrets("=>  63  1953525105  ada0  MBR  (932G)\n").is_empty());
}
