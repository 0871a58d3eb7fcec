use super::*;

/// bonnie++ 1.97's table as bon_csv2txt prints it (a desktop's SATA SSD, 32G file on 16 GB
/// of RAM): the block read waited on the disk (%CP 21).
const SSD: &str = "Version  1.97       ------Sequential Output------ --Sequential Input- --Random-\n\
Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n\
Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n\
desk            32G   812  97 468120  41 201337  22  3121  98 512004  21  6214 158\n\
Latency             10311us   99214us  134112us    6211us   21331us   11021us\n";

#[test]
fn a_table_s_rates_and_cpu() {
    let r = parse(SSD);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].size_bytes, Some(32 << 30));
    assert_eq!(r[0].block_in.kib_s, Some(512004.0));
    assert_eq!(r[0].block_in.cpu_pct, Some(21.0));
    let b = block_reads(SSD, "pasted:bonnie lines 1-5");
    assert_eq!(b.len(), 1);
    let (real, cpu) = (
        b[0].time_real_s.unwrap_or(0.0),
        b[0].time_cpu_s.unwrap_or(0.0),
    );
    assert!((cpu / real - 0.21).abs() < 1e-9, "{cpu} {real}");
    let lines: Vec<&str> = SSD.lines().collect();
    assert_eq!(RECOGNISER.starts[0].1(&lines), spec::Start::Yes);
}

#[test]
fn scaled_rates_and_untimed_tests() {
    // bonnie++ 2.00's scaled form, with a seek test too fast to time.
    let t = "Version  2.00       ------Sequential Output------ --Sequential Input- --Random-\n\
             \x20                   -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n\
             Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n\
             nas              4G  512k  97  2.3g  88  900m  61 1800k  99  3.1g  97 +++++ +++\n";
    let r = parse(t);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].block_out.kib_s, Some(2.3 * 1024.0 * 1024.0));
    assert_eq!(r[0].rewrite.kib_s, Some(900.0 * 1024.0));
    // Prose or the latency line is no run.
    assert!(row("Latency 39397us 155us 92us 4420us 87us 641us").is_none());
    assert!(parse("bonnie++ said 4.4g for block reads, is that right?").is_empty());
}

#[test]
fn the_machine_name_is_a_host_secret() {
    // bonnie++ 1.97's table and CSV line (bon_csv2txt's layout, NOT A CAPTURE: another name).
    let t = "Version  1.97       ------Sequential Output------ --Sequential Input- --Random-\n\
             box17.example 32G   530  99 152464  29 58137  45  1036  98 154698  24 197.2  12\n\
             box17.example.co -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n\
             1.97,1.97,box17.example.com,1,1360161593,32G,,530,99,152464,29\n";
    let found: Vec<String> = hosts(t).into_iter().map(|f| f.value).collect();
    for h in ["box17.example", "box17.example.co", "box17.example.com"] {
        assert!(found.iter().any(|f| f == h), "{h}: {found:?}");
    }
    assert!(hosts("Latency  39397us  155us\n").is_empty());
}

#[test]
fn a_column_line_joined_to_the_header_above() {
    // bonnie++ 1.97's table whose "Concurrency ... --Seeks--" and "Machine Size ..." lines
    // a mail client joined into one (both 80 columns): the rows under it are still runs.
    let joined = "Version  1.97       ------Sequential Output------ --Sequential Input- --Random-\n\
                  Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\
                  Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n\
                  lab3            16G   700  96 301544  33 150222  19  2900  97 402331  18  4410 120\n";
    let r = parse(joined);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].block_in.kib_s, Some(402331.0));
    // The header line alone, with no column line in it, opens no table.
    let header_only = "Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n\
                       lab3            16G   700  96 301544  33 150222  19  2900  97 402331  18  4410 120\n";
    assert!(parse(header_only).is_empty());
}
