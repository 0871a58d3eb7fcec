//! `sysctl kern.geom.confxml` (geom(4)): the whole GEOM graph as XML. Readable without root,
//! it gives per DISK provider the media/sector/stripe sizes and rotation rate, per PART geom
//! the scheme and each partition's start/end, and the ELI and MIRROR layers with what they
//! consume. Parsed with a small tag scanner: the format is flat and machine-written
//! (<mesh><class><name/><geom><name/><config>..</config><consumer>..<provider>..).

use std::collections::BTreeMap;

use super::geom_util::leading_digits_u64;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Provider {
    pub id: String,
    pub name: String,
    pub media_bytes: Option<u64>,
    pub sector_size: Option<u32>,
    pub stripe_size: Option<u64>,
    pub stripe_offset: Option<u64>,
    /// The provider's access counts, the sum over its consumers (`<mode>r1w1e1</mode>`,
    /// sys/geom/geom_dump.c g_conf_provider).
    pub mode: Option<Access>,
    /// Class-specific values (PART: start, end, index, type, offset; DISK: rotationrate,
    /// descr, ident).
    pub config: BTreeMap<String, String>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Geom {
    /// GEOM class: "DISK", "PART", "ELI", "MIRROR", "LABEL", "VFS", ...
    pub class: String,
    pub name: String,
    pub config: BTreeMap<String, String>,
    pub providers: Vec<Provider>,
    /// Provider ids this geom consumes.
    pub consumes: Vec<String>,
    /// This geom's consumers with their access counts (g_conf_consumer), in document order.
    pub consumers: Vec<Consumer>,
}

/// One consumer: which provider it attaches to and how it opened it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Consumer {
    /// The provider id (`<provider ref="0x..."/>`).
    pub provider: String,
    pub mode: Option<Access>,
}

/// GEOM access counts: readers, writers, exclusive holders (g_access(9)). An exclusive
/// count above zero is what makes a second open for writing fail with EPERM.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Access {
    pub r: u32,
    pub w: u32,
    pub e: u32,
}

impl Access {
    /// "r1w1e0" as geom_dump.c prints it ("r%dw%de%d"); None for anything else.
    pub fn parse(s: &str) -> Option<Access> {
        let rest = s.trim().strip_prefix('r')?;
        let (r, rest) = rest.split_once('w')?;
        let (w, e) = rest.split_once('e')?;
        // The kernel's counts are ints; a negative or oversized number is not a count.
        let n = |t: &str| -> Option<u32> {
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            t.parse().ok()
        };
        Some(Access {
            r: n(r)?,
            w: n(w)?,
            e: n(e)?,
        })
    }
    /// Nobody has it open.
    pub fn idle(&self) -> bool {
        self.r == 0 && self.w == 0 && self.e == 0
    }
}

impl std::fmt::Display for Access {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "r{}w{}e{}", self.r, self.w, self.e)
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mesh {
    pub geoms: Vec<Geom>,
}

impl Mesh {
    pub fn geom(&self, class: &str, name: &str) -> Option<&Geom> {
        self.geoms
            .iter()
            .find(|g| g.class == class && g.name == name)
    }
    /// The provider with this id, anywhere in the mesh.
    pub fn provider_by_id(&self, id: &str) -> Option<&Provider> {
        self.geoms
            .iter()
            .flat_map(|g| g.providers.iter())
            .find(|p| p.id == id)
    }
    /// Names of the providers `g` consumes.
    pub fn consumed_names(&self, g: &Geom) -> Vec<String> {
        g.consumes
            .iter()
            .filter_map(|id| self.provider_by_id(id).map(|p| p.name.clone()))
            .collect()
    }
    /// A DISK class provider.
    pub fn disk(&self, name: &str) -> Option<&Provider> {
        self.geom("DISK", name)?
            .providers
            .iter()
            .find(|p| p.name == name)
    }
}

/// Where in the tree the scanner is.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Ctx {
    Class,
    Geom,
    GeomConfig,
    Consumer,
    Provider,
    ProviderConfig,
    Other,
}

