//! Two targets at once: GNU Go's `attack_either A B` (can the attacker,
//! to move, capture one of two blocks of one colour?) and `defend_both A B`
//! (can their owner, to move, save both?).
//!
//! Neither question follows from the two single ones ([`crate::capture`]):
//! a double atari captures one of two blocks that each escape alone. So
//! the two targets are one problem here, searched by plain df-pn with the
//! distance initialisation and the ladder rule (a target in atari leaves
//! the defender only the moves that lift the atari, both targets' where
//! both are; the λ machinery's other rules, the liberty bound, the escape
//! rule and zones, reason about one block):
//!
//! * The attacker wins when a target that has not escaped is captured
//!   (gone from the board); it may also capture at once, with a target
//!   in atari and the attacker to move.
//! * A target escapes when it reaches the escape threshold's liberties, as
//!   a single target does ([`crate::capture::DEFAULT_ESCAPE_LIBS`]), and
//!   stays escaped: the defender wins when both have escaped. (A single
//!   target's problem ends there; this one goes on for the other block, and
//!   a later capture of the escaped one does not count.)
//! * A repetition is the attacker's failure, as in [`crate::capture`].
//!
//! As with one target, an answer is a proof only where the side it is
//! about is searched with every point: `1` with the defender playing every
//! point, `0` with the attacker playing every point; the other side plays
//! the union of the two targets' generator moves. The escape flags are
//! part of a position's key (a block that once escaped changes the
//! question).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use pns_core::dfpn::{self, Plain};
use pns_core::numbers::Pn;
use pns_core::{Limits, Outcome, Problem, Repetition, Rules, SearchHooks, Status, Table};

use crate::bits::Bits;
use crate::board::{Board, Color, Move};
use crate::capture::{path_options, Capture, Generator, DEFAULT_ESCAPE_LIBS};

/// Keeps the two-target problem's positions apart from one target's.
const EITHER_SALT: u64 = 0x6569_7468_6572_0001;

/// One position of the problem: the two targets (one board, kept in each)
/// and which of them have escaped.
#[derive(Clone, Copy, Debug)]
struct Node {
    t: [Capture; 2],
    escaped: [bool; 2],
}

impl Node {
    fn board(&self) -> &Board {
        self.t[0].board()
    }

    fn attacker_to_move(&self) -> bool {
        self.board().to_move() == self.t[0].attacker()
    }

    /// The targets still in play (not escaped).
    fn live(&self) -> impl Iterator<Item = &Capture> {
        self.t
            .iter()
            .zip(self.escaped)
            .filter(|(_, e)| !e)
            .map(|(c, _)| c)
    }

    fn status(&self) -> Status {
        // One target's rules decide each live target: gone, or in atari
        // with the attacker to move and its liberty a legal move. (A live
        // target is below the threshold: its escape is the flag's.)
        let attacker = self.attacker_to_move();
        let won = |c: &Capture| {
            c.known_outcome()
                .is_some_and(|o| (o == Outcome::Win) == attacker)
        };
        if self.live().any(won) {
            return Status::Proven;
        }
        if self.escaped == [true, true] {
            return Status::Disproven;
        }
        Status::Unknown
    }

    fn step(&self, m: Move) -> Node {
        let mut next = *self;
        for (c, e) in next.t.iter_mut().zip(next.escaped.iter_mut()) {
            c.play(m);
            if !*e && c.escaped() {
                *e = true;
            }
        }
        next
    }
}

/// The search's problem: the attacker is the OR side.
struct EitherProblem {
    stack: Vec<Node>,
}

impl EitherProblem {
    fn cur(&self) -> &Node {
        self.stack.last().expect("a root")
    }
}

impl Problem for EitherProblem {
    type Move = Move;

    fn is_or(&self) -> bool {
        self.cur().attacker_to_move()
    }

    fn evaluate(&self) -> Status {
        self.cur().status()
    }

    fn generate(&self, out: &mut Vec<Move>) {
        let n = self.cur();
        let mut c = n.live().fold(Bits::EMPTY, |s, c| s | c.candidates());
        if !n.attacker_to_move() {
            // The ladder rule ([`crate::lambda`]): a live target in atari
            // is captured next unless the move lifts its atari.
            for t in n.live() {
                if let Some((lift, _)) = crate::zone::atari_lifts(t) {
                    c &= lift;
                }
            }
        }
        n.board().legal_points(Some(&c), true, out);
        // The target's liberties first (the paper's ordering by distance).
        let libs = n.live().fold(Bits::EMPTY, |s, c| s | c.target_libs());
        out.sort_by_key(|m| matches!(m, Move::Play(p) if !libs.get(*p as usize)));
        out.push(Move::Pass);
    }

