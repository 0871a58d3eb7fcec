//! A command run in a pseudo-terminal through script(1), driven as a person would: wait for
//! a question on the screen, type keys one at a time, and end it. Every wait has a bound, so
//! a run that never asks, or waits for an answer it never gets, fails its test instead of
//! hanging the suite.

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub struct Pty {
    child: Child,
    stdin: Option<ChildStdin>,
    seen: Arc<Mutex<(Vec<u8>, bool)>>,
    reader: Option<std::thread::JoinHandle<()>>,
}

impl Pty {
    /// `sh -c line` in a new pseudo-terminal (script -qec), in its own process group.
    pub fn spawn(line: &str) -> Pty {
        let mut child = Command::new("script")
            .args(["-qec", line, "/dev/null"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("script(1) starts");
        let mut out = child.stdout.take().expect("piped stdout");
        let seen = Arc::new(Mutex::new((Vec::new(), false)));
        let reader = {
            let seen = seen.clone();
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                loop {
                    match out.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => seen.lock().unwrap().0.extend_from_slice(&buf[..n]),
                    }
                }
                seen.lock().unwrap().1 = true;
            })
        };
        Pty {
            stdin: child.stdin.take(),
            child,
            seen,
            reader: Some(reader),
        }
    }

    /// The process group's leader: script(1).
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// What the terminal showed so far.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.seen.lock().unwrap().0).into_owned()
    }

    /// Wait until the screen shows `what` (true) or the output ends or `within` passes
    /// (false).
    pub fn wait_for(&self, what: &str, within: Duration) -> bool {
        let t0 = Instant::now();
        loop {
            {
                let s = self.seen.lock().unwrap();
                if String::from_utf8_lossy(&s.0).contains(what) {
                    return true;
                }
                if s.1 {
                    return false;
                }
            }
            if t0.elapsed() > within {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Type `line` key by key, then Enter alone, as a person types: a burst of keys with
    /// more input right behind an Enter reads as a paste, which answers nothing.
    pub fn type_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("the terminal is open");
        for b in line.bytes().chain(std::iter::once(b'\r')) {
            std::thread::sleep(Duration::from_millis(15));
            // A run that already ended closes its input: later keys go nowhere.
            let _ = stdin.write_all(&[b]).and_then(|_| stdin.flush());
        }
    }

    /// Close the terminal's input and wait for the end, at most `within` (then the whole
    /// process group is killed and the test fails). Returns the exit code and the screen.
    pub fn finish(mut self, within: Duration) -> (Option<i32>, String) {
        let t0 = Instant::now();
        let status = loop {
            if let Some(s) = self.child.try_wait().expect("wait for script(1)") {
                break s;
            }
            if t0.elapsed() > within {
                let pg = nix::unistd::Pid::from_raw(-(self.child.id() as i32));
                let _ = nix::sys::signal::kill(pg, nix::sys::signal::Signal::SIGKILL);
                let _ = self.child.wait();
                panic!(
                    "no end within {within:?}; the terminal showed:\n{}",
                    self.text()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        drop(self.stdin.take());
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
        (status.code(), self.text())
    }
}
