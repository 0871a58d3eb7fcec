//! The Prompter seam: every question the wizard asks goes through it. A dialoguer
//! implementation for terminals, an automatic one for `--yes`, and a scripted one for tests
//! (dialoguer cannot take scripted input).

use std::collections::VecDeque;

/// The user stopped the wizard (Ctrl-C, Esc, end of input).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interrupted;

pub type Answer<T> = Result<T, Interrupted>;

pub trait Prompter {
    /// Print a block of text (already rendered, may contain newlines).
    fn say(&mut self, text: &str);
    fn confirm(&mut self, prompt: &str, default: bool) -> Answer<bool>;
    fn select(&mut self, prompt: &str, items: &[String], default: usize) -> Answer<usize>;
    /// Free text; an empty answer returns `default`.
    fn input(&mut self, prompt: &str, default: &str) -> Answer<String>;
    /// A multi-line paste, ended by an empty line; an empty first line skips (returns "").
    fn paste(&mut self, prompt: &str) -> Answer<String> {
        self.input(prompt, "")
    }
}

/// The answer to a yes/no question typed as a word: only y, yes, n and no (any case);
/// an empty answer is the default; anything else is no answer (ask again).
pub fn yes_no(answer: &str, default: bool) -> Option<bool> {
    match answer.trim().to_ascii_lowercase().as_str() {
        "" => Some(default),
        "y" | "yes" => Some(true),
        "n" | "no" => Some(false),
        _ => None,
    }
}

/// Most lines one paste is read to (a whole `smartctl -x` is about 300).
pub const PASTE_MAX_LINES: usize = 5000;

/// Answers every question with its default (`--yes`); prints to stdout.
pub struct AutoPrompter {
    pub out: Box<dyn std::io::Write>,
}

impl AutoPrompter {
    pub fn stdout() -> AutoPrompter {
        AutoPrompter {
            out: Box::new(std::io::stdout()),
        }
    }
}

