//! A GTP version 2 engine (the Go Text Protocol, draft 2, as GoGui, the
//! GNU Go regression scripts and twogtp drive it), as a library so that it
//! is tested without a process; `pns gtp` wraps it around stdin and
//! stdout.
//!
//! Commands: `protocol_version`, `name`, `version`, `known_command`,
//! `list_commands`, `quit`, `boardsize`, `clear_board`, `komi`, `play`,
//! `undo`, `loadsgf FILE [N]` (the position before move N), `showboard`,
//! `is_legal COLOR VERTEX` (`1` or `0`), Fuego's `go_param_rules
//! [ko_rule simple|superko|pos_superko]`, and the solvers: `one_eye
//! VERTEX` and `one_eye_attack VERTEX` (see [`crate::oneeye`]; they
//! solve under situational super-ko whatever `ko_rule` says, with the
//! region marked `SQ` in the last `loadsgf`, and the search's line starts
//! at the current position), `attack VERTEX` and `defend VERTEX` (GNU
//! Go's answers `1 MOVE` and `0`, see [`crate::capture`]),
//! `attack_either A B` and `defend_both A B` (two targets of one colour,
//! `1` or `0`, see [`crate::either`]; `attack_either` proves a capture one
//! target at a time with the capture solver first), `ladder`,
//! `go_ladder` and `go_static_ladder VERTEX` (Fuego's `captured`,
//! `escaped`, `unsettled`, see [`crate::ladder`]). Every failure is a GTP error (`? message`);
//! nothing panics on input.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::bits::Bits;
use crate::board::{Board, Color, Move};
use crate::game::{GoGame, KoRule};

/// The commands, in `list_commands` order.
pub const COMMANDS: &[&str] = &[
    "attack",
    "attack_either",
    "boardsize",
    "clear_board",
    "defend",
    "defend_both",
    "go_ladder",
    "go_param_rules",
    "go_static_ladder",
    "is_legal",
    "known_command",
    "komi",
    "ladder",
    "list_commands",
    "loadsgf",
    "name",
    "one_eye",
    "one_eye_attack",
    "play",
    "protocol_version",
    "quit",
    "showboard",
    "undo",
    "version",
];

/// The error of a solving command that ended unknown within `visits`
/// node visits or `time`.
pub(crate) fn unknown_within(visits: u64, time: Option<std::time::Duration>) -> String {
    match time {
        Some(t) => format!(
            "unknown: no answer within {visits} node visits or {} s",
            t.as_secs_f64()
        ),
        None => format!("unknown: no answer within {visits} node visits"),
    }
}

/// A GTP engine's state.
#[derive(Clone, Debug)]
pub struct Engine {
    game: GoGame,
    komi: f64,
    /// The root markup of the last `loadsgf` (`SQ` region, `TR` targets),
    /// until the board changes size or is cleared.
    region: Option<Bits>,
    /// Where relative `loadsgf` paths start (the working directory when
    /// `None`).
    base: Option<PathBuf>,
    /// Node visits a solving command may spend.
    pub solve_visits: u64,
    /// The search behind `attack` and `defend` (df-pn unless set).
    pub capture_solver: crate::capture::Solver,
    /// The move generator of `attack` and `defend` (the complete side
    /// plays every point whatever it is).
    pub capture_generator: crate::capture::Generator,
    /// The horizons of `attack` and `defend`: none in the rule, capture
    /// proofs searched under [`crate::capture::CAPTURE_HORIZON`] unless set.
    pub capture_horizons: crate::capture::Horizons,
    /// GNU Go's snapback rule in `attack` and `defend` (on unless set:
    /// [`crate::capture::Capture::with_snapback`]).
    pub capture_snapback: bool,
    /// Whether `attack` and `defend` deepen ([`crate::capture::Asking::deepen`];
    /// on unless set).
    pub capture_deepen: bool,
    /// Whether `attack` and `defend` answer with
    /// [`crate::capture::guess_coded`]'s guess (no proof) where no proof
    /// answers within the limit (off unless set: such an answer is then an
    /// error). A guessed answer is noted on stderr by [`Engine::run`].
    pub capture_guess: bool,
    /// Threads per `attack` or `defend` question: 2 runs its capture and
    /// escape halves at once (the same answer, sooner; 1 by default).
    pub capture_threads: usize,
    /// Wall-clock limit of each solving command (`attack`, `defend`,
    /// `attack_either`, `defend_both`, `one_eye`, `one_eye_attack`; none
    /// unless set): past it the answer is an error, unknown.
    pub solve_time: Option<std::time::Duration>,
    /// The Ctrl-C flag of `pns gtp` (none unless set): a press while a
    /// solving command runs (`attack`, `defend`, `attack_either`,
    /// `defend_both`, `one_eye`, `one_eye_attack`) ends that command
    /// unknown ([`crate::capture::GtpOptions::interrupt`]) and the engine
    /// goes on.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Whether the last `attack` or `defend` answered with a guess.
    guessed: bool,
    quit: bool,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

/// What a command answers: success text or an error message.
type Answer = Result<String, String>;

impl Engine {
    /// The current position.
    pub fn board(&self) -> &Board {
        self.game.board()
    }

