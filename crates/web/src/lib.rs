//! diskdoc in the browser: `explain` (pasted text in) and `replay` (a diskdoc JSON report or
//! evidence bundle in) compiled to WebAssembly for the static page in docs/web. Both call
//! [`diskdoc_core::answer`], the functions `diskdoc explain` and `diskdoc replay` call, so the
//! page gives the binary's answers byte for byte (the argv, the version and the capture time
//! aside): the same redaction on by default, the same final check for leaked secrets, the
//! same input caps. Nothing leaves the page: the module imports nothing from its host.
//!
//! Why plain `extern "C"` exports and not wasm-bindgen: wasm-bindgen's output has to be
//! post-processed by a `wasm-bindgen` command of exactly the crate's version, which CI on a
//! clean Debian 12 machine would have to compile first (`cargo install wasm-bindgen-cli`,
//! about ten minutes on two cores) and keep in step with Cargo.lock. The interface here is
//! two byte buffers in and one out, which needs no generated glue: the page's loader
//! (docs/web/diskdoc.js, fifty lines) writes UTF-8 into the module's memory and reads the
//! answer back. The Rust side stays safe code: buffers are `Vec`s the module owns, their
//! addresses are handed out as numbers, and JavaScript writes into them between calls,
//! while no Rust reference to them is alive.
//!
//! The protocol, for the loader:
//! 1. `diskdoc_set_time(seconds)`: the browser's clock, for the capture time in the bundle
//!    (std has no clock on wasm32-unknown-unknown).
//! 2. `diskdoc_buffer(slot, len)`: the address of a `len`-byte buffer to write into; slot
//!    [`SLOT_INPUT`] is the paste or the file, [`SLOT_LABEL`] its name (UTF-8). 0 when
//!    `len` is over the input cap (the next call answers with the cap's message).
//! 3. `diskdoc_explain(form, redact)` or `diskdoc_replay(form, redact)`: the exit status
//!    the command would have (0 no finding at warning or above, 1 such findings, 2 an error
//!    whose message is the output); forms are numbered as in [`form_of`].
//! 4. `diskdoc_output_ptr()`, `diskdoc_output_len()`: the answer, UTF-8.
#![deny(unsafe_code)]

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use diskdoc_core::answer::{self, AnswerError, DEFAULT_MAX_INPUT_MIB, Form};
use diskdoc_core::explain::Input;

/// The buffer slot of the input (the pasted text or the dropped file).
pub const SLOT_INPUT: u32 = 0;
/// The buffer slot of the input's name (a file name, or "paste").
pub const SLOT_LABEL: u32 = 1;

/// The page's input cap, bytes: the command line's default (`--max-input-mib`); the page
/// has no flag to raise it.
pub const MAX_INPUT_BYTES: u64 = DEFAULT_MAX_INPUT_MIB << 20;

/// The browser's clock, seconds since the Unix epoch (set by `diskdoc_set_time`).
static NOW: AtomicU64 = AtomicU64::new(0);

fn browser_clock() -> u64 {
    NOW.load(Ordering::Relaxed)
}

#[derive(Default)]
struct State {
    input: Vec<u8>,
    label: Vec<u8>,
    /// The length asked for a buffer that went over the cap, until the next answer.
    over_cap: Option<u64>,
    output: Vec<u8>,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

/// The form numbered `n` by the loader: 0 text, 1 Markdown, 2 JSON, 3 Prometheus, 4 the
/// 72-column mail text.
pub fn form_of(n: u32) -> Option<Form> {
    match n {
        0 => Some(Form::Text),
        1 => Some(Form::Markdown),
        2 => Some(Form::Json),
        3 => Some(Form::Prometheus),
        4 => Some(Form::Mail),
        _ => None,
    }
}

/// What the page's report says ran it, for the envelope's `argv`.
fn argv(command: &str, label: &str) -> Vec<String> {
    vec![
        "diskdoc-web".to_string(),
        command.to_string(),
        label.to_string(),
    ]
}

/// An answer as the exit status and the text to show: errors are status 2 with their
/// message, as the command line prints them (`diskdoc: ...`).
fn shown(r: Result<answer::Answer, AnswerError>) -> (i32, String) {
    match r {
        Ok(a) => (a.exit_status, a.output),
        Err(e) => (2, format!("diskdoc: {e}\n")),
    }
}

fn cap_error(label: &str) -> (i32, String) {
    (
        2,
        format!(
            "diskdoc: {}\n",
            answer::over_cap(
                label,
                MAX_INPUT_BYTES,
                "the page reads no more; run diskdoc explain or diskdoc replay on the \
                 command line, where --max-input-mib N raises it"
            )
        ),
    )
}

/// `diskdoc explain` of one input: its exit status and output.
pub fn explain(label: &str, bytes: &[u8], form: Form, redact: bool) -> (i32, String) {
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return cap_error(label);
    }
    let inputs = [Input {
        label: label.to_string(),
        bytes: bytes.to_vec(),
    }];
    shown(answer::explain(
        &inputs,
        form,
        redact,
        argv("explain", label),
    ))
}