impl Prompter for AutoPrompter {
    fn say(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
    }
    fn confirm(&mut self, prompt: &str, default: bool) -> Answer<bool> {
        let _ = writeln!(
            self.out,
            "{prompt} [{}] (--yes)",
            if default { "yes" } else { "no" }
        );
        Ok(default)
    }
    fn select(&mut self, prompt: &str, items: &[String], default: usize) -> Answer<usize> {
        let shown = items.get(default).map(String::as_str).unwrap_or("?");
        let _ = writeln!(self.out, "{prompt} [{shown}] (--yes)");
        Ok(default)
    }
    fn input(&mut self, prompt: &str, default: &str) -> Answer<String> {
        let _ = writeln!(self.out, "{prompt} [{default}] (--yes)");
        Ok(default.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_whole_words_answer_yes_or_no() {
        assert_eq!(yes_no("no", true), Some(false));
        assert_eq!(yes_no(" NO ", true), Some(false));
        assert_eq!(yes_no("n", true), Some(false));
        assert_eq!(yes_no("yes", false), Some(true));
        assert_eq!(yes_no("Y", false), Some(true));
        assert_eq!(yes_no("", false), Some(false));
        assert_eq!(yes_no("", true), Some(true));
        // Letters of a paste are no answer at all.
        for stray in ["1000+0 records in", "bytes", "nope", "yes please", "o"] {
            assert_eq!(yes_no(stray, false), None, "{stray}");
        }
    }
}

/// Interactive prompts on the terminal (dialoguer + console).
pub struct TerminalPrompter {
    theme: Box<dyn dialoguer::theme::Theme>,
    /// Print the conversation on stderr (stdout is kept for --json).
    to_stderr: bool,
}

impl TerminalPrompter {
    pub fn new(colors: bool, to_stderr: bool) -> TerminalPrompter {
        let theme: Box<dyn dialoguer::theme::Theme> = if colors {
            Box::new(dialoguer::theme::ColorfulTheme::default())
        } else {
            Box::new(dialoguer::theme::SimpleTheme)
        };
        TerminalPrompter { theme, to_stderr }
    }
}

fn interrupted<T>(r: dialoguer::Result<Option<T>>) -> Answer<T> {
    match r {
        Ok(Some(v)) => Ok(v),
        // Esc/q (None), Ctrl-C (io::ErrorKind::Interrupted) and a closed terminal all stop.
        Ok(None) | Err(_) => Err(Interrupted),
    }
}

/// Throw away what was typed or pasted ahead of the question, so it cannot answer it.
fn discard_pending() {
    // Not a terminal, or the flush failed: nothing better to do than ask.
    let _ = diskdoc_sys::os::tty::discard_pending_input();
}

impl Prompter for TerminalPrompter {
    fn say(&mut self, text: &str) {
        if self.to_stderr {
            eprintln!("{text}");
        } else {
            crate::outln!("{text}");
        }
    }
    /// A word and Enter: y/yes/n/no only (an empty answer is the default). Never one key:
    /// a key would let a stray letter of a paste answer, and Enter then the next question.
    fn confirm(&mut self, prompt: &str, default: bool) -> Answer<bool> {
        discard_pending();
        let shown = if default { "yes" } else { "no" };
        let r: dialoguer::Result<String> = dialoguer::Input::with_theme(self.theme.as_ref())
            .with_prompt(format!("{prompt} (yes/no)"))
            .default(shown.to_string())
            .show_default(true)
            .validate_with(|a: &String| -> Result<(), &str> {
                yes_no(a, default)
                    .map(|_| ())
                    .ok_or("answer yes or no (y/n), then Enter")
            })
            .interact_text();
        let a = r.map_err(|_| Interrupted)?;
        yes_no(&a, default).ok_or(Interrupted)
    }
    fn select(&mut self, prompt: &str, items: &[String], default: usize) -> Answer<usize> {
        discard_pending();
        interrupted(
            dialoguer::Select::with_theme(self.theme.as_ref())
                .with_prompt(prompt)
                .items(items)
                .default(default)
                .interact_opt(),
        )
    }
    fn input(&mut self, prompt: &str, default: &str) -> Answer<String> {
        discard_pending();
        let r: dialoguer::Result<String> = dialoguer::Input::with_theme(self.theme.as_ref())
            .with_prompt(prompt)
            .default(default.to_string())
            .show_default(!default.is_empty())
            .allow_empty(true)
            .interact_text();
        r.map_err(|_| Interrupted)
    }
    /// Lines until an empty one that no more pasted text follows at once (real tool output
    /// has blank lines of its own: a paste goes on when its next line is already waiting),
    /// read with the terminal's line discipline off so a large paste loses nothing
    /// (diskdoc_sys::os::tty::read_paste).
    fn paste(&mut self, prompt: &str) -> Answer<String> {
        discard_pending();
        eprintln!("{prompt}");
        let mut err = std::io::stderr();
        match diskdoc_sys::os::tty::read_paste(
            &mut err,
            std::time::Duration::from_millis(300),
            PASTE_MAX_LINES,
        ) {
            Ok(diskdoc_sys::os::tty::PasteEnd::Text(t)) => Ok(t),
            Ok(diskdoc_sys::os::tty::PasteEnd::Interrupted) | Err(_) => Err(Interrupted),
        }
    }
}

/// A scripted answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Scripted {
    Yes,
    No,
    /// Pick the item whose text contains this string.
    Pick(String),
    Text(String),
    /// Take the default.
    Default,
    /// Simulate Ctrl-C at this prompt.
    Interrupt,
}

/// Replays a script of answers and keeps a transcript of the whole run for snapshots.
///
/// Answers are either positional (`new`: taken in order) or keyed by a piece of the prompt
/// (`by_prompt`: a prompt takes the first unused answer whose key it contains, else its
/// default), so scripts survive questions that appear only in some runs.
pub struct ScriptedPrompter {
    pub answers: VecDeque<(String, Scripted)>,
    pub transcript: String,
    /// Keyed script: an unmatched prompt takes its default instead of ending the run.
    keyed: bool,
}

impl ScriptedPrompter {
    pub fn new(answers: Vec<Scripted>) -> ScriptedPrompter {
        ScriptedPrompter {
            answers: answers.into_iter().map(|a| (String::new(), a)).collect(),
            transcript: String::new(),
            keyed: false,
        }
    }
    pub fn by_prompt(answers: Vec<(&str, Scripted)>) -> ScriptedPrompter {
        ScriptedPrompter {
            answers: answers
                .into_iter()
                .map(|(k, a)| (k.to_string(), a))
                .collect(),
            transcript: String::new(),
            keyed: true,
        }
    }
    fn next(&mut self, prompt: &str) -> Answer<Scripted> {
        let keyed = self
            .answers
            .iter()
            .position(|(k, _)| !k.is_empty() && prompt.contains(k.as_str()));
        let picked = match keyed {
            Some(i) => self.answers.remove(i).map(|(_, a)| a),
            None if self.keyed => Some(Scripted::Default),
            None => self.answers.pop_front().map(|(_, a)| a),
        };
        match picked {
            Some(Scripted::Interrupt) | None => {
                self.transcript.push_str(&format!("? {prompt} => ^C\n"));
                Err(Interrupted)
            }
            Some(a) => Ok(a),
        }
    }
}
impl Prompter for ScriptedPrompter {
    fn say(&mut self, text: &str) {
        self.transcript.push_str(text);
        self.transcript.push('\n');
    }
    fn confirm(&mut self, prompt: &str, default: bool) -> Answer<bool> {
        let v = match self.next(prompt)? {
            Scripted::Yes => true,
            Scripted::No => false,
            _ => default,
        };
        self.transcript
            .push_str(&format!("? {prompt} => {}\n", if v { "yes" } else { "no" }));
        Ok(v)
    }
    fn select(&mut self, prompt: &str, items: &[String], default: usize) -> Answer<usize> {
        let idx = match self.next(prompt)? {
            Scripted::Pick(s) => items.iter().position(|i| i.contains(&s)).unwrap_or(default),
            _ => default,
        };
        let shown = items.get(idx).map(String::as_str).unwrap_or("?");
        self.transcript
            .push_str(&format!("? {prompt} => {}\n", shown.trim_end()));
        Ok(idx)
    }
    fn input(&mut self, prompt: &str, default: &str) -> Answer<String> {
        let v = match self.next(prompt)? {
            Scripted::Text(t) if !t.is_empty() => t,
            _ => default.to_string(),
        };
        self.transcript.push_str(&format!("? {prompt} => {v}\n"));
        Ok(v)
    }
}
