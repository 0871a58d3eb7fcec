//! Secrets in JSON: collected by key (`serial_number`, `wwn`, ...), and replaced in every
//! string of a JSON value (also the numeric ids smartctl -j prints).

use super::rules::JSON_KEYS;
use super::*;

impl Redactor {
    pub(super) fn collect_json(&mut self, v: &Value, key: Option<&str>) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    self.collect_json(x, Some(k));
                }
                if let Some(k) = key
                    && let Some(hex) = json_id_hex(k, m)
                {
                    self.add(Kind::Wwn, &hex);
                }
            }
            Value::Array(a) => a.iter().for_each(|x| self.collect_json(x, key)),
            Value::String(s) => {
                let kind = key.and_then(|k| JSON_KEYS.iter().find(|(j, _)| *j == k));
                match kind {
                    // Serials and labels stand where the key says; WWNs, hosts and UUIDs
                    // are checked for their shape.
                    Some((_, kind @ (Kind::Serial | Kind::Label))) => {
                        self.add_trusted(*kind, s);
                    }
                    Some((_, kind)) => {
                        self.add(*kind, s);
                    }
                    None => {}
                }
            }
            _ => {}
        }
    }

    pub(super) fn apply_value(&self, v: &mut Value) {
        self.apply_value_in(v, None, None);
    }

    /// Rewrite strings, except enum variants: a host named "nvme" or "linux" must not turn
    /// `"class": "nvme"` into a value the type cannot read back. `key` is the field holding
    /// `v`, `parent` the field holding that object (`Fact` values sit under "value").
    pub(super) fn apply_value_in(&self, v: &mut Value, key: Option<&str>, parent: Option<&str>) {
        const ENUM_KEYS: &[&str] = &[
            "state",
            "platform",
            "origin",
            "status",
            "reason",
            "verdict",
            "severity",
            "confidence",
            "mode",
            "kind",
        ];
        const ENUM_FACTS: &[&str] = &["class", "transport"];
        match v {
            Value::String(s) => {
                let is_enum = key.is_some_and(|k| ENUM_KEYS.contains(&k))
                    || (key == Some("value") && parent.is_some_and(|p| ENUM_FACTS.contains(&p)));
                if !is_enum {
                    *s = self.apply(s);
                }
            }
            Value::Array(a) => a
                .iter_mut()
                .for_each(|x| self.apply_value_in(x, key, parent)),
            Value::Object(m) => {
                let old = std::mem::take(m);
                for (k, mut x) in old {
                    self.apply_value_in(&mut x, Some(&k), key);
                    m.insert(self.apply(&k), x);
                }
            }
            _ => {}
        }
    }

    /// Rewrite every string (and map key) of a serializable value. None when the rewritten
    /// value no longer fits the type: callers then drop the part rather than share it
    /// unredacted.
    pub(crate) fn apply_serde<T: Serialize + DeserializeOwned>(&self, x: &T) -> Option<T> {
        let mut v = serde_json::to_value(x).ok()?;
        self.apply_value(&mut v);
        serde_json::from_value(v).ok()
    }
}

pub(super) fn walk_strings(v: &Value, f: &mut dyn FnMut(&str)) {
    match v {
        Value::String(s) => f(s),
        Value::Array(a) => a.iter().for_each(|x| walk_strings(x, f)),
        Value::Object(m) => m.iter().for_each(|(k, x)| {
            f(k);
            walk_strings(x, f)
        }),
        _ => {}
    }
}

/// smartctl -j numeric ids: `"wwn": {"naa": 5, "oui": 3152, "id": 123}` (NAA 5: 4 + 24 + 36
/// bits) and `"eui64": {"oui": ..., "ext_id": ...}` (24 + 40 bits), as 16 hex digits.
pub(super) fn json_id_hex(key: &str, m: &serde_json::Map<String, Value>) -> Option<String> {
    let n = |k: &str| m.get(k).and_then(Value::as_u64);
    match key {
        "wwn" => {
            let (naa, oui, id) = (n("naa")?, n("oui")?, n("id")?);
            Some(format!(
                "{:016x}",
                (naa & 0xf) << 60 | (oui & 0xff_ffff) << 36 | (id & 0xf_ffff_ffff)
            ))
        }
        "eui64" => {
            let (oui, ext) = (n("oui")?, n("ext_id")?);
            Some(format!(
                "{:016x}",
                (oui & 0xff_ffff) << 40 | (ext & 0xff_ffff_ffff)
            ))
        }
        _ => None,
    }
}

/// Zero the numeric parts of `wwn`/`eui64` objects; true when something changed.
pub(super) fn zero_json_ids(v: &mut Value, key: Option<&str>) -> bool {
    match v {
        Value::Object(m) => {
            let mut changed = false;
            if let Some(k) = key
                && json_id_hex(k, m).is_some()
            {
                for f in ["id", "ext_id"] {
                    if let Some(x) = m.get_mut(f) {
                        *x = Value::from(0);
                        changed = true;
                    }
                }
            }
            for (k, x) in m.iter_mut() {
                changed |= zero_json_ids(x, Some(k));
            }
            changed
        }
        Value::Array(a) => a
            .iter_mut()
            .fold(false, |acc, x| zero_json_ids(x, key) | acc),
        _ => false,
    }
}
