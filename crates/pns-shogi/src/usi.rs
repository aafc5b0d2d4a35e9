//! The USI protocol of a mate engine, as shogi GUIs (ShogiGUI,
//! Shogidokoro) drive one: `usi` → `id name`, `id author`, the options,
//! `usiok`; `isready` → `readyok`; `setoption name USI_Hash value MB`;
//! `usinewgame`; `position sfen ... [moves ...]` / `position startpos
//! [moves ...]`; `go mate MS|infinite` → `info` lines (time, nodes, nps,
//! hashfull) about once a second, then `checkmate MOVE ...`, `checkmate
//! nomate` or `checkmate timeout`; `stop` (answered `checkmate timeout`
//! unless the answer is already known); `quit`.
//!
//! Commands are read on a thread of their own, so that `stop` and `quit`
//! reach a running search; the search runs on another, and every line goes
//! out through one locked writer. A problem's SFEN is read as by
//! `pns solve tsume` (an empty defender's hand is the rest of the set).

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use pns_core::{Limits, Stats, Status, Table};

use crate::solve::{mate_answer, solve, TsumeOptions};
use crate::tsume::Tsume;

/// Default table size in MiB (`USI_Hash`).
pub const DEFAULT_HASH_MB: usize = 256;

type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Out, line: &str) {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    // A closed output (the GUI went away) is not worth a panic.
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

struct Running {
    stop: Arc<AtomicBool>,
    /// The size of the table the search holds, in MiB.
    hash_mb: usize,
    handle: JoinHandle<Table>,
}

/// The engine's state between commands.
struct Engine {
    out: Out,
    hash_mb: usize,
    table: Option<Table>,
    position: Option<String>,
    running: Option<Running>,
}

impl Engine {
    fn new(out: Out) -> Self {
        Engine {
            out,
            hash_mb: DEFAULT_HASH_MB,
            table: None,
            position: None,
            running: None,
        }
    }

    /// Waits for a running search (after `stop`, or before a new command
    /// that needs the table) and takes its table back.
    fn join(&mut self) {
        if let Some(r) = self.running.take() {
            if let Ok(t) = r.handle.join() {
                if r.hash_mb == self.hash_mb {
                    self.table = Some(t);
                }
            }
        }
    }

    fn table(&mut self) -> Result<Table, String> {
        match self.table.take() {
            Some(mut t) => {
                t.clear();
                Ok(t)
            }
            None => Table::try_with_mb(self.hash_mb)
                .map_err(|e| format!("USI_Hash {} MiB: {e}", self.hash_mb)),
        }
    }

    /// Handles one command line; false on `quit`.
    fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let (cmd, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match cmd {
            "usi" => {
                say(
                    &self.out,
                    &format!("id name pns-tsume {}", env!("CARGO_PKG_VERSION")),
                );
                say(&self.out, "id author the pns developers");
                say(
                    &self.out,
                    &format!(
                        "option name USI_Hash type spin default {DEFAULT_HASH_MB} min 1 max 1048576"
                    ),
                );
                say(&self.out, "usiok");
            }
            "isready" => {
                self.join();
                if self.table.is_none() {
                    match self.table() {
                        Ok(t) => {
                            // Map the table's pages now, as a GUI gives an
                            // engine time to at `isready`: not during the
                            // search.
                            t.populate();
                            self.table = Some(t)
                        }
                        Err(e) => say(&self.out, &format!("info string error: {e}")),
                    }
                }
                say(&self.out, "readyok");
            }
            "setoption" => self.setoption(rest),
            "usinewgame" | "gameover" | "ponderhit" => {}
            "position" => self.position(rest),
            "go" => self.go(rest),
            "stop" => {
                if let Some(r) = &self.running {
                    r.stop.store(true, Ordering::SeqCst);
                }
                self.join();
            }
            "quit" => {
                if let Some(r) = &self.running {
                    r.stop.store(true, Ordering::SeqCst);
                }
                self.join();
                return false;
            }
            "" => {}
            other => say(&self.out, &format!("info string unknown command '{other}'")),
        }
        true
    }

    fn setoption(&mut self, rest: &str) {
        // setoption name NAME [value VALUE]
        let Some(body) = rest.strip_prefix("name") else {
            say(&self.out, "info string error: setoption needs 'name'");
            return;
        };
        let (name, value) = match body.split_once(" value ") {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (body.trim(), None),
        };
        match name {
            "USI_Hash" | "Hash" => match value.and_then(|v| v.parse::<usize>().ok()) {
                Some(mb) if (1..=1 << 20).contains(&mb) => {
                    if mb != self.hash_mb {
                        self.hash_mb = mb;
                        self.table = None;
                    }
                }
                _ => say(
                    &self.out,
                    &format!(
                        "info string error: USI_Hash needs a size in MiB (1-1048576), not '{}'",
                        value.unwrap_or("")
                    ),
                ),
            },
            // Options every GUI sends; a mate engine has no use for them.
            "USI_Ponder" | "USI_OwnBook" | "USI_MultiPV" | "Threads" => {}
            other => say(&self.out, &format!("info string unknown option '{other}'")),
        }
    }

    fn position(&mut self, rest: &str) {
        let text = if let Some(r) = rest.strip_prefix("startpos") {
            format!("startpos{r}")
        } else if let Some(r) = rest.strip_prefix("sfen") {
            r.trim().to_string()
        } else {
            say(
                &self.out,
                &format!("info string error: 'position {rest}' needs sfen or startpos"),
            );
            self.position = None;
            return;
        };
        // Checked when `go mate` comes, where a GUI expects the answer.
        self.position = Some(text);
    }

    fn go(&mut self, rest: &str) {
        let mut words = rest.split_whitespace();
        if words.next() != Some("mate") {
            // Not a mate question: a mate engine has no move to play.
            say(&self.out, "bestmove resign");
            return;
        }
        let time = match words.next() {
            None | Some("infinite") => None,
            Some(ms) => match ms.parse::<u64>() {
                Ok(ms) => Some(Duration::from_millis(ms)),
                Err(_) => {
                    say(
                        &self.out,
                        &format!("info string error: go mate '{ms}' is not a time in ms"),
                    );
                    say(&self.out, "checkmate timeout");
                    return;
                }
            },
        };
        self.join();
        let Some(text) = self.position.clone() else {
            say(&self.out, "info string error: no position");
            say(&self.out, "checkmate nomate");
            return;
        };
        let root = match Tsume::parse(&text) {
            Ok(t) => t,
            Err(e) => {
                say(&self.out, &format!("info string error: {e}"));
                say(&self.out, "checkmate nomate");
                return;
            }
        };
        let tt = match self.table() {
            Ok(t) => t,
            Err(e) => {
                say(&self.out, &format!("info string error: {e}"));
                say(&self.out, "checkmate timeout");
                return;
            }
        };
        let stop = Arc::new(AtomicBool::new(false));
        let out = self.out.clone();
        let capacity = tt.capacity().max(1);
        let out2 = out.clone();
        // The table's fill is read through a shared pointer to its counter:
        // the progress callback cannot borrow the table itself.
        let tt = Arc::new(tt);
        let tt_watch = Arc::downgrade(&tt);
        let progress = Arc::new(move |s: &Stats| {
            let full = tt_watch.upgrade().map_or(0, |t| t.len() * 1000 / capacity);
            say(&out2, &info_line(s, full));
        });
        let limits = Limits {
            time,
            stop: Some(stop.clone()),
            progress: Some(progress),
            ..Limits::default()
        };
        let handle = std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || {
                let start = std::time::Instant::now();
                let opts = TsumeOptions {
                    limits,
                    answer: false,
                    ..TsumeOptions::default()
                };
                let r = solve(&root, &opts, &tt);
                let full = tt.len() * 1000 / capacity;
                say(&out, &info_line(&r.result.stats, full));
                // The answer (its length and line) comes after the proof:
                // say when the mate is proven, for a user watching a long
                // one (and a driver timing it).
                let mut line = None;
                if r.status() == Status::Proven {
                    say(
                        &out,
                        &format!(
                            "info string mate proven after {} ms, {} nodes; reading its answer",
                            r.result.stats.time_ms as u64, r.result.stats.visits
                        ),
                    );
                    let a = mate_answer(&root, &tt, &opts.answer_limits(start));
                    if let (Some(e), Some(_)) = (&a.error, &a.line) {
                        say(
                            &out,
                            &format!("info string length not proven the shortest: {e}"),
                        );
                    }
                    line = a.line;
                }
                let answer = match (r.status(), &line) {
                    (Status::Proven, Some(a)) => {
                        let moves: Vec<String> = a.moves.iter().map(|m| m.usi()).collect();
                        format!("checkmate {}", moves.join(" "))
                    }
                    (Status::Disproven, _) => "checkmate nomate".to_string(),
                    _ => "checkmate timeout".to_string(),
                };
                say(&out, &answer);
                // Hand the table back for the next search.
                Arc::try_unwrap(tt).unwrap_or_else(|_| Table::with_mb(1))
            });
        match handle {
            Ok(handle) => {
                self.running = Some(Running {
                    stop,
                    hash_mb: self.hash_mb,
                    handle,
                })
            }
            Err(e) => {
                say(&self.out, &format!("info string error: {e}"));
                say(&self.out, "checkmate timeout");
            }
        }
    }
}