/// `diskdoc replay` of one report or bundle: its exit status and output.
pub fn replay(label: &str, bytes: &[u8], form: Form, redact: bool) -> (i32, String) {
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return cap_error(label);
    }
    shown(answer::replay(
        label,
        bytes,
        form,
        redact,
        argv("replay", label),
    ))
}

/// Run `f` on the buffers the loader filled and keep its output for `diskdoc_output_*`.
fn answer_with(form: u32, redact: u32, f: fn(&str, &[u8], Form, bool) -> (i32, String)) -> i32 {
    diskdoc_core::evidence::set_clock(browser_clock);
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        let label = String::from_utf8_lossy(&s.label).into_owned();
        let (code, out) = match (s.over_cap.take(), form_of(form)) {
            (Some(_), _) => cap_error(&label),
            (None, None) => (
                2,
                format!(
                    "diskdoc: unknown output form {form} (0 text, 1 Markdown, 2 JSON, \
                     3 Prometheus, 4 mail)\n"
                ),
            ),
            (None, Some(form)) => f(&label, &s.input, form, redact != 0),
        };
        // The input is not kept past its answer: a large paste is freed at once.
        s.input = Vec::new();
        s.output = out.into_bytes();
        code
    })
}

/// Set the capture time of the next answers (the browser's `Date.now() / 1000`).
#[allow(unsafe_code)]
// SAFETY: no_mangle only fixes the exported name the loader calls; no other item of the
// module exports this name.
#[unsafe(no_mangle)]
pub extern "C" fn diskdoc_set_time(seconds: f64) {
    // `as` saturates: NaN and negative times become 0, "unknown" in the bundle.
    NOW.store(seconds as u64, Ordering::Relaxed);
}

/// The address of a zeroed `len`-byte buffer in `slot` for the loader to write into, or 0
/// when `len` is over the input cap or the slot is unknown.
#[allow(unsafe_code)]
// SAFETY: as for diskdoc_set_time: the attribute fixes the exported name, nothing else.
#[unsafe(no_mangle)]
pub extern "C" fn diskdoc_buffer(slot: u32, len: usize) -> usize {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if len as u64 > MAX_INPUT_BYTES {
            s.over_cap = Some(len as u64);
            s.input = Vec::new();
            return 0;
        }
        let buf = match slot {
            SLOT_INPUT => &mut s.input,
            SLOT_LABEL => &mut s.label,
            _ => return 0,
        };
        // A fresh buffer rather than a resized one: the old input's bytes are not kept.
        *buf = vec![0; len];
        buf.as_mut_ptr() as usize
    })
}

/// `diskdoc explain` of the buffers: the exit status (2: an error, the output says which).
#[allow(unsafe_code)]
// SAFETY: as for diskdoc_set_time: the attribute fixes the exported name, nothing else.
#[unsafe(no_mangle)]
pub extern "C" fn diskdoc_explain(form: u32, redact: u32) -> i32 {
    answer_with(form, redact, explain)
}

/// `diskdoc replay` of the buffers: the exit status (2: an error, the output says which).
#[allow(unsafe_code)]
// SAFETY: as for diskdoc_set_time: the attribute fixes the exported name, nothing else.
#[unsafe(no_mangle)]
pub extern "C" fn diskdoc_replay(form: u32, redact: u32) -> i32 {
    answer_with(form, redact, replay)
}

/// The address of the last answer.
#[allow(unsafe_code)]
// SAFETY: as for diskdoc_set_time: the attribute fixes the exported name, nothing else.
#[unsafe(no_mangle)]
pub extern "C" fn diskdoc_output_ptr() -> usize {
    STATE.with(|s| s.borrow().output.as_ptr() as usize)
}

