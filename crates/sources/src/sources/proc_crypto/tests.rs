use super::*;

#[test]
fn blocks_and_start() {
    let t = "name         : xts(aes)\ndriver       : xts(ecb(aes-generic))\nmodule       : kernel\n\
                 priority     : 100\nrefcnt       : 3\n\nname         : xts(aes)\n\
                 driver       : xts-aes-aesni\nmodule       : aesni_intel\npriority     : 401\n";
    let p = parse(t);
    assert_eq!(p.len(), 2);
    assert_eq!(p[0].1, "xts(ecb(aes-generic))");
    assert_eq!(p[1].2, 401);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    assert_eq!(start(&lines[1..]), spec::Start::No);
    assert_eq!(start(&["name : foo", "State : x"]), spec::Start::No);
}
