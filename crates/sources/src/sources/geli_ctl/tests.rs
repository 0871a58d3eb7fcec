use super::*;

#[test]
fn init_backup_and_a_wrong_key() {
    let t = "Metadata backup can be found in /var/backups/da0.eli and\n\
                 can be restored with the following command:\n\n\
                 \t# geli restore /var/backups/da0.eli /dev/da0\n\n\
                 > Enter passphrase: \n> geli: Wrong key for da0.\n\
                 Metadata backup for provider /dev/ada1p4 can be found in /var/backups/ada1p4.eli\n";
    let r = parse(t);
    assert_eq!(
        r.backups,
        vec![
            (None, "/var/backups/da0.eli".to_string()),
            (
                Some("/dev/ada1p4".to_string()),
                "/var/backups/ada1p4.eli".to_string()
            )
        ]
    );
    assert_eq!(r.errors, vec!["Wrong key for da0"]);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!((RECOGNISER.starts[0].1)(&lines), spec::Start::Yes);
    assert!(is_member("\t# geli restore /var/backups/da0.eli /dev/da0"));
    assert_eq!(
        parse("geli:\nMetadata backup can be found in \n"),
        GeliCtl::default()
    );
}
