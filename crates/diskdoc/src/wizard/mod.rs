//! The guided wizard: welcome, symptoms, pick a disk, inspect, test, answer, save.
//!
//! All questions go through a [`Prompter`], all machine access through a [`Machine`], so a
//! whole run can be replayed from a script and snapshot-tested (tests/wizard.rs).

pub mod machine;
pub mod prompter;
pub mod render;
pub mod reports;
pub mod sanitize;
pub mod symptoms;

use std::path::PathBuf;

use diskdoc_core::checks::{self, Finding, Verdict};
use diskdoc_core::evidence::EvidenceBundle;
use diskdoc_core::facts::{self, DiskFacts, SystemFacts};
pub use machine::{LiveMachine, Machine, TestGroup};
pub use prompter::{
    AutoPrompter, Interrupted, Prompter, Scripted, ScriptedPrompter, TerminalPrompter,
};

/// Flags that shape a run.
#[derive(Debug, Clone, Default)]
pub struct Config {
    pub device: Option<String>,
    pub yes: bool,
    pub no_bench: bool,
    pub quick: bool,
    pub report: Option<PathBuf>,
    pub json: bool,
    pub redact: bool,
    /// Plain ASCII output (non-UTF-8 terminal).
    pub ascii: bool,
}

/// What a run ended with.
#[derive(Debug)]
pub struct Outcome {
    /// 0 no finding at warning or above, 1 such findings, 2 error, 130 interrupted.
    pub exit_code: i32,
    pub findings: Vec<Finding>,
    /// The evidence (with benchmark results) the answer was based on.
    pub bundle: Option<EvidenceBundle>,
    /// Files written (reports).
    pub saved: Vec<PathBuf>,
}

/// Steps, for "stopped at step N" messages.
const STEPS: [&str; 7] = [
    "welcome",
    "symptoms",
    "pick the disk",
    "inspect",
    "tests",
    "answer",
    "save",
];

struct Run<'a> {
    cfg: &'a Config,
    p: &'a mut dyn Prompter,
    m: &'a mut dyn Machine,
    done: Vec<String>,
    saved: Vec<PathBuf>,
}

/// Run the wizard to the end (or until the user stops it).
pub fn run(cfg: &Config, p: &mut dyn Prompter, m: &mut dyn Machine) -> Outcome {
    let mut r = Run {
        cfg,
        p,
        m,
        done: Vec::new(),
        saved: Vec::new(),
    };
    match r.flow() {
        Ok(o) => o,
        Err((step, Interrupted)) => {
            let what = if r.done.is_empty() {
                "nothing yet".to_string()
            } else {
                r.done.join("; ")
            };
            r.p.say(&format!(
                "\nStopped at step {} ({}). Done so far: {what}. Nothing was left behind{}.",
                step + 1,
                STEPS[step],
                if r.saved.is_empty() {
                    ": no file was written"
                } else {
                    " except the reports you saved"
                }
            ));
            Outcome {
                exit_code: 130,
                findings: Vec::new(),
                bundle: None,
                saved: r.saved,
            }
        }
    }
}

type Step<T> = Result<T, (usize, Interrupted)>;

fn at<T>(step: usize, a: prompter::Answer<T>) -> Step<T> {
    a.map_err(|e| (step, e))
}

