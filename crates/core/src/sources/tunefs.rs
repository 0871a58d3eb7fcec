//! `tunefs -p DEV` (FreeBSD): the UFS superblock flags. sbin/tunefs/tunefs.c prints each
//! with warnx(3), so the lines reach standard error prefixed "tunefs: ", e.g.
//! "tunefs: trim: (-t)                                         enabled" (FS_TRIM in fs_flags:
//! UFS sends BIO_DELETE for every freed block).

/// The "trim: (-t)" flag: Some(true) enabled, Some(false) disabled, None when absent.
pub fn trim_enabled(text: &str) -> Option<bool> {
    text.lines().find_map(|l| {
        let rest = l.trim().strip_prefix("tunefs:").unwrap_or(l).trim();
        let v = rest.strip_prefix("trim: (-t)")?.trim();
        match v {
            "enabled" => Some(true),
            "disabled" => Some(false),
            _ => None,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::trim_enabled;

    #[test]
    fn trim_flag_lines() {
        // Built from tunefs.c's warnx format ("trim: (-t)" padded to column 52), NOT A
        // CAPTURE; tests/it/freebsd_parsers.rs reads the fixtures.
        let on = "tunefs: gjournal: (-J)                                     disabled\n\
                  tunefs: trim: (-t)                                         enabled\n";
        assert_eq!(trim_enabled(on), Some(true));
        assert_eq!(
            trim_enabled("tunefs: trim: (-t)                                         disabled"),
            Some(false)
        );
        assert_eq!(trim_enabled("tunefs: trim: (-t)   maybe"), None);
        assert_eq!(trim_enabled("tunefs: soft updates: (-n)   enabled"), None);
        assert_eq!(trim_enabled(""), None);
    }
}
