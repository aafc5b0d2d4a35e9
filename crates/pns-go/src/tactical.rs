//! GNU Go's tactical reading cases (`../shared/data/go/gnugo-tactical.tsv`,
//! described in `../shared/data/README.md`) loaded as capturing questions:
//! the position, the target, attack or defend, and the expected answer.
//! The experiment `lambda-capturing` and the tests read them through here.

use std::path::Path;

use crate::board::Board;
use crate::gtp::Engine;

/// A case's class: `Unconditional` (expected 0 or 1, GNU Go passes),
/// `GnugoFails` (expected 0 or 1, the maintainers' answer, which GNU Go
/// gets wrong), `Ko` (expected 2 or 3), `Other` (not attack/defend).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    Unconditional,
    GnugoFails,
    Ko,
    Other,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Unconditional => "unconditional",
            Class::GnugoFails => "gnugo-fails",
            Class::Ko => "ko",
            Class::Other => "other",
        }
    }
}

/// One case.
#[derive(Clone, Debug)]
pub struct Case {
    pub suite: String,
    pub id: String,
    /// `attack` (the attacker first) or `defend` (the defender first).
    pub attack: bool,
    pub target_vertex: String,
    /// The answer codes accepted (with `negated`: refused).
    pub codes: Vec<u32>,
    pub negated: bool,
    /// The moves listed as right (upper case; empty: none given).
    pub moves: Vec<String>,
    pub class: Class,
    /// The position (the side to move as loaded; the question sets it).
    pub board: Board,
    /// The target's point.
    pub target: usize,
}

impl Case {
    /// Whether the expected answer is that the side asked about succeeds
    /// unconditionally (code 1); `None` for a ko or negated answer.
    pub fn expected_success(&self) -> Option<bool> {
        if self.negated || self.codes.len() != 1 || self.codes[0] > 1 {
            return None;
        }
        Some(self.codes[0] == 1)
    }
}

/// Reads every attack/defend case of the file at `tsv` (game records under
/// `gnugo_dir`); `Other` cases are skipped.
pub fn load(tsv: &Path, gnugo_dir: &Path) -> Result<Vec<Case>, String> {
    let text =
        std::fs::read_to_string(tsv).map_err(|e| format!("cannot read {}: {e}", tsv.display()))?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().ok_or("an empty file")?.split('\t').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .ok_or_else(|| format!("no column {name}"))
    };
    let (suite, id, sgf, until, extra, cmd, target, want, status) = (
        col("suite")?,
        col("id")?,
        col("sgf")?,
        col("load_until_move")?,
        col("extra_moves")?,
        col("command")?,
        col("target")?,
        col("expected_regex")?,
        col("gnugo_status")?,
    );
    let mut out = Vec::new();
    for l in lines.filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = l.split('\t').collect();
        if f.len() < header.len() {
            return Err(format!("short line: {l}"));
        }
        if f[cmd] != "attack" && f[cmd] != "defend" {
            continue;
        }
        let (negated, codes, moves) = parse_expected(f[want])?;
        let class = if codes.iter().any(|&c| c >= 2) {
            Class::Ko
        } else if f[status].starts_with("gnugo_expected_fail") {
            Class::GnugoFails
        } else {
            Class::Unconditional
        };
        let mut e = Engine::new();
        let path = gnugo_dir.join(f[sgf]);
        let load = match f[until] {
            "end" => format!("loadsgf {}", path.display()),
            m => format!("loadsgf {} {m}", path.display()),
        };
        let name = format!("{} {}", f[suite], f[id]);
        let ok = |r: Option<String>, what: &str| match r {
            Some(r) if r.starts_with('=') => Ok(()),
            r => Err(format!("{name}: {what} -> {r:?}")),
        };
        ok(e.handle(&load), &load)?;
        if f[extra] != "-" {
            for m in f[extra].split_whitespace() {
                let (c, v) = m.split_once(':').ok_or_else(|| format!("{name}: {m}"))?;
                ok(e.handle(&format!("play {c} {v}")), m)?;
            }
        }
        let board = *e.game().board();
        let t = match board.parse_vertex(f[target]) {
            Ok(crate::board::Move::Play(p)) => p as usize,
            _ => return Err(format!("{name}: bad target {}", f[target])),
        };
        out.push(Case {
            suite: f[suite].to_string(),
            id: f[id].to_string(),
            attack: f[cmd] == "attack",
            target_vertex: f[target].to_string(),
            codes,
            negated,
            moves,
            class,
            board,
            target: t,
        });
    }
    Ok(out)
}

/// An expected answer `[!]CODES [MOVES]` with alternatives as `(a|b)`:
/// whether it is negated, the answer codes and the moves listed (upper
/// case; empty when none is given).
pub fn parse_expected(s: &str) -> Result<(bool, Vec<u32>, Vec<String>), String> {
    let (negated, s) = match s.strip_prefix('!') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let mut parts = s.trim().splitn(2, ' ');
    let alts = |t: &str| -> Vec<String> {
        t.trim_matches(|c| c == '(' || c == ')')
            .split('|')
            .map(|m| m.trim().to_uppercase())
            .filter(|m| !m.is_empty())
            .collect()
    };
    let codes = alts(parts.next().unwrap_or(""))
        .iter()
        .map(|c| c.parse().map_err(|_| format!("bad code in '{s}'")))
        .collect::<Result<_, _>>()?;
    let moves = parts.next().map(alts).unwrap_or_default();
    Ok((negated, codes, moves))
}