pub fn parse(text: &str) -> Mesh {
    let mut mesh = Mesh::default();
    let mut class_name = String::new();
    let mut stack: Vec<Ctx> = Vec::new();
    let mut rest = text;
    let mut last_text = String::new();
    while let Some(lt) = rest.find('<') {
        let before = rest.get(..lt).unwrap_or("");
        let Some(gt_rel) = rest.get(lt..).and_then(|r| r.find('>')) else {
            break;
        };
        let tag = rest.get(lt + 1..lt + gt_rel).unwrap_or("");
        rest = rest.get(lt + gt_rel + 1..).unwrap_or("");
        if let Some(close) = tag.strip_prefix('/') {
            let name = close.trim();
            let value = unescape(before.trim());
            let ctx = stack.last().copied();
            match (name, ctx) {
                ("class" | "geom" | "config" | "consumer" | "provider", _) => {
                    stack.pop();
                }
                (_, Some(Ctx::Class)) if name == "name" => class_name = value,
                (_, Some(Ctx::Geom)) if name == "name" => {
                    if let Some(g) = mesh.geoms.last_mut() {
                        g.name = value;
                    }
                }
                (_, Some(Ctx::GeomConfig)) => {
                    if let Some(g) = mesh.geoms.last_mut() {
                        g.config.insert(name.to_string(), value);
                    }
                }
                (_, Some(Ctx::Provider)) => {
                    if let Some(p) = mesh.geoms.last_mut().and_then(|g| g.providers.last_mut()) {
                        match name {
                            "name" => p.name = value,
                            "mediasize" => p.media_bytes = leading_digits_u64(&value),
                            "sectorsize" => {
                                p.sector_size =
                                    leading_digits_u64(&value).and_then(|n| u32::try_from(n).ok())
                            }
                            "stripesize" => p.stripe_size = leading_digits_u64(&value),
                            "stripeoffset" => p.stripe_offset = leading_digits_u64(&value),
                            "mode" => p.mode = Access::parse(&value),
                            _ => {}
                        }
                    }
                }
                ("mode", Some(Ctx::Consumer)) => {
                    if let Some(c) = mesh.geoms.last_mut().and_then(|g| g.consumers.last_mut()) {
                        c.mode = Access::parse(&value);
                    }
                }
                (_, Some(Ctx::ProviderConfig)) => {
                    if let Some(p) = mesh.geoms.last_mut().and_then(|g| g.providers.last_mut()) {
                        p.config.insert(name.to_string(), value);
                    }
                }
                _ => {}
            }
            last_text.clear();
            continue;
        }
        let self_closing = tag.ends_with('/');
        let tname = tag
            .trim_end_matches('/')
            .split_whitespace()
            .next()
            .unwrap_or("");
        let attr = |a: &str| -> Option<String> {
            let pat = format!("{a}=\"");
            let i = tag.find(&pat)? + pat.len();
            let end = tag.get(i..)?.find('"')?;
            tag.get(i..i + end).map(str::to_string)
        };
        let ctx = stack.last().copied();
        if self_closing {
            // <provider ref="0x..."/> inside a consumer.
            if tname == "provider"
                && ctx == Some(Ctx::Consumer)
                && let (Some(g), Some(r)) = (mesh.geoms.last_mut(), attr("ref"))
            {
                if let Some(c) = g.consumers.last_mut() {
                    c.provider = r.clone();
                }
                g.consumes.push(r);
            }
            continue;
        }
        let next = match (tname, ctx) {
            ("class", None) | ("class", Some(Ctx::Other)) if stack.len() <= 1 => Ctx::Class,
            ("geom", Some(Ctx::Class)) => {
                mesh.geoms.push(Geom {
                    class: class_name.clone(),
                    ..Default::default()
                });
                Ctx::Geom
            }
            ("config", Some(Ctx::Geom)) => Ctx::GeomConfig,
            ("consumer", Some(Ctx::Geom)) => {
                if let Some(g) = mesh.geoms.last_mut() {
                    g.consumers.push(Consumer::default());
                }
                Ctx::Consumer
            }
            ("provider", Some(Ctx::Geom)) => {
                if let Some(g) = mesh.geoms.last_mut() {
                    g.providers.push(Provider {
                        id: attr("id").unwrap_or_default(),
                        ..Default::default()
                    });
                }
                Ctx::Provider
            }
            ("config", Some(Ctx::Provider)) => Ctx::ProviderConfig,
            ("config", Some(Ctx::Consumer)) => Ctx::Other,
            ("mesh", _) => Ctx::Other,
            // Leaf elements (<name>, <mediasize>, ...) are not pushed.
            _ => continue,
        };
        stack.push(next);
    }
    mesh
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

/// kern.geom.confxml (geom(4)): <ident> (serial), <lunid> (WWN), <rawuuid>, <label>.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    live: &[spec::Live::Sysctl("kern.geom.confxml")],
    parse: Some(|t| spec::found(parse(t))),
    secrets: &[
        spec::Secret::XmlTag("ident", spec::SecretKind::Serial),
        spec::Secret::XmlTag("lunid", spec::SecretKind::Wwn),
        spec::Secret::XmlTag("rawuuid", spec::SecretKind::Uuid),
        spec::Secret::XmlTag("label", spec::SecretKind::Label),
    ],
    ..spec::SourceSpec::named("geom-confxml", "sysctl kern.geom.confxml")
};
#[cfg(test)]
mod tests;
