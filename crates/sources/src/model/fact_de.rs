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
mod tests;
