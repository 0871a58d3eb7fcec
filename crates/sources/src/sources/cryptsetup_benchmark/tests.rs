use super::*;

#[test]
fn rows_of_old_and_new_tables_are_read_in_mib() {
    // Formats of cryptsetup 1.6 (aligned columns) and 2.x (wider columns, N/A rows).
    let t = "#  Algorithm | Key |  Encryption |  Decryption\n     aes-cbc   128b    11.0 MiB/s    11.0 MiB/s\n\
                 #     Algorithm |       Key |      Encryption |      Decryption\n        aes-xts        512b      1834.2 MiB/s      1850.7 MiB/s\n\
                 \x20   adiantum        256b       N/A       N/A\n     aes-xts   256b   156,4 MiB/s   157,8 MiB/s\n";
    let r = parse(t);
    assert_eq!(r.len(), 3);
    assert!((r[2].encrypt_bytes_per_sec - 156.4 * 1048576.0).abs() < 1.0);
    assert_eq!(r[0].cipher, "aes-cbc");
    assert_eq!(r[0].key_bits, 128);
    assert!((r[1].decrypt_bytes_per_sec - 1850.7 * 1048576.0).abs() < 1.0);
}
