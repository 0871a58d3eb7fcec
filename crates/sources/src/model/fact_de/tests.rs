use serde::Deserialize;
use serde_json::{Value, json};

/// The derive this file replaces, word for word (the same name, so the same messages).
mod derived {
    use serde::Deserialize;
    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(tag = "state", rename_all = "snake_case")]
    pub(super) enum Fact<T> {
        Known { value: T, from: Vec<String> },
        Unknown { why: String },
    }
}

#[derive(Debug, PartialEq, Deserialize)]
struct Inner {
    a: u32,
    #[serde(default)]
    b: Option<String>,
}

#[derive(Debug, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Kind {
    Hdd,
    Ssd,
}

/// Both readings of `v` as `Fact<T>`: the same value, or the same error message.
fn same<T>(v: &Value)
where
    T: serde::de::DeserializeOwned + std::fmt::Debug + PartialEq,
{
    let ours = serde_json::from_value::<super::Fact<T>>(v.clone()).map_err(|e| e.to_string());
    let theirs = serde_json::from_value::<derived::Fact<T>>(v.clone())
        .map(|f| match f {
            derived::Fact::Known { value, from } => super::Fact::Known { value, from },
            derived::Fact::Unknown { why } => super::Fact::Unknown { why },
        })
        .map_err(|e| e.to_string());
    assert_eq!(ours, theirs, "{v}");
    // And from JSON text (a Value in between for ours, Content for the derive).
    let text = v.to_string();
    let ours = serde_json::from_str::<super::Fact<T>>(&text).map_err(|e| e.to_string());
    let theirs = serde_json::from_str::<derived::Fact<T>>(&text)
        .map(|f| match f {
            derived::Fact::Known { value, from } => super::Fact::Known { value, from },
            derived::Fact::Unknown { why } => super::Fact::Unknown { why },
        })
        .map_err(|e| e.to_string());
    assert_eq!(ours.is_ok(), theirs.is_ok(), "{text}: {ours:?} {theirs:?}");
    if ours.is_ok() {
        assert_eq!(ours, theirs, "{text}");
    }
}

fn inputs() -> Vec<Value> {
    vec![
        json!({"state": "known", "value": 7, "from": ["a", "b"]}),
        json!({"state": "known", "value": 7, "from": ["a"], "extra": 1}),
        json!({"state": "known", "value": "x", "from": ["a"]}),
        json!({"state": "known", "value": -1, "from": ["a"]}),
        json!({"state": "known", "value": 1.5, "from": ["a"]}),
        json!({"state": "known", "value": 5_000_000_000u64, "from": ["a"]}),
        json!({"state": "known", "value": null, "from": ["a"]}),
        json!({"state": "known", "value": {"a": 3}, "from": []}),
        json!({"state": "known", "value": {"a": 3, "b": "s", "c": 1}, "from": []}),
        json!({"state": "known", "value": {"b": "s"}, "from": []}),
        json!({"state": "known", "value": "hdd", "from": []}),
        json!({"state": "known", "value": "tape", "from": []}),
        json!({"state": "known", "value": {"ssd": null}, "from": []}),
        json!({"state": "known", "value": [1, 2], "from": []}),
        json!({"state": "known", "value": true, "from": ["a"]}),
        json!({"state": "known", "from": ["a"]}),
        json!({"state": "known", "value": 7}),
        json!({"state": "known", "value": "x"}),
        json!({"state": "known", "value": 7, "from": "a"}),
        json!({"state": "known", "value": "x", "from": 3}),
        json!({"state": "known"}),
        json!({"state": "unknown", "why": "not probed"}),
        json!({"state": "unknown", "why": 3}),
        json!({"state": "unknown"}),
        json!({"state": "unknown", "why": "w", "value": "junk"}),
        json!({"state": "maybe", "value": 7, "from": []}),
        json!({"state": 1, "why": "w"}),
        json!({"state": 9, "why": "w"}),
        json!({"state": null}),
        json!({"value": 7, "from": []}),
        json!({}),
        json!(["known", 7, ["a"]]),
        json!(["known", "x", ["a"]]),
        json!(["known", 7]),
        json!(["known"]),
        json!(["unknown", "why"]),
        json!(["unknown"]),
        json!([]),
        json!("known"),
        json!(7),
        json!(null),
    ]
}

#[test]
fn reads_and_refuses_like_the_derive() {
    for v in inputs() {
        same::<u64>(&v);
        same::<u32>(&v);
        same::<i64>(&v);
        same::<f64>(&v);
        same::<bool>(&v);
        same::<String>(&v);
        same::<Option<u64>>(&v);
        same::<Vec<u64>>(&v);
        same::<Inner>(&v);
        same::<Kind>(&v);
    }
}

#[test]
fn round_trips_what_diskdoc_writes() {
    let f = super::Fact::known(42u64, "sysfs:/sys/block/sda/size");
    let v = serde_json::to_value(&f).unwrap();
    assert_eq!(serde_json::from_value::<super::Fact<u64>>(v).unwrap(), f);
    let u: super::Fact<u64> = super::Fact::unknown("permission denied");
    let v = serde_json::to_value(&u).unwrap();
    assert_eq!(serde_json::from_value::<super::Fact<u64>>(v).unwrap(), u);
    // A near miss: the right fields under a wrong tag are refused, not guessed.
    let bad = json!({"state": "Known", "value": 1, "from": []});
    let e = serde_json::from_value::<super::Fact<u64>>(bad).unwrap_err();
    assert!(e.to_string().starts_with("unknown variant `Known`"), "{e}");
}
