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
    /// How many columns wide the screen the text is drawn on is, asked again at each call
    /// (a terminal may be resized); None when the text is not laid out for a screen (a
    /// log, a transcript): it is then laid out for 80 columns.
    fn columns(&self) -> Option<u16> {
        None
    }
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

    /// The newcomer's write question at 80 and 100 columns: no line of it is wider than
    /// the terminal with the theme's marks and an answer, and no word is split.
    #[test]
    fn questions_break_between_words_to_fit_the_terminal() {
        let q = "Write tests: sequential and 4 KiB synchronous writes to a scratch file -- \
                 WRITES a scratch file of up to 38 MiB (10 % of the 380.5 MiB free) under \
                 /mnt/scratch (removed afterwards), about 10 s. Run them? (yes/no)";
        for cols in [80u16, 100] {
            let fitted = super::fit_question(q, cols);
            for l in fitted.lines() {
                assert!(
                    l.chars().count() + super::QUESTION_MARGIN <= usize::from(cols),
                    "{cols}: {l:?}"
                );
            }
            let words: Vec<&str> = fitted.split_whitespace().collect();
            assert_eq!(words, q.split_whitespace().collect::<Vec<_>>(), "{cols}");
        }
    }

    /// The newcomer's 40-column terminal: the wizard's 72-column intro and a disk menu row
    /// (column-padded) come out at most 39 columns wide, broken between words only, with
    /// every word kept; lines that fit stay as they are, and a menu whose rows fit is left
    /// alone.
    #[test]
    fn text_and_menus_fit_a_40_column_terminal() {
        let intro = crate::wizard::render::welcome(true, diskdoc_core::evidence::Platform::Linux);
        let fitted = super::fit_lines(&intro, 40);
        for l in fitted.lines() {
            assert!(l.chars().count() <= 39, "{l:?}");
        }
        assert_eq!(
            fitted.split_whitespace().collect::<Vec<_>>(),
            intro.split_whitespace().collect::<Vec<_>>()
        );
        assert_eq!(super::fit_lines(&intro, 120), intro);
        let table = "  label  bs   qd\n  -----  ---  --";
        assert_eq!(super::fit_lines(table, 40), table);
        let row = "loop9     256.0 MiB  loop (file-backed)  ext4 at /var/tmp/nc2/mnt".to_string();
        let menu = super::menu_rows(&[row.clone(), "vda  250 GiB".into()], 40).expect("narrow");
        assert!(menu.iter().all(|r| r.chars().count() <= 36), "{menu:?}");
        assert!(menu[0].starts_with("loop9 256.0 MiB"), "{menu:?}");
        assert_eq!(menu[1], "vda 250 GiB");
        assert!(super::menu_rows(&[row], 120).is_none());
    }

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
            // A closed pipe is remembered (crate::out::closed) and ends the run with 141.
            let _ = crate::outln!("> {prompt} {answer}");
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

/// Columns a question's own lines may take on a terminal `cols` wide: room for the theme's
/// marks ("? ", " [yes]: ", " · ") and a typed answer after the last line.
const QUESTION_MARGIN: usize = 16;

