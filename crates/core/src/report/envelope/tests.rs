use super::*;

#[test]
fn schema_2_benchmarks_without_threads_load_as_one_thread() {
    let mut r = BenchResult {
        test: crate::evidence::TestName::CdmRead,
        label: "SEQ1M Q8T4".into(),
        queue_depth: 8,
        threads: 4,
        ..BenchResult::default()
    };
    let mut v = serde_json::to_value(BenchmarkJson::from_result(&r)).unwrap();
    assert_eq!(v["threads"], 4);
    v.as_object_mut().unwrap().remove("threads");
    let old: BenchmarkJson = serde_json::from_value(v).unwrap();
    assert_eq!(old.threads, 1);
    // A result built without a job (a refusal) still says one thread.
    r.threads = 0;
    assert_eq!(BenchmarkJson::from_result(&r).threads, 1);
}