    /// A 19x19 board, komi 0, simple ko.
    pub fn new() -> Engine {
        Engine {
            game: GoGame::new(Board::new(19).expect("19x19"), KoRule::Simple),
            komi: 0.0,
            region: None,
            base: None,
            solve_visits: 20_000_000,
            capture_solver: crate::capture::Solver::Dfpn,
            capture_generator: crate::capture::Generator::H1,
            capture_horizons: crate::capture::Horizons::default(),
            capture_snapback: true,
            capture_deepen: true,
            capture_guess: false,
            capture_threads: 1,
            solve_time: None,
            interrupt: None,
            guessed: false,
            quit: false,
        }
    }

    /// Relative `loadsgf` paths are read from `dir`.
    pub fn with_base(mut self, dir: impl Into<PathBuf>) -> Engine {
        self.base = Some(dir.into());
        self
    }

    pub fn game(&self) -> &GoGame {
        &self.game
    }

    pub fn komi(&self) -> f64 {
        self.komi
    }

    /// Whether the last command was `attack` or `defend` answered with a
    /// guess ([`Engine::capture_guess`]), not a proof.
    pub fn last_answer_guessed(&self) -> bool {
        self.guessed
    }

    /// Whether `quit` was received.
    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    /// Answers one line of input: the full response (`= ...` or `? ...`,
    /// ending in a blank line), or `None` for an empty or comment line.
    pub fn handle(&mut self, line: &str) -> Option<String> {
        self.guessed = false;
        // Control characters other than tab and newline are dropped, tabs
        // become spaces, and `#` starts a comment (GTP §3.1).
        let clean: String = line
            .chars()
            .filter(|c| !c.is_control() || *c == '\t')
            .map(|c| if c == '\t' { ' ' } else { c })
            .collect();
        let clean = clean.split('#').next().unwrap_or("").trim();
        if clean.is_empty() {
            return None;
        }
        let mut words = clean.split_whitespace();
        let first = words.next()?;
        let (id, cmd) = if first.chars().all(|c| c.is_ascii_digit()) {
            match words.next() {
                Some(c) => (first, c),
                None => return Some(format!("?{first} missing command\n\n")),
            }
        } else {
            ("", first)
        };
        let args: Vec<&str> = words.collect();
        let answer = self.command(cmd, &args);
        Some(match answer {
            Ok(text) if text.is_empty() => format!("={id}\n\n"),
            Ok(text) => format!("={id} {text}\n\n"),
            Err(msg) => format!("?{id} {msg}\n\n"),
        })
    }

    /// Reads commands from `input` until `quit` or the end of input,
    /// writing each response to `output` and flushing it.
    pub fn run<R: BufRead, W: Write>(&mut self, input: R, mut output: W) -> io::Result<()> {
        for line in input.lines() {
            let line = line?;
            let resp = self.handle(&line);
            if self.guessed {
                eprintln!("pns: guessed, no proof: {}", line.trim());
            }
            if let Some(resp) = resp {
                output.write_all(resp.as_bytes())?;
                output.flush()?;
            }
            if self.quit {
                break;
            }
        }
        Ok(())
    }