/// `question` broken at spaces into lines that fit a terminal `cols` wide (its own line
/// breaks kept).
fn fit_question(question: &str, cols: u16) -> String {
    let width = usize::from(cols).saturating_sub(QUESTION_MARGIN).max(24);
    question
        .split('\n')
        .flat_map(|l| diskdoc_core::units::wrap_words(l, "", 0, width, true))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `text` with each line wider than a terminal `cols` wide broken between words (its
/// continuation indented under the line's own text), so the terminal never breaks a word;
/// a line that fits is kept as it is (tables keep their columns where they fit). The
/// wizard's prose is laid out for 80 columns; a 40-column terminal broke it mid-word.
fn fit_lines(text: &str, cols: u16) -> String {
    let width = usize::from(cols).saturating_sub(1).max(20);
    text.split('\n')
        .flat_map(|l| {
            if console::measure_text_width(l) <= width {
                return vec![l.to_string()];
            }
            // Prose (no indent) goes on at the margin; an indented line (a finding's
            // explanation, a table row) hangs two columns in, under its own text.
            let indent = l.len() - l.trim_start().len();
            let hang = if indent == 0 { 0 } else { indent + 2 };
            let first = " ".repeat(indent);
            diskdoc_core::units::wrap_words(
                l.trim_start(),
                &first,
                hang.min(width / 2),
                width,
                true,
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The rows of a menu as a terminal `cols` wide can draw them, each on one line: as they
/// are when all fit, else their first words (the whole rows are then printed before the
/// menu, see [`TerminalPrompter::select`]). dialoguer draws a wider row over two lines and
/// then miscounts the lines it redraws.
fn menu_rows(items: &[String], cols: u16) -> Option<Vec<String>> {
    // The theme's mark before a row ("> ", "❯ ") and a column to spare.
    let room = usize::from(cols).saturating_sub(4).max(16);
    if items.iter().all(|i| console::measure_text_width(i) <= room) {
        return None;
    }
    Some(
        items
            .iter()
            .map(|i| {
                diskdoc_core::units::wrap_words(i, "", 0, room, true)
                    .into_iter()
                    .next()
                    .unwrap_or_default()
            })
            .collect(),
    )
}

impl Prompter for TerminalPrompter {
    fn columns(&self) -> Option<u16> {
        let term = if self.to_stderr {
            console::Term::stderr()
        } else if self.echo_answers {
            // A log (`diskdoc | tee log`): laid out for 80 columns, as `say` does.
            return None;
        } else {
            console::Term::stdout()
        };
        term.size_checked().map(|(_, cols)| cols)
    }
    fn say(&mut self, text: &str) {
        if self.to_stderr {
            eprintln!("{}", fit_lines(text, console::Term::stderr().size().1));
        } else if self.echo_answers {
            // A log (`diskdoc | tee log`): the text as laid out, not for this terminal. A
            // closed pipe is remembered (crate::out::closed) and ends the run with 141.
            let _ = crate::outln!("{text}");
        } else {
            let _ = crate::outln!("{}", fit_lines(text, console::Term::stdout().size().1));
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
        let flat = format!("{prompt} (yes/no)");
        // Broken between words to fit the terminal, never by the terminal mid-word: the
        // rows drawn are then the rows counted, and a redraw clears them all.
        let question = fit_question(&flat, term.size().1);
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
                    self.echo(&flat, shown);
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
        let cols = console::Term::stderr().size().1;
        let narrow = menu_rows(items, cols);
        if narrow.is_some() {
            // The whole rows, numbered and broken between words, above a menu of their
            // first words.
            let width = usize::from(cols).saturating_sub(1).max(20);
            for (n, item) in items.iter().enumerate() {
                let head = format!("{}. ", n + 1);
                let rows = diskdoc_core::units::wrap_words(item, &head, head.len(), width, true);
                self.say(&rows.join("\n"));
            }
        }
        let rows = narrow.as_deref().unwrap_or(items);
        discard_pending();
        let i = interrupted(
            dialoguer::Select::with_theme(self.theme.as_ref())
                .with_prompt(prompt)
                .items(rows)
                .default(default)
                .report(false)
                .interact_opt(),
        )?;
        // The answered form is drawn here, the item's column padding collapsed and broken
        // between words: dialoguer's own line (prompt + an 80-column menu row) wrapped
        // mid-word at 80 columns.
        let chosen = items
            .get(i)
            .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_default();
        let mut done = String::new();
        let _ = self
            .theme
            .format_select_prompt_selection(&mut done, prompt, &chosen);
        let term = console::Term::stderr();
        let width = usize::from(term.size().1).saturating_sub(1).max(24);
        let _ =
            term.write_line(&diskdoc_core::units::wrap_words(&done, "", 2, width, true).join("\n"));
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
        eprintln!("{}", fit_lines(prompt, console::Term::stderr().size().1));
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
    /// The terminal width the script plays on (None: no terminal, 80-column layout).
    pub columns: Option<u16>,
}

impl ScriptedPrompter {
    pub fn new(answers: Vec<Scripted>) -> ScriptedPrompter {
        ScriptedPrompter {
            answers: answers.into_iter().map(|a| (String::new(), a)).collect(),
            transcript: String::new(),
            keyed: false,
            columns: None,
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
            columns: None,
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
    fn columns(&self) -> Option<u16> {
        self.columns
    }
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