/// The length of the last answer, bytes.
#[allow(unsafe_code)]
// SAFETY: as for diskdoc_set_time: the attribute fixes the exported name, nothing else.
#[unsafe(no_mangle)]
pub extern "C" fn diskdoc_output_len() -> usize {
    STATE.with(|s| s.borrow().output.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMARTCTL: &str = "smartctl 7.3 2022-02-28 r5338 [x86_64-linux-6.1.0] (local build)\n\
        === START OF INFORMATION SECTION ===\n\
        Device Model:     WDC WD40EFRX-68N32N0\n\
        Serial Number:    WD-WCC7K1234567\n\
        SATA Version is:  SATA 3.0, 6.0 Gb/s (current: 1.5 Gb/s)\n";

    #[test]
    fn explain_answers_like_the_core_and_redacts_by_default() {
        let (code, json) = explain("paste", SMARTCTL.as_bytes(), Form::Json, true);
        assert!(code == 0 || code == 1, "{code}: {json}");
        assert!(json.contains("\"kind\": \"explain\""), "{json}");
        assert!(
            !json.contains("WCC7K1234567"),
            "serial not redacted: {json}"
        );
        let (_, raw) = explain("paste", SMARTCTL.as_bytes(), Form::Json, false);
        assert!(raw.contains("WCC7K1234567"));
        let (_, text) = explain("paste", SMARTCTL.as_bytes(), Form::Text, true);
        assert!(text.contains("sata-link-below-max"), "{text}");
        assert!(!text.contains("WCC7K1234567"), "{text}");
        let (_, mail) = explain("paste", SMARTCTL.as_bytes(), Form::Mail, true);
        assert!(mail.contains("sata-link-below-max"), "{mail}");
        assert!(!mail.contains("WCC7K1234567"), "{mail}");
        assert!(
            mail.lines().all(|l| l.len() <= 72 && l.is_ascii()),
            "{mail}"
        );
    }

    #[test]
    fn the_page_never_asks_for_the_html_report() {
        // The web build leaves diskdoc-core's `html` feature off (Cargo.toml): no form number
        // the loader can pass reaches the HTML report, so leaving it out changes no answer.
        for n in 0..=u8::MAX as u32 {
            assert_ne!(form_of(n), Some(Form::Html), "form {n}");
        }
        assert_eq!(form_of(4), Some(Form::Mail));
    }

    #[test]
    fn replay_reads_what_explain_wrote_and_errors_are_status_2() {
        let (_, json) = explain("paste", SMARTCTL.as_bytes(), Form::Json, true);
        let (code, again) = replay("report.json", json.as_bytes(), Form::Json, true);
        assert!(code == 0 || code == 1, "{again}");
        assert!(again.contains("\"kind\": \"replay\""), "{again}");
        let (code, msg) = replay("report.json", &json.as_bytes()[..100], Form::Json, true);
        assert_eq!(code, 2);
        assert!(msg.contains("report.json is truncated"), "{msg}");
        let (code, msg) = explain("paste", b"", Form::Text, true);
        assert_eq!(code, 2);
        assert!(msg.starts_with("diskdoc: "), "{msg}");
    }

    #[test]
    fn the_buffer_protocol_round_trips_and_caps_the_input() {
        let text = SMARTCTL.as_bytes();
        assert_ne!(diskdoc_buffer(SLOT_INPUT, text.len()), 0);
        assert_ne!(diskdoc_buffer(SLOT_LABEL, 5), 0);
        STATE.with(|s| {
            let mut s = s.borrow_mut();
            s.input.copy_from_slice(text);
            s.label.copy_from_slice(b"paste");
        });
        diskdoc_set_time(1_700_000_000.5);
        let code = diskdoc_explain(2, 1);
        assert!(code == 0 || code == 1);
        let out = STATE.with(|s| String::from_utf8(s.borrow().output.clone()).unwrap());
        assert_eq!(diskdoc_output_len(), out.len());
        assert!(out.contains("\"label\": \"paste\""), "{out}");
        assert_eq!(diskdoc_explain(9, 1), 2);
        // Over the cap: no buffer, and the next answer says so with the cap in MiB.
        assert_eq!(
            diskdoc_buffer(SLOT_INPUT, (MAX_INPUT_BYTES + 1) as usize),
            0
        );
        assert_eq!(diskdoc_explain(0, 1), 2);
        let out = STATE.with(|s| String::from_utf8(s.borrow().output.clone()).unwrap());
        assert!(out.contains("at most 64 MiB"), "{out}");
        assert_eq!(diskdoc_buffer(7, 1), 0);
    }
}