    fn command(&mut self, cmd: &str, args: &[&str]) -> Answer {
        let want = |n: usize| -> Result<(), String> {
            if args.len() == n {
                Ok(())
            } else {
                Err(format!(
                    "{cmd} takes {n} argument{}",
                    if n == 1 { "" } else { "s" }
                ))
            }
        };
        match cmd {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("pns".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => {
                want(1)?;
                Ok(COMMANDS.contains(&args[0]).to_string())
            }
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => {
                self.quit = true;
                Ok(String::new())
            }
            "boardsize" => {
                want(1)?;
                let n: usize = args[0].parse().map_err(|_| "boardsize not an integer")?;
                let b = Board::new(n).map_err(|_| "unacceptable size".to_string())?;
                self.game = GoGame::new(b, self.game.rule());
                self.region = None;
                Ok(String::new())
            }
            "clear_board" => {
                let b = Board::new(self.game.board().size()).expect("same size");
                self.game = GoGame::new(b, self.game.rule());
                self.region = None;
                Ok(String::new())
            }
            "komi" => {
                want(1)?;
                self.komi = args[0]
                    .parse::<f64>()
                    .ok()
                    .filter(|k| k.is_finite())
                    .ok_or("komi not a float")?;
                Ok(String::new())
            }
            "play" => {
                want(2)?;
                let (c, m) = self.color_move(args[0], args[1])?;
                self.game
                    .play(c, m)
                    .map_err(|e| format!("illegal move ({e})"))?;
                Ok(String::new())
            }
            "undo" => {
                want(0)?;
                if self.game.undo() {
                    Ok(String::new())
                } else {
                    Err("cannot undo".into())
                }
            }
            "is_legal" => {
                want(2)?;
                let (c, m) = self.color_move(args[0], args[1])?;
                Ok(if self.game.check(c, m).is_ok() {
                    "1"
                } else {
                    "0"
                }
                .into())
            }
            "showboard" => Ok(format!(
                "\n{}\nko rule {}, komi {}",
                self.game.board().render(),
                self.game.rule(),
                self.komi
            )),
            "loadsgf" => self.loadsgf(args),
            "go_param_rules" => self.param_rules(args),
            "one_eye" | "one_eye_attack" => {
                want(1)?;
                let m = self.game.board().parse_vertex(args[0])?;
                let Move::Play(p) = m else {
                    return Err("the target is a stone, not pass".into());
                };
                self.interruptible(|stop| {
                    crate::oneeye::gtp_answer(
                        &self.game,
                        self.region,
                        p as usize,
                        cmd == "one_eye",
                        self.solve_visits,
                        self.solve_time,
                        stop,
                    )
                })
            }
            "ladder" | "go_ladder" | "go_static_ladder" => {
                want(1)?;
                let p = self.target(args[0])?;
                crate::ladder::gtp_answer(self.game.board(), p)
            }
            "attack" | "defend" => {
                want(1)?;
                let p = self.target(args[0])?;
                self.interruptible(|interrupt| {
                    let how = crate::capture::GtpOptions {
                        gen: self.capture_generator,
                        horizons: self.capture_horizons,
                        snapback: self.capture_snapback,
                        asking: crate::capture::Asking {
                            guess: self.capture_guess,
                            deepen: self.capture_deepen,
                        },
                        threads: self.capture_threads,
                        time: self.solve_time,
                        interrupt,
                    };
                    crate::capture::gtp_command_with(
                        self.game.board(),
                        p,
                        cmd == "attack",
                        &self.capture_solver,
                        how,
                        self.solve_visits,
                    )
                })
                .map(|(text, proven)| {
                    self.guessed = !proven;
                    text
                })
            }
            "attack_either" | "defend_both" => {
                want(2)?;
                let targets = [self.target(args[0])?, self.target(args[1])?];
                self.interruptible(|stop| {
                    crate::either::gtp_answer(
                        self.game.board(),
                        targets,
                        cmd == "attack_either",
                        (self.capture_generator, &self.capture_solver),
                        self.solve_visits,
                        self.solve_time,
                        stop,
                    )
                })
            }
            _ => Err("unknown command".into()),
        }
    }

    /// `f`'s answer, `f` given the Ctrl-C flag as its searches' stop flag
    /// (for `attack` and `defend`, [`crate::capture::GtpOptions::interrupt`]):
    /// a press while it runs ends it unknown and the engine goes on. The
    /// flag is cleared before and after, so that only a second press while
    /// no command runs ends the engine.
    fn interruptible<T>(
        &self,
        f: impl FnOnce(Option<Arc<AtomicBool>>) -> Result<T, String>,
    ) -> Result<T, String> {
        let Some(flag) = &self.interrupt else {
            return f(None);
        };
        flag.store(false, Ordering::SeqCst);
        let a = f(Some(flag.clone()));
        match a {
            Err(_) if flag.swap(false, Ordering::SeqCst) => {
                Err("unknown: interrupted (Ctrl-C)".into())
            }
            a => {
                flag.store(false, Ordering::SeqCst);
                a
            }
        }
    }

    /// The point of a target stone.
    fn target(&self, v: &str) -> Result<usize, String> {
        let b = self.game.board();
        match b.parse_vertex(v)? {
            Move::Play(p) if b.color_at(p as usize).is_some() => Ok(p as usize),
            Move::Play(_) => Err(format!("{} is empty", v.trim())),
            Move::Pass => Err("the target is a stone, not pass".into()),
        }
    }

    fn color_move(&self, c: &str, v: &str) -> Result<(Color, Move), String> {
        let c = Color::parse(c).ok_or_else(|| format!("invalid color '{c}'"))?;
        let m = self.game.board().parse_vertex(v)?;
        Ok((c, m))
    }

    fn loadsgf(&mut self, args: &[&str]) -> Answer {
        if args.is_empty() || args.len() > 2 {
            return Err("loadsgf takes a file and an optional move number".into());
        }
        let until = match args.get(1) {
            None => None,
            Some(n) => Some(
                n.parse::<usize>()
                    .map_err(|_| format!("move number '{n}' is not a positive integer"))?,
            ),
        };
        let mut path = PathBuf::from(args[0]);
        if path.is_relative() {
            if let Some(b) = &self.base {
                path = b.join(path);
            }
        }
        let l = crate::sgf::load_file(&path, until, self.game.rule())?;
        self.game = l.game;
        self.region = (!l.squares.is_empty()).then_some(l.squares);
        Ok(self.game.board().to_move().to_string())
    }

    /// Fuego's `go_param_rules`: without arguments the settings, one per
    /// line; with `ko_rule NAME` sets the ko rule.
    fn param_rules(&mut self, args: &[&str]) -> Answer {
        match args {
            [] => Ok(format!("ko_rule {}", self.game.rule())),
            ["ko_rule", v] => {
                let r = KoRule::from_name(v).ok_or_else(|| {
                    format!("unknown ko rule '{v}' (simple, superko, pos_superko)")
                })?;
                self.game.set_rule(r);
                Ok(String::new())
            }
            [k, _] => Err(format!("unknown parameter '{k}' (ko_rule)")),
            _ => Err("go_param_rules takes a name and a value".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(e: &mut Engine, line: &str) -> String {
        e.handle(line).expect("a response")
    }

    #[test]
    fn protocol_basics() {
        let mut e = Engine::new();
        assert_eq!(ask(&mut e, "protocol_version"), "= 2\n\n");
        assert_eq!(ask(&mut e, "7 name"), "=7 pns\n\n");
        assert_eq!(ask(&mut e, "known_command play"), "= true\n\n");
        assert_eq!(ask(&mut e, "known_command genmove"), "= false\n\n");
        assert!(ask(&mut e, "list_commands").contains("\nis_legal\n"));
        assert_eq!(e.handle("   # a comment"), None);
        assert_eq!(e.handle(""), None);
        assert_eq!(ask(&mut e, "3 frobnicate"), "?3 unknown command\n\n");
        assert_eq!(ask(&mut e, "boardsize 25"), "? unacceptable size\n\n");
        assert_eq!(ask(&mut e, "boardsize 5"), "= \n\n".replace(" \n", "\n"));
        assert_eq!(ask(&mut e, "play b c3"), "=\n\n");
        assert!(ask(&mut e, "play w c3").starts_with("? illegal move"));
        assert!(ask(&mut e, "play x c3").starts_with("? invalid color"));
        assert!(ask(&mut e, "play b z9").starts_with("? 'z9' is not a vertex"));
        assert_eq!(ask(&mut e, "is_legal w c3"), "= 0\n\n");
        assert_eq!(ask(&mut e, "is_legal w c4"), "= 1\n\n");
        assert_eq!(ask(&mut e, "undo"), "=\n\n");
        assert_eq!(ask(&mut e, "undo"), "? cannot undo\n\n");
        assert_eq!(ask(&mut e, "komi 6.5"), "=\n\n");
        assert_eq!(ask(&mut e, "komi x"), "? komi not a float\n\n");
        assert_eq!(ask(&mut e, "go_param_rules ko_rule superko"), "=\n\n");
        assert_eq!(ask(&mut e, "go_param_rules"), "= ko_rule superko\n\n");
        assert!(ask(&mut e, "go_param_rules ko_rule japanese").starts_with("? unknown ko rule"));
        assert!(ask(&mut e, "loadsgf /no/such/file.sgf").starts_with("? cannot read"));
        assert!(ask(&mut e, "showboard").starts_with("= \n   A B C D E\n"));
        assert_eq!(ask(&mut e, "quit"), "=\n\n");
        assert!(e.quit_requested());
    }

    #[test]
    fn run_stops_at_quit() {
        let mut e = Engine::new();
        let mut out = Vec::new();
        e.run(&b"name\nquit\nname\n"[..], &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "= pns\n\n=\n\n");
    }
}
