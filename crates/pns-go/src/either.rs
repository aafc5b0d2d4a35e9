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
/// answers `1` when the capture of one is proven with the defender on
/// every point and `0` when it is disproven with the attacker on every
/// point (the first search's disproof, with the attacker bounded by the
/// generator, is no answer); `defend_both` answers the other way round.
/// Unknown (an error) past `visits` per search or `time` in all, or once
/// `stop` is set (the searches read it).
pub fn gtp_answer(
    b: &Board,
    targets: [usize; 2],
    attack: bool,
    gen: Generator,
    visits: u64,
    time: Option<std::time::Duration>,
    stop: Option<Arc<AtomicBool>>,
) -> Result<String, String> {
    let defender = b.color_at(targets[0]).ok_or("the target is empty")?;
    let attacker = defender.opponent();
    let first = if attack { attacker } else { defender };
    // `time` bounds both searches together.
    let deadline = time.map(|t| (std::time::Instant::now(), t));
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
            let blocks = b.blocks(Color::Black);
            if blocks.len() < 2 || blocks.iter().any(|k| b.liberties(k).is_empty()) {
                continue;
            }
            let i = rng.below(blocks.len() as u64) as usize;
            let j = (i + 1 + rng.below(blocks.len() as u64 - 1) as usize) % blocks.len();
            let targets = [blocks[i].first().unwrap(), blocks[j].first().unwrap()];
            let first = [Color::Black, Color::White][rng.below(2) as usize];
            let libs = 2 + rng.below(2) as u32;
            let Ok(t0) = Capture::new(b, targets[0], libs, Generator::Board) else {
                continue;
            };
            let Ok(t1) = Capture::new(b, targets[1], libs, Generator::Board) else {
                continue;
            };
            let root = Node {
                t: [t0.with_first(first), t1.with_first(first)],
                escaped: [false; 2],
            }
            .step_flags();
            if root.escaped.contains(&true) {
                continue;
            }
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
