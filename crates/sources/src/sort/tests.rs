use proptest::prelude::*;

proptest! {
    /// Ties on the key (the first field) keep their order, as with std's stable sort.
    #[test]
    #[allow(clippy::unnecessary_sort_by)] // sort_by itself is what is compared

    fn sorts_like_std_sort_by(v in proptest::collection::vec((0u8..6, any::<u16>()), 0..200)) {
        let mut ours = v.clone();
        super::sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
        let mut std = v.clone();
        std.sort_by(|a, b| a.0.cmp(&b.0));
        prop_assert_eq!(ours, std);
        let mut ours = v.clone();
        super::sort_by_key(&mut ours, |x| std::cmp::Reverse(x.0));
        let mut std = v.clone();
        std.sort_by_key(|x| std::cmp::Reverse(x.0));
        prop_assert_eq!(ours, std);
        let mut ours = v.clone();
        super::sort(&mut ours);
        let mut std = v;
        std.sort();
        prop_assert_eq!(ours, std);
    }
}

#[test]
fn keeps_equal_elements_in_their_order_and_moves_owned_values() {
    let mut v: Vec<(u32, String)> = ["c", "a", "b", "a2", "c2"]
        .iter()
        .map(|s| (s.as_bytes()[0] as u32, s.to_string()))
        .collect();
    super::sort_by_key(&mut v, |x| x.0);
    let names: Vec<&str> = v.iter().map(|x| x.1.as_str()).collect();
    assert_eq!(names, ["a", "a2", "b", "c", "c2"]);
    // A near miss: sorting by the whole value is not the same as by the key.
    super::sort_by(&mut v, |a, b| b.1.cmp(&a.1));
    let names: Vec<&str> = v.iter().map(|x| x.1.as_str()).collect();
    assert_eq!(names, ["c2", "c", "b", "a2", "a"]);
}
