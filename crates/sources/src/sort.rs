//! Stable sorting with one copy of the sort. `slice::sort_by` is generic over the element and
//! the comparison, so each call site compiled its own driftsort (quicksort, merges, small-sort
//! networks): 32 copies, about 140 KB of the WebAssembly module before wasm-opt (twiggy,
//! `core::slice::sort::*`). Here the sort runs once, on the positions `0..len` with the
//! caller's comparison behind a `dyn`, and the elements are then moved into that order.
//!
//! The result is `sort_by`'s exactly: the positions are sorted by comparing the elements they
//! name, with a stable sort, so equal elements keep their order (std's guarantee, which the
//! findings' ranking and the reports rely on); the comparison is called on the same pairs'
//! elements, never on anything else. Only for comparisons that are a total order (`Ord`
//! keys, `f64::total_cmp`): with `partial_cmp(..).unwrap_or(Equal)` on a NaN the order is
//! the algorithm's, and std's sort picks its small-sort by the element type, so those call
//! sites keep `sort_by`.

use std::cmp::Ordering;

/// `v.sort_by(cmp)`, with the result `sort_by` gives.
pub fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let mut order: Vec<usize> = (0..v.len()).collect();
    sort_positions(&mut order, &mut |a, b| cmp(&v[a], &v[b]));
    permute(v, &mut order);
}

/// `v.sort_by_key(key)`.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// `v.sort()`; also for `sort_unstable` of values whose equal elements are identical
/// (integers, strings, tuples of them), where every sort gives the same result.
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// The one instantiation of std's stable sort.
fn sort_positions(order: &mut [usize], cmp: &mut dyn FnMut(usize, usize) -> Ordering) {
    order.sort_by(|&a, &b| cmp(a, b));
}

/// Rearrange `v` so that the new `v[j]` is the old `v[order[j]]`, in place, following each
/// cycle of the permutation with swaps (`order` is left as the identity).
fn permute<T>(v: &mut [T], order: &mut [usize]) {
    for i in 0..v.len() {
        let mut j = i;
        while order[j] != i {
            let k = order[j];
            v.swap(j, k);
            order[j] = j;
            j = k;
        }
        order[j] = j;
    }
}

#[cfg(test)]
mod tests;