    fn play(&mut self, m: Move) {
        let next = self.cur().step(m);
        self.stack.push(next);
    }

    fn undo(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    fn key(&self) -> u64 {
        let n = self.cur();
        let flags = n.escaped[0] as u64 | (n.escaped[1] as u64) << 1;
        n.t[0].key() ^ pns_core::rng::splitmix64(EITHER_SALT ^ flags)
    }

    /// The distance initialisation for two targets: a capture of either
    /// costs about the fewer liberties, escapes about the sum of what each
    /// live target lacks.
    fn heuristic(&self) -> (Pn, Pn) {
        let n = self.cur();
        let (pn, dn) = n.live().fold((u64::MAX, 0), |(pn, dn), c| {
            let (p, d) = c.distance();
            (pn.min(p), dn + d)
        });
        (pn.clamp(1, DEFAULT_ESCAPE_LIBS as u64), dn.max(1))
    }

    fn repetition(&self) -> Repetition {
        Repetition::FirstPlayerLoss
    }

    /// The position and the player to move (a pass changes it; the
    /// stones alone would call every pass a repetition).
    fn history_key(&self) -> u64 {
        self.cur().t[0].key()
    }
}

/// Whether the attacker captures one of the blocks at `targets` on `b`
/// (one colour, the attacker their opponent), `first` to move, `complete`
/// playing every point and the other side `gen`'s moves for either target,
/// a target escaped at `escape_libs` liberties: Proven, Disproven, or
/// Unknown past `limits` (visits, time, the stop flag).
pub fn either_status(
    b: &Board,
    targets: [usize; 2],
    (first, complete): (Color, Color),
    gen: Generator,
    escape_libs: u32,
    limits: &Limits,
) -> Result<Status, String> {
    if b.color_at(targets[0]) != b.color_at(targets[1]) {
        return Err("the two blocks are not of one colour".into());
    }
    let one = |t: usize| -> Result<Capture, String> {
        Ok(Capture::new(*b, t, escape_libs, gen)
            .map_err(|e| e.0)?
            .with_first(first)
            .with_complete(Some(complete)))
    };
    let (a, c) = (one(targets[0])?, one(targets[1])?);
    let root = Node {
        t: [a, c],
        escaped: [false; 2],
    }
    .step_flags();
    let mut p = EitherProblem { stack: vec![root] };
    let tt = Table::with_mb(crate::capture::TABLE_MB);
    Ok(dfpn::search_with(&mut p, Plain::default(), &tt, limits, &path_options()).status)
}

/// The first visit limit of [`split_capture`]'s single-target searches;
/// each round after it ten times the one before, up to the question's
/// limit (as [`crate::capture::deepening`]).
const SPLIT_FROM: u64 = 3_000;

/// Table size of [`split_capture`]'s searches, in MiB.
const SPLIT_TABLE_MB: usize = 64;

/// `attack_either` proven one target at a time: an attacker move `m`
/// after which every defender reply `d` (every legal point and the pass)
/// leaves one of the targets captured by the single-target searches that
/// `attack` runs for a capture ([`crate::capture::attack_decided`]): the
/// capture with the defender playing every point under the capture
/// horizon ([`crate::capture::capture_question`]), its attacker widened
/// (`capture::widen`), and both sides on every point. Returns
/// `m`, or `None` when no move is proven so within `limits` (visits per
/// search, 3,000 and then ten times more a round; the time; the stop flag).
///
/// Why it is sound. After `m` and `d` the attacker plays the single proof
/// against a target `t`: every line of it ends with `t` captured and
/// never has `t` at its escape threshold, so in this problem too the line
/// ends in a capture (an earlier capture of the other target ends it
/// sooner, also won), no escape flag of `t` is set on it, and `t` is
/// counted only where its flag is not set at the root, after `m` or after
/// `d`. Each search is given the line above it (the root and the position
/// after `m`, as history keys of the question it asks:
/// `PathOptions::prefix`), so a repetition of either is the attacker's
/// failure there, as it is here; its repetitions are read on the board,
/// the ko point and the question, no finer than this problem's. A move `m`
/// that takes a target with a retake pending is left to df-pn, so those
/// keys are the same for both targets. The replies cover every move this
/// problem's complete defender has. Each target has its own table, each
/// with its own memory (a capture position's key holds the target since
/// 2026-11-30, so the tables are kept apart for their memory, not their
/// keys).
///
/// Why it is needed. df-pn on the two-target problem has no zones: on
/// 19x19 each defender node has some 250 moves, and GNU Go's
/// `attack_either` cases (tactics1 101, 103, 104: a double threat after
/// one attacker move) were unknown at 20 million visits. Each single
/// search has λ-df-pn's zones, the ladder rule and the capture horizon,
/// each made to see the line (`lambda::LambdaProblem::on_line`: the
/// points emptied since the root or `m` are given, so the defender's
/// nodes keep their zones).
pub fn split_capture(
    b: &Board,
    targets: [usize; 2],
    (gen, escape_libs): (Generator, u32),
    solver: &crate::capture::Solver,
    limits: &Limits,
) -> Result<Option<Move>, String> {
    let defender = b.color_at(targets[0]).ok_or("the target is empty")?;
    if b.color_at(targets[1]) != Some(defender) {
        return Err("the two blocks are not of one colour".into());
    }
    let attacker = defender.opponent();
    let one = |t: usize| -> Result<Capture, String> {
        Ok(Capture::new(*b, t, escape_libs, gen)
            .map_err(|e| e.0)?
            .with_first(attacker)
            .with_complete(Some(defender)))
    };
    let root = [one(targets[0])?, one(targets[1])?];
    // Which targets may still be captured: not escaped at the root.
    let open0 = root.map(|c| !c.escaped());
    // The attacker's candidates: either target's generator moves.
    let cand = root[0].candidates() | root[1].candidates();
    let mut moves = Vec::new();
    root[0].board().legal_points(Some(&cand), true, &mut moves);
    // The liberties of both targets first, then those of either, then the
    // rest (each part in the board's order).
    let (l0, l1) = (root[0].target_libs(), root[1].target_libs());
    moves.sort_by_key(|m| match m {
        Move::Play(p) => 2 - l0.get(*p as usize) as u8 - l1.get(*p as usize) as u8,
        Move::Pass => 3,
    });
    let deadline = limits
        .time
        .and_then(|t| std::time::Instant::now().checked_add(t));
    let spent = || {
        deadline.is_some_and(|d| std::time::Instant::now() >= d)
            || limits
                .stop
                .as_ref()
                .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
    };
    let top = limits.visits.unwrap_or(u64::MAX);
    // A table per target, each with its own memory. (Until 2026-11-30 a
    // capture position's key did not hold the target, and one table for
    // both read one target's disproof as the other's; now it does.)
    let tables = [0, 1].map(|_| Table::with_mb(SPLIT_TABLE_MB));
    // The target searched first: the one with fewer liberties (then the
    // lower point), so that the order of the two names changes nothing.
    let short = |i: usize| (root[i].target_libs().count(), targets[i]);
    let easier = usize::from(short(1) < short(0));
    let mut killers: Vec<Move> = Vec::new();
    let mut v = SPLIT_FROM.min(top);
    loop {
        for &m in &moves {
            if spent() {
                return Ok(None);
            }
            let mut after = root;
            for c in after.iter_mut() {
                c.play(m);
            }
            // A capture at once (the rules' own outcome: GNU Go's snapback
            // rule may hold it back).
            let won = |c: &Capture| {
                c.outcome()
                    .is_some_and(|o| (o == Outcome::Win) == (c.board().to_move() == attacker))
            };
            if after.iter().zip(open0).any(|(c, o)| o && won(c)) {
                return Ok(Some(m));
            }
            if after
                .iter()
                .any(|c| c.outcome().is_some() || c.pending_retake())
            {
                // (A target escaped or taken with a retake pending: left to
                // df-pn. Otherwise the line's positions below have the same
                // history keys for either target.)
                continue;
            }
            let open1 = [0, 1].map(|i| open0[i] && !after[i].escaped());
            if open1 == [false, false] {
                continue;
            }
            // The line above `d`, in the key space of the question asked
            // (a history key holds its complete side and generator).
            let line = |q: &Capture| {
                [root[0], after[0]].map(|c| {
                    c.with_complete(q.complete())
                        .with_generator(q.generator())
                        .history_key()
                })
            };
            let stones = |c: &Capture| {
                let b = c.board();
                b.stones(Color::Black) | b.stones(Color::White)
            };
            let mut replies = Vec::new();
            after[0].board().legal_points(None, true, &mut replies);
            replies.push(Move::Pass);
            // The likeliest refutations first: the replies among the
            // generator's moves.
            let near = after[0].candidates() | after[1].candidates();
            replies.sort_by_key(|d| matches!(d, Move::Play(p) if !near.get(*p as usize)));
            // Then the replies that refuted other moves (most recent first).
            for &k in killers.iter().rev() {
                if let Some(i) = replies.iter().position(|&d| d == k) {
                    replies[..=i].rotate_right(1);
                }
            }
            let mut first = easier;
            let mut refutation = None;
            let refuted = replies.iter().any(|&d| {
                if spent() {
                    return true;
                }
                let mut next = after;
                for c in next.iter_mut() {
                    c.play(d);
                }
                let lim = Limits {
                    visits: Some(v),
                    time: deadline.map(|d| d.saturating_duration_since(std::time::Instant::now())),
                    stop: limits.stop.clone(),
                    ..Default::default()
                };
                for i in [first, 1 - first] {
                    let c = &next[i];
                    if !open1[i] || c.outcome().is_some() {
                        continue;
                    }
                    let q = crate::capture::capture_question(c);
                    let tt = &tables[i];
                    // The points empty here that hold a stone at the root
                    // or after `m` (`lambda::search_on_line`).
                    let emptied = (stones(&root[0]) | stones(&after[0])).minus(&stones(c));
                    let status = |q: &Capture| {
                        let on = (&line(q)[..], Some(emptied));
                        crate::certify::status_within(solver, q, on, &lim, tt)
                    };
                    // A failure with the attacker within the generator is
                    // no failure in Go: the attacker's generator is widened
                    // (`capture::widen`), as `attack` does.
                    let proven = match status(&q) {
                        Status::Proven => true,
                        Status::Disproven => crate::capture::widen(&q, status).is_some(),
                        Status::Unknown => false,
                    } || {
                        // Both sides on every point, the attacker's moves
                        // zoned: `attack`'s escape half widened to the
                        // board, whose proof is a capture.
                        let a = c
                            .with_complete(Some(attacker))
                            .with_generator(Generator::Board);
                        status(&a) == Status::Proven
                    };
                    if proven {
                        first = i;
                        return false;
                    }
                }
                refutation = Some(d);
                true
            });
            if let Some(d) = refutation {
                killers.retain(|&k| k != d);
                killers.push(d);
            }
            if !refuted && !spent() {
                return Ok(Some(m));
            }
        }
        if v >= top || spent() {
            return Ok(None);
        }
        v = v.saturating_mul(10).min(top);
    }
}

impl Node {
    /// The root's escape flags (a target may have escaped already).
    fn step_flags(mut self) -> Node {
        for (c, e) in self.t.iter().zip(self.escaped.iter_mut()) {
            *e = c.escaped();
        }
        self
    }
}

/// GTP `attack_either A B` (`attack`: the attacker to move) and
/// `defend_both A B` (otherwise: their owner to move). `attack_either`
/// answers `1` when the capture of one is proven, one target at a time
/// ([`split_capture`] with `solver`, first: with three quarters of `time`,
/// or without a time limit its first round alone) or by df-pn on both
/// with the defender on every point (the attacker within `gen`, the
/// generator), and `0` when that df-pn search with
/// the attacker on every point disproves it (the first search's disproof,
/// with the attacker bounded by the generator, is no answer);
/// `defend_both` answers the other way round, by the two df-pn searches.
/// Unknown (an error) past `visits` per search or `time` in all, or once
/// `stop` is set (the searches read it).
pub fn gtp_answer(
    b: &Board,
    targets: [usize; 2],
    attack: bool,
    (gen, solver): (Generator, &crate::capture::Solver),
    visits: u64,
    time: Option<std::time::Duration>,
    stop: Option<Arc<AtomicBool>>,
) -> Result<String, String> {
    let defender = b.color_at(targets[0]).ok_or("the target is empty")?;
    let attacker = defender.opponent();
    let first = if attack { attacker } else { defender };
    // `time` bounds every search together.
    let deadline = time.map(|t| (std::time::Instant::now(), t));
    if attack {
        // One target at a time first, with 3/4 of the time (df-pn on the
        // two-target problem, which has no zones, answers few such cases
        // on 19x19). Without a time limit its deeper rounds, some 250
        // replies a move each with searches of up to `visits`, would not
        // end within a time like the df-pn's; they run only within one.
        let split_visits = match time {
            Some(_) => visits,
            None => visits.min(SPLIT_FROM),
        };
        let limits = Limits {
            visits: Some(split_visits),
            time: time.map(|t| t * 3 / 4),
            stop: stop.clone(),
            ..Default::default()
        };
        let how = (gen, DEFAULT_ESCAPE_LIBS);
        if split_capture(b, targets, how, solver, &limits)?.is_some() {
            return Ok("1".into());
        }
    }
    let ask = |complete| {
        let left = deadline.map(|(t0, t)| t.saturating_sub(t0.elapsed()));
        either_status(
            b,
            targets,
            (first, complete),
            gen,
            DEFAULT_ESCAPE_LIBS,
            &Limits {
                visits: Some(visits),
                time: left,
                stop: stop.clone(),
                ..Default::default()
            },
        )
    };
    if ask(defender)? == Status::Proven {
        return Ok(if attack { "1" } else { "0" }.into());
    }
    if ask(attacker)? == Status::Disproven {
        return Ok(if attack { "0" } else { "1" }.into());
    }
    Err(crate::gtp::unknown_within(visits, time))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pns_core::rng::Rng;

    /// The exact value of "the attacker captures one" at `n` (both sides
    /// on every point and the pass), by plain minimax over the line
    /// `path` (history keys; a repetition is the attacker's failure);
    /// `None` past `left` nodes.
    fn minimax(n: &Node, path: &mut Vec<u64>, left: &mut u64) -> Option<bool> {
        if n.live().any(|c| c.captured()) {
            return Some(true);
        }
        if n.escaped == [true, true] {
            return Some(false);
        }
        let key = n.t[0].key();
        if path.contains(&key) {
            return Some(false);
        }
        *left = left.checked_sub(1)?;
        let mut moves = Vec::new();
        n.board().legal_points(None, true, &mut moves);
        moves.push(Move::Pass);
        path.push(key);
        let or = n.attacker_to_move();
        let mut value = !or;
        for m in moves {
            let v = minimax(&n.step(m), path, left);
            match v {
                None => {
                    path.pop();
                    return None;
                }
                Some(v) if v == or => {
                    value = or;
                    break;
                }
                _ => {}
            }
        }
        path.pop();
        Some(value)
    }

    /// Two black blocks of `b` drawn at random as the targets (a stone of
    /// each), each with at least `min_libs` liberties; `None` where `b`
    /// has fewer than two black blocks or one without a liberty.
    fn two_targets(rng: &mut Rng, b: &Board, min_libs: u32) -> Option<[usize; 2]> {
        let blocks = b.blocks(Color::Black);
        if blocks.len() < 2 || blocks.iter().any(|k| b.liberties(k).is_empty()) {
            return None;
        }
        let i = rng.below(blocks.len() as u64) as usize;
        let j = (i + 1 + rng.below(blocks.len() as u64 - 1) as usize) % blocks.len();
        if [i, j]
            .iter()
            .any(|&k| b.liberties(&blocks[k]).count() < min_libs)
        {
            return None;
        }
        Some([i, j].map(|k| blocks[k].first().unwrap()))
    }

    /// The two-target problem on `b` at `targets`, escaped at `libs`
    /// liberties, `first` to move; `None` where a target has escaped
    /// already (or `Capture::new` refuses the position).
    fn root_of(
        b: &Board,
        targets: [usize; 2],
        libs: u32,
        gen: Generator,
        first: Color,
    ) -> Option<Node> {
        let one = |t: usize| {
            Capture::new(*b, t, libs, gen)
                .ok()
                .map(|c| c.with_first(first))
        };
        let root = Node {
            t: [one(targets[0])?, one(targets[1])?],
            escaped: [false; 2],
        }
        .step_flags();
        (!root.escaped.contains(&true)).then_some(root)
    }

    /// Random 4x4 and 5x5 boards with two blocks of one colour as the
    /// targets (escaped at 2 or 3 liberties), the attacker to move: where
    /// the one-target-at-a-time proof names a move, the exact value of the
    /// position after that move is a capture of one (and so of the root),
    /// with λ-df-pn with zones and with df-pn as the single searches; it
    /// answers a good share of the captures, and the exact value of some
    /// cases is no capture (the proofs are not vacuous).
    #[test]
    fn split_captures_agree_with_minimax() {
        use crate::capture::Solver;
        use crate::lambda::LambdaParams;
        let mut rng = Rng::new(20261130);
        let solvers = [Solver::Lambda(LambdaParams::zoned()), Solver::Dfpn];
        let (mut cases, mut won, mut proven, mut checked) = (0, 0, [0; 2], [0; 2]);
        while cases < 60 {
            let size = 4 + rng.below(2) as usize;
            let b = Board::random(&mut rng, size, 3, 3);
            // No target in atari: no capture in one move.
            let Some(targets) = two_targets(&mut rng, &b, 2) else {
                continue;
            };
            let libs = 3 + rng.below(2) as u32;
            let Some(root) = root_of(&b, targets, libs, Generator::H1, Color::White) else {
                continue;
            };
            let Some(exact) = minimax(&root, &mut Vec::new(), &mut 20_000) else {
                continue;
            };
            cases += 1;
            won += exact as usize;
            let limits = Limits {
                visits: Some(3_000),
                ..Default::default()
            };
            for (k, solver) in solvers.iter().enumerate() {
                let b = *root.board();
                let found =
                    split_capture(&b, targets, (Generator::H1, libs), solver, &limits).unwrap();
                let Some(m) = found else { continue };
                proven[k] += 1;
                // (The position after the move, with the root on its line;
                // unchecked where the exact search runs out of nodes.)
                let after = root.step(m);
                let mut path = vec![root.t[0].key()];
                if let Some(value) = minimax(&after, &mut path, &mut 200_000) {
                    checked[k] += 1;
                    assert!(value, "{}\n{targets:?} {libs} {m:?} {solver:?}", b.render());
                }
            }
        }
        eprintln!(
            "{cases} cases, {won} won, {proven:?} proven one target at a time, {checked:?} checked"
        );
        assert!(won >= 10 && cases - won >= 5, "{won} of {cases} won");
        assert!(proven.iter().all(|&p| p * 2 >= won), "{proven:?} of {won}");
        assert!(checked.iter().all(|&c| c >= 10), "{checked:?} checked");
    }

    /// Random 4x4 boards with two blocks of one colour as the targets
    /// (escaped at 2 or 3 liberties), either side to move: the search with
    /// the defender on every point and the one with the attacker on every
    /// point (the other side too, with the board generator) each give the
    /// minimax value or unknown, and both answer most of them; both
    /// values occur.
    #[test]
    fn either_agrees_with_minimax_on_tiny_boards() {
        let mut rng = Rng::new(20261127);
        let (mut cases, mut answered, mut won) = (0, 0, 0);
        while cases < 80 {
            let b = Board::random(&mut rng, 4, 3, 2);
            let Some(targets) = two_targets(&mut rng, &b, 1) else {
                continue;
            };
            let first = [Color::Black, Color::White][rng.below(2) as usize];
            let libs = 2 + rng.below(2) as u32;
            let Some(root) = root_of(&b, targets, libs, Generator::Board, first) else {
                continue;
            };
            let Some(exact) = minimax(&root, &mut Vec::new(), &mut 20_000) else {
                continue;
            };
            cases += 1;
            won += exact as usize;
            for complete in [Color::White, Color::Black] {
                let s = either_status(
                    &b,
                    targets,
                    (first, complete),
                    Generator::Board,
                    libs,
                    &Limits {
                        visits: Some(20_000),
                        ..Default::default()
                    },
                )
                .unwrap();
                if s != Status::Unknown {
                    answered += 1;
                    assert_eq!(
                        s == Status::Proven,
                        exact,
                        "{}\n{targets:?} {first:?} {libs}",
                        b.render()
                    );
                }
            }
        }
        assert!(
            answered > 130 && won >= 5 && cases - won >= 5,
            "{answered} answered, {won} won"
        );
        eprintln!("{cases} cases, {answered} answers, {won} won");
    }
}