fn info_line(s: &Stats, hashfull: usize) -> String {
    format!(
        "info time {} nodes {} nps {} hashfull {}",
        s.time_ms as u64,
        s.visits,
        s.nodes_per_sec as u64,
        hashfull.min(1000)
    )
}

/// Runs the protocol: commands from `input`, answers to `output`, until
/// `quit` or the end of the input (which waits for a running search).
pub fn run<R, W>(input: R, output: W) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let out: Out = Arc::new(Mutex::new(Box::new(output)));
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut engine = Engine::new(out);
    for line in rx {
        if !engine.handle(&line) {
            return Ok(());
        }
    }
    // End of input: let a running search finish and answer.
    engine.join();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer the test can read back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn session(script: &str) -> Vec<String> {
        let out = Shared::default();
        run(io::Cursor::new(script.to_string()), out.clone()).unwrap();
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn handshake_and_mate() {
        let lines = session(
            "usi\nsetoption name USI_Hash value 16\nisready\nusinewgame\n\
             position sfen 9/9/9/4k4/9/4P4/9/9/9 b 4G2r2b4s4n4l17p 1\ngo mate 10000\n",
        );
        assert!(lines[0].starts_with("id name "));
        assert!(lines.contains(&"usiok".to_string()));
        assert!(lines.contains(&"readyok".to_string()));
        let mate = lines.iter().find(|l| l.starts_with("checkmate")).unwrap();
        let moves: Vec<&str> = mate.split_whitespace().skip(1).collect();
        assert_eq!(moves.len(), 7, "{mate}");
        assert!(lines.iter().any(|l| l.starts_with("info time ")));
    }

    #[test]
    fn quit_ends_the_session() {
        // Input after quit is never read.
        let lines = session("usi\nquit\nisready\n");
        assert_eq!(lines.last().map(String::as_str), Some("usiok"));
    }

    #[test]
    fn nomate_and_bad_input() {
        let lines = session(
            "isready\nposition sfen 9/4k4/9/4P4/9/9/9/9/9 b G2r2b4s4n4l17p 1\ngo mate infinite\n\
             position sfen nonsense\ngo mate 1000\nposition startpos moves 7g7f\ngo mate 1000\n",
        );
        let answers: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("checkmate"))
            .collect();
        assert_eq!(answers.len(), 3, "{lines:?}");
        assert_eq!(answers[0], "checkmate nomate");
        assert!(lines.iter().any(|l| l.starts_with("info string error")));
        // The start position after 7g7f: White has no check, so no mate.
        assert_eq!(answers[2], "checkmate nomate");
    }
}
