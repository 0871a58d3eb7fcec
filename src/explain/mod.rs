//! `diskdoc explain`: diagnose from tool outputs pasted into a mail or forum post.
//! Text -> [`segment`] (clean lines) -> [`recognize`] (tool blocks, commands) -> [`bundle`]
//! (an evidence bundle as a live probe would have captured it) -> facts + checks + the
//! benchmark [`critic`].

pub mod recognize;
pub mod segment;
pub mod bundle;
pub mod critic;
