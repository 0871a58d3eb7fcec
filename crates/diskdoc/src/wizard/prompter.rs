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
    /// A yes/no consent question. `default`: what an empty answer means; None for a
    /// question whose yes writes (a blank line, typed or stray, is then no answer and the
    /// question is asked again).
    fn confirm(&mut self, prompt: &str, default: Option<bool>) -> Answer<bool>;
    fn select(&mut self, prompt: &str, items: &[String], default: usize) -> Answer<usize>;
    /// Free text; an empty answer returns `default`.
    fn input(&mut self, prompt: &str, default: &str) -> Answer<String>;
    /// A multi-line paste, ended by an empty line; an empty first line skips (returns "").
    fn paste(&mut self, prompt: &str) -> Answer<String> {
        self.input(prompt, "")
    }
}

/// The answer to a yes/no question typed as a word: only y, yes, n and no (any case);
/// an empty answer is the default (no answer when there is none); anything else is no
/// answer (ask again).
pub fn yes_no(answer: &str, default: Option<bool>) -> Option<bool> {
    match answer.trim().to_ascii_lowercase().as_str() {
        "" => default,
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
    /// --yes takes the default; a question without one (its yes writes) is a no.
    fn confirm(&mut self, prompt: &str, default: Option<bool>) -> Answer<bool> {
        let v = default.unwrap_or(false);
        let _ = writeln!(
            self.out,
            "{prompt} [{}] (--yes)",
            if v { "yes" } else { "no" }
        );
        Ok(v)
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
        assert_eq!(yes_no("no", Some(true)), Some(false));
        assert_eq!(yes_no(" NO ", Some(true)), Some(false));
        assert_eq!(yes_no("n", Some(true)), Some(false));
        assert_eq!(yes_no("yes", Some(false)), Some(true));
        assert_eq!(yes_no("Y", Some(false)), Some(true));
        assert_eq!(yes_no("", Some(false)), Some(false));
        assert_eq!(yes_no("", Some(true)), Some(true));
        // A question whose yes writes has no default: a blank line is no answer.
        assert_eq!(yes_no("", None), None);
        assert_eq!(yes_no("  ", None), None);
        assert_eq!(yes_no("yes", None), Some(true));
        assert_eq!(yes_no("no", None), Some(false));
        // Letters of a paste are no answer at all.
        for stray in ["1000+0 records in", "bytes", "nope", "yes please", "o"] {
            assert_eq!(yes_no(stray, Some(false)), None, "{stray}");
        }
    }
}

/// Interactive prompts on the terminal (dialoguer + console).
pub struct TerminalPrompter {
    theme: Box<dyn dialoguer::theme::Theme>,
    /// Print the conversation on stderr (stdout is kept for --json).
    to_stderr: bool,
    /// Standard output is a file or pipe (`diskdoc | tee log`): the questions are drawn on
    /// the terminal (stderr) only, so each answered one is also written to stdout, and a
    /// posted log shows what the user chose.
    echo_answers: bool,
}

impl TerminalPrompter {
    pub fn new(colors: bool, to_stderr: bool) -> TerminalPrompter {
        let theme: Box<dyn dialoguer::theme::Theme> = if colors {
            Box::new(dialoguer::theme::ColorfulTheme::default())
        } else {
            Box::new(dialoguer::theme::SimpleTheme)
        };
        use std::io::IsTerminal;
        TerminalPrompter {
            theme,
            to_stderr,
            echo_answers: !to_stderr && !std::io::stdout().is_terminal(),
        }
    }

    /// The answered question, as one line on stdout, when stdout is not the terminal.
    fn echo(&self, prompt: &str, answer: &str) {
        if self.echo_answers {
            let answer = if answer.trim().is_empty() {
                "(nothing)"
            } else {
                answer
            };
            crate::outln!("> {prompt} {answer}");
        }
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

/// How many terminal rows `text` takes on a terminal `width` columns wide (a line wider
/// than the terminal wraps; colour codes take no room).
fn screen_rows(text: &str, width: u16) -> usize {
    let width = usize::from(width.max(1));
    text.split('\n')
        .map(|l| console::measure_text_width(l).div_ceil(width).max(1))
        .sum()
}

impl Prompter for TerminalPrompter {
    fn say(&mut self, text: &str) {
        if self.to_stderr {
            eprintln!("{text}");
        } else {
            crate::outln!("{text}");
        }
    }
    /// A word typed after the question, and Enter: y/yes/n/no only (an empty answer is the
    /// default, where there is one). Never one key: a key would let a stray letter of a
    /// paste answer, and Enter then the next question. Read by diskdoc_sys::os::tty::
    /// AnswerReader, which throws away what was pending when the question appeared and any
    /// paste (bracketed, or a burst of lines); after a refused answer the question is asked
    /// again, and what arrived meanwhile is thrown away too.
    fn confirm(&mut self, prompt: &str, default: Option<bool>) -> Answer<bool> {
        use diskdoc_sys::os::tty::{AnswerReader, Typed};
        let term = console::Term::stderr();
        // Before the question shows: from then on every paste is bracketed.
        let mut reader = AnswerReader::open(false).map_err(|_| Interrupted)?;
        let question = format!("{prompt} (yes/no)");
        let shown = default.map(|d| if d { "yes" } else { "no" });
        let mut error: Option<&str> = None;
        loop {
            let mut block = String::new();
            if let Some(e) = error {
                let _ = self.theme.format_error(&mut block, e);
                block.push('\n');
            }
            let _ = self.theme.format_input_prompt(&mut block, &question, shown);
            reader.discard_pending().map_err(|_| Interrupted)?;
            let _ = term.write_str(&block);
            let _ = term.flush();
            let mut echo = std::io::stderr();
            let typed = reader.read(&mut echo).map_err(|_| Interrupted)?;
            let answered = match &typed {
                Typed::Line(l) => l.as_str(),
                Typed::Pasted => "",
                Typed::Interrupted | Typed::Closed => return Err(Interrupted),
            };
            // The question (with the error above it and the typed answer) gives way to
            // the answered form, as dialoguer draws it.
            let drawn = format!("{block}{answered}");
            let _ = term.clear_line();
            let _ = term.clear_last_lines(screen_rows(&drawn, term.size().1).saturating_sub(1));
            error = Some(match (&typed, yes_no(answered, default)) {
                (Typed::Line(_), Some(v)) => {
                    let mut done = String::new();
                    let shown = if v { "yes" } else { "no" };
                    let _ = self
                        .theme
                        .format_input_prompt_selection(&mut done, &question, shown);
                    let _ = term.write_line(&done);
                    self.echo(&question, shown);
                    return Ok(v);
                }
                (Typed::Pasted, _) => "a paste is no answer: type yes or no, then Enter",
                _ if answered.trim().is_empty() => {
                    "this question has no default: type yes or no, then Enter"
                }
                _ => "answer yes or no (y/n), then Enter",
            });
        }
    }
    fn select(&mut self, prompt: &str, items: &[String], default: usize) -> Answer<usize> {
        discard_pending();
        let i = interrupted(
            dialoguer::Select::with_theme(self.theme.as_ref())
                .with_prompt(prompt)
                .items(items)
                .default(default)
                .interact_opt(),
        )?;
        self.echo(prompt, items.get(i).map(String::as_str).unwrap_or(""));
        Ok(i)
    }
    fn input(&mut self, prompt: &str, default: &str) -> Answer<String> {
        discard_pending();
        let r: dialoguer::Result<String> = dialoguer::Input::with_theme(self.theme.as_ref())
            .with_prompt(prompt)
            .default(default.to_string())
            .show_default(!default.is_empty())
            .allow_empty(true)
            .interact_text();
        let answer = r.map_err(|_| Interrupted)?;
        self.echo(prompt, &answer);
        Ok(answer)
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
            Ok(diskdoc_sys::os::tty::PasteEnd::Text(t)) => {
                let lines = t.lines().count();
                self.echo(
                    prompt.lines().next().unwrap_or(prompt),
                    &format!("({lines} pasted line(s))"),
                );
                Ok(t)
            }
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
    /// A default (or an unscripted prompt) at a question without one is a blank line: no
    /// answer, so the question is asked again, as on a terminal; a keyed script then needs
    /// an answer for it, or the run stops there.
    fn confirm(&mut self, prompt: &str, default: Option<bool>) -> Answer<bool> {
        let v = loop {
            match (self.next(prompt)?, default) {
                (Scripted::Yes, _) => break true,
                (Scripted::No, _) => break false,
                (_, Some(d)) => break d,
                (_, None) => {
                    self.transcript
                        .push_str(&format!("? {prompt} => (blank: no answer, asked again)\n"));
                    if self.keyed
                        && !self
                            .answers
                            .iter()
                            .any(|(k, _)| prompt.contains(k.as_str()))
                    {
                        self.transcript.push_str(&format!("? {prompt} => ^C\n"));
                        return Err(Interrupted);
                    }
                }
            }
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
