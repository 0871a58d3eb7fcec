use super::*;
use crate::checks::Verdict;
use crate::checks::measured_common::synth::*;

#[test]
fn tiny_shares_are_never_zero_percent() {
    assert_eq!(share_of(0.0004), "under 0.1%");
    assert_eq!(share_of(0.0042), "0.4%");
    assert_eq!(share_of(0.062), "6.2%");
    assert_eq!(share_of(0.4), "40%");
}

#[test]
fn seed_style_sweep() {
    let mut rs = vec![];
    for (bs, mb) in [(512u64, 3.6), (4096, 25.0), (131072, 57.0), (1 << 20, 58.0)] {
        rs.push(result(
            TestName::BsSweep,
            &format!("bs={bs}"),
            "ada0",
            mb,
            bs,
        ));
    }
    let mut b = result(TestName::BsSweep, "buffered bs=512", "ada0", 55.0, 512);
    b.direct = false;
    rs.push(b);
    let f = SmallBlockOverhead.run(&sys(vec![], rs));
    assert_eq!(f[0].verdict, Verdict::Problem);
    assert_eq!(
        f[0].title,
        "ada0: 512 B requests run at 6.2% of the 1 MiB rate"
    );
    assert!(
        f[0].explanation.contains("Requests of 131072 B and up"),
        "{}",
        f[0].explanation
    );
    assert!(f[0].explanation.contains("page cache"));
}

#[test]
fn flat_sweep_passes_and_no_sweep_is_silent() {
    let rs = vec![
        result(TestName::BsSweep, "bs=4096", "zram1", 3000.0, 4096),
        result(TestName::BsSweep, "bs=1048576", "zram1", 8000.0, 1 << 20),
    ];
    assert_eq!(
        SmallBlockOverhead.run(&sys(vec![], rs))[0].verdict,
        Verdict::Pass
    );
    assert!(
        SmallBlockOverhead
            .run(&sys(
                vec![],
                vec![result(TestName::SeqRead, "outer", "a", 1.0, 1 << 20)]
            ))
            .is_empty()
    );
}
