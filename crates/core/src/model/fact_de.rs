//! `Fact<T>`'s Deserialize, written out instead of derived, to keep the WebAssembly module
//! small. serde's derive for an internally tagged enum (`#[serde(tag = "state")]`) buffers the
//! input into its private `Content` tree and reads the variant from that, which compiles a
//! second copy of every `T`'s deserializer (for `ContentDeserializer`) beside the one for
//! `serde_json::Value`, for each of the ~27 types a fact holds: about 130 KB of the module
//! (twiggy's dominator tree of the unstripped module, before wasm-opt). Here the input is read
//! as a `serde_json::Value` (facts are only ever read from one: `report::load` parses the text
//! into a `Value` first, redaction round-trips through `serde_json::to_value`), and `T` is read
//! from that `Value`.
//!
//! The results and the error messages are those of the derive, in the same order:
//! - the tag and the shape (`state` missing or unknown, not an object or a list, `why`) are
//!   checked by [`shape::Fact`], a derived field-less twin with the same names, so its messages
//!   ("missing field `state`", "unknown variant `x`, expected `known` or `unknown`",
//!   "invalid type: ..., expected internally tagged enum Fact") are the derive's own;
//! - then `value` and `from` are read in the map's order (serde_json's `Map` is sorted by key,
//!   as the derive's buffered map is), each error the one `T` or `Vec<String>` gives;
//! - a missing field last, `value` before `from` (declaration order), through
//!   [`MissingField`], serde's rule for missing fields (an `Option` becomes `None`).
//!
//! The list form serde also accepts for a tagged enum (`["known", value, from]`) is read the
//! same way: `value` then `from`, "invalid length N, expected struct variant Fact::Known with 2
//! elements" when short. (The one order that differs: a list with too many elements whose
//! `value` is also malformed reports the length before the value.)

use serde::de::{DeserializeOwned, Error, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::Fact;

mod shape {
    use serde::Deserialize;
    use serde::de::IgnoredAny;

    /// `Fact<T>` as the derive reads it, with `value` and `from` left unread: the tag's and
    /// the shape's errors, word for word (the derive names the enum in its messages).
    #[derive(Deserialize)]
    #[serde(tag = "state", rename_all = "snake_case")]
    pub(super) enum Fact {
        Known {
            #[serde(default)]
            #[allow(dead_code)]
            value: IgnoredAny,
            #[serde(default)]
            #[allow(dead_code)]
            from: IgnoredAny,
        },
        Unknown {
            why: String,
        },
    }
}

/// serde's reading of a missing field (`serde::__private::de::missing_field`, not public):
/// an `Option` is `None`, anything else the error "missing field `name`".
struct MissingField(&'static str);

impl<'de> Deserializer<'de> for MissingField {
    type Error = serde_json::Error;
    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(serde_json::Error::missing_field(self.0))
    }
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_none()
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Fact<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        if let shape::Fact::Unknown { why } =
            shape::Fact::deserialize(&v).map_err(D::Error::custom)?
        {
            return Ok(Fact::Unknown { why });
        }
        let mut value: Option<T> = None;
        let mut from: Option<Vec<String>> = None;
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    match k.as_str() {
                        "value" => value = Some(T::deserialize(x).map_err(D::Error::custom)?),
                        "from" => {
                            from = Some(Vec::<String>::deserialize(x).map_err(D::Error::custom)?)
                        }
                        _ => {}
                    }
                }
            }
            Value::Array(a) => {
                // After the tag (the first element, which shape::Fact checked).
                const EXPECTING: &str = "struct variant Fact::Known with 2 elements";
                let mut rest = a.into_iter().skip(1);
                let Some(x) = rest.next() else {
                    return Err(D::Error::invalid_length(0, &EXPECTING));
                };
                value = Some(T::deserialize(x).map_err(D::Error::custom)?);
                let Some(x) = rest.next() else {
                    return Err(D::Error::invalid_length(1, &EXPECTING));
                };
                from = Some(Vec::<String>::deserialize(x).map_err(D::Error::custom)?);
            }
            // shape::Fact accepted only an object or a list.
            _ => {}
        }
        let value = match value {
            Some(v) => v,
            None => T::deserialize(MissingField("value")).map_err(D::Error::custom)?,
        };
        let from = match from {
            Some(f) => f,
            None => Vec::<String>::deserialize(MissingField("from")).map_err(D::Error::custom)?,
        };
        Ok(Fact::Known { value, from })
    }
}

#[cfg(test)]
mod tests {
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
}