impl Run<'_> {
    /// Ask, or under --yes take the default and say so (so a --yes run never blocks).
    fn select(
        &mut self,
        step: usize,
        prompt: &str,
        items: &[String],
        default: usize,
    ) -> Step<usize> {
        if self.cfg.yes {
            let shown = items.get(default).map(String::as_str).unwrap_or("?");
            self.p
                .say(&format!("{prompt} {} (--yes)", shown.trim_end()));
            return Ok(default);
        }
        at(step, self.p.select(prompt, items, default))
    }
    fn confirm(&mut self, step: usize, prompt: &str, default: bool) -> Step<bool> {
        if self.cfg.yes {
            self.p.say(&format!(
                "{prompt} {} (--yes)",
                if default { "yes" } else { "no" }
            ));
            return Ok(default);
        }
        at(step, self.p.confirm(prompt, default))
    }
    fn input(&mut self, step: usize, prompt: &str, default: &str) -> Step<String> {
        if self.cfg.yes {
            self.p.say(&format!("{prompt} {default} (--yes)"));
            return Ok(default.to_string());
        }
        at(step, self.p.input(prompt, default))
    }

    fn flow(&mut self) -> Step<Outcome> {
        // 1. Welcome
        let root = self.m.is_root();
        self.p.say(&render::welcome(root, self.m.platform()));
        if diskdoc_sys::interrupt::requested() {
            return Err((0, Interrupted));
        }

        // 2. Symptoms
        let symptom_items: Vec<String> = symptoms::SYMPTOMS.iter().map(|s| s.to_string()).collect();
        let symptom = self.select(
            1,
            "What feels slow?",
            &symptom_items,
            symptom_items.len() - 1,
        )?;
        let pasted = self.input(
            1,
            "Paste a command you ran and its result, e.g. `dd if=/dev/zero of=/tmp/foo \
             bs=10M count=1000` ... 75 MB/s (Enter to skip)",
            "",
        )?;
        let user_benchmarks = symptoms::parse_pasted(&pasted);
        if !pasted.trim().is_empty() {
            self.p
                .say(&render::pasted_summary(&user_benchmarks, self.cfg.ascii));
        }
        self.done
            .push(format!("symptom: {}", symptoms::SYMPTOMS[symptom]));

        // 3. Pick the disk
        // With --device only that disk and its stack are captured (issue 15); an unknown
        // name is answered with the disks there are, so then probe them all.
        let mut bundle = self.m.probe(self.cfg.device.as_deref());
        if self.cfg.device.is_some() && render::candidate_disks(&facts::derive(&bundle)).is_empty()
        {
            bundle = self.m.probe(None);
        }
        let mut sys = facts::derive(&bundle);
        sys.user_benchmarks = user_benchmarks.clone();
        let candidates = render::candidate_disks(&sys);
        if candidates.is_empty() {
            self.p.say("diskdoc found no block devices to look at. Run as root, or check that /sys is mounted.");
            return Ok(Outcome {
                exit_code: 2,
                findings: Vec::new(),
                bundle: Some(bundle),
                saved: Vec::new(),
            });
        }
        let default = self.default_disk(&sys, &candidates);
        let disk_name = match (&self.cfg.device, default) {
            (Some(_), Some(i)) => candidates[i].clone(),
            (Some(dev), None) => {
                self.p.say(&format!(
                    "No disk matches --device {dev:?}. Known disks: {}.",
                    candidates.join(", ")
                ));
                return Ok(Outcome {
                    exit_code: 2,
                    findings: Vec::new(),
                    bundle: Some(bundle),
                    saved: Vec::new(),
                });
            }
            (None, default) => {
                // A --yes run prints a transcript people paste: its disk list (mount points
                // under homes) is redacted like a report. An interactive chooser is not.
                let shown = if self.cfg.redact && self.cfg.yes {
                    diskdoc_core::report::redact::redact_facts(&bundle, &sys, &sys)
                        .unwrap_or_else(|| SystemFacts::empty(sys.platform))
                } else {
                    sys.clone()
                };
                self.p
                    .say(&render::disk_table(&shown, &candidates, self.cfg.ascii));
                let items: Vec<String> = candidates
                    .iter()
                    .map(|n| render::disk_line(&shown, n, self.cfg.ascii))
                    .collect();
                let idx = self.select(2, "Which disk?", &items, default.unwrap_or(0))?;
                candidates
                    .get(idx)
                    .cloned()
                    .unwrap_or_else(|| candidates[0].clone())
            }
        };
        let Some(disk) = sys.disk(&disk_name).cloned() else {
            self.p.say(&format!(
                "The disk {disk_name} vanished between steps; run diskdoc again."
            ));
            return Ok(Outcome {
                exit_code: 2,
                findings: Vec::new(),
                bundle: Some(bundle),
                saved: Vec::new(),
            });
        };
        self.done.push(format!("disk {}", disk.name));

        // 4. Inspect
        self.p.say(&format!("\nInspecting {} ...", disk.dev_path));
        let mut findings = self.disk_findings(&sys, &disk.name);
        // Step by step in the registry's order (controller first), not by rank.
        findings.sort_by_key(|f| {
            checks::CHECKS
                .iter()
                .position(|c| c.id() == f.check)
                .unwrap_or(usize::MAX)
        });
        for f in &findings {
            self.p.say(&render::verdict_line(f, self.cfg.ascii));
        }
        if findings.is_empty() {
            let class = disk.class.get().map(|c| c.label()).unwrap_or("unknown");
            self.p.say(&format!(
                "  No hardware check applies to a {class} device: it has no controller, link \
                 or drive of its own. The tests below still measure it."
            ));
        }
        let problems: Vec<&Finding> = findings.iter().filter(|f| f.is_problem()).collect();
        if !problems.is_empty() && !self.cfg.yes {
            let why = self.confirm(3, "Show the why and the evidence for the problems?", false)?;
            if why {
                for f in &problems {
                    self.p.say(&render::finding_detail(f, self.cfg.ascii));
                }
            }
        }
        self.done.push("inspection (read-only)".into());

        // 5. Tests
        if !self.cfg.no_bench {
            let groups = self.m.test_groups(&sys, &disk, self.cfg.quick);
            for g in &groups {
                let prompt = render::test_prompt(g);
                // --yes accepts read-only tests only; writes always need an explicit yes.
                let default = g.read_only;
                let go = if self.cfg.yes {
                    self.p.say(&format!(
                        "{prompt} {}",
                        if default {
                            "yes (--yes)"
                        } else {
                            "skipped: --yes never writes"
                        }
                    ));
                    default
                } else {
                    self.confirm(4, &prompt, default)?
                };
                if !go {
                    self.done.push(format!("skipped the {} tests", g.id));
                    continue;
                }
                match self.m.run_group(&sys, &disk, g, self.cfg.quick) {
                    Ok(results) => {
                        self.p.say(&render::results_table(&results));
                        self.done
                            .push(format!("{} tests ({} results)", g.id, results.len()));
                        bundle.benchmarks.extend(results);
                    }
                    Err(msg) => {
                        self.p
                            .say(&format!("The {} tests did not run: {msg}", g.id));
                        self.done.push(format!("{} tests failed to run", g.id));
                    }
                }
                if diskdoc_sys::interrupt::requested() {
                    diskdoc_sys::interrupt::clear();
                    return Err((4, Interrupted));
                }
            }
            sys = facts::derive(&bundle);
            sys.user_benchmarks = user_benchmarks;
        }

        // 6. Answer
        let findings = self.disk_findings(&sys, &disk.name);
        self.p
            .say(&render::answer(&sys, &disk, &findings, self.cfg.ascii));
        let exit_code = checks::exit_code(&findings);

        // 7. Save
        let default_path = self
            .cfg
            .report
            .clone()
            .unwrap_or_else(|| self.m.cwd().join(format!("diskdoc-{}.txt", disk.name)));
        let save = if self.cfg.report.is_some() {
            true
        } else if self.cfg.yes {
            false
        } else {
            let q = format!(
                "Save the report (text for a mailing list, plus JSON) as {}?",
                default_path.display()
            );
            self.confirm(6, &q, true)?
        };
        if save {
            let path = if self.cfg.report.is_some() || self.cfg.yes {
                default_path
            } else {
                let shown = default_path.display().to_string();
                PathBuf::from(self.input(6, "Report file", &shown)?)
            };
            self.save_reports(&path, &disk.name, &bundle, &sys, &findings);
        }
        Ok(Outcome {
            exit_code,
            findings,
            bundle: Some(bundle),
            saved: std::mem::take(&mut self.saved),
        })
    }

    /// --device (name, /dev path or a path on a filesystem), else the disk holding the
    /// current directory, else the first real disk.
    fn default_disk(&self, sys: &SystemFacts, candidates: &[String]) -> Option<usize> {
        if let Some(dev) = &self.cfg.device {
            let name = dev.trim_start_matches("/dev/");
            if let Some(i) = candidates.iter().position(|c| c == name) {
                return Some(i);
            }
            if let Some(d) = render::disk_holding(sys, std::path::Path::new(dev)) {
                return candidates.iter().position(|c| *c == d);
            }
            return None;
        }
        let cwd = self.m.cwd();
        render::disk_holding(sys, &cwd)
            .and_then(|d| candidates.iter().position(|c| *c == d))
            .or(Some(0))
    }

    fn disk_findings(&self, sys: &SystemFacts, disk: &str) -> Vec<Finding> {
        let mut one = sys.clone();
        one.disks.retain(|d| d.name == disk);
        checks::run_all(&one)
            .into_iter()
            .filter(|f| {
                f.device == disk
                    || f.device == "system"
                    || f.verdict == Verdict::Problem && f.device.is_empty()
            })
            .collect()
    }

    fn save_reports(
        &mut self,
        path: &std::path::Path,
        disk: &str,
        bundle: &EvidenceBundle,
        sys: &SystemFacts,
        findings: &[Finding],
    ) {
        let json_path = path.with_extension("json");
        // The report is about the chosen disk: keep only its facts, so that
        // `diskdoc replay --device` on the JSON reproduces what was saved.
        let mut one = sys.clone();
        one.disks.retain(|d| d.name == disk);
        let (text, json) = reports::reports(bundle, &one, findings, self.cfg.redact);
        for (p, body) in [(path.to_path_buf(), text), (json_path, json)] {
            match self.m.save(&p, &body) {
                Ok(()) => {
                    self.p.say(&format!("Saved {}", p.display()));
                    self.saved.push(p);
                }
                Err(e) => self.p.say(&format!(
                    "Could not save {}: {e}. Choose another path with --report PATH.",
                    p.display()
                )),
            }
        }
        if self.cfg.redact {
            self.p
                .say("Serial numbers, WWNs, host and user names, labels and UUIDs are redacted; --no-redact keeps them.");
        }
    }
}

/// Whether the wizard may run: it needs a terminal unless --yes.
pub fn check_interactive(cfg: &Config, stdin_is_tty: bool) -> Result<(), String> {
    if stdin_is_tty || cfg.yes {
        Ok(())
    } else {
        Err(
            "the wizard needs a terminal to ask questions. Run it non-interactively with \
             --yes (accept safe defaults; never writes), and choose with --device DEV, \
             --no-bench, --quick, --report PATH, --json"
                .to_string(),
        )
    }
}

/// Facts for a disk, for callers outside the wizard.
pub fn disk<'a>(sys: &'a SystemFacts, name: &str) -> Option<&'a DiskFacts> {
    sys.disk(name)
}
