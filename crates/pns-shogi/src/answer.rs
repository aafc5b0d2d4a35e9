//! The tsume answer: once df-pn has proven a mate, the problem's stated
//! length is the *shortest* mate against the *longest* defence, where the
//! defender's futile interpositions ([`Tsume::is_futile_drop`]) are not
//! counted (a defender left with only futile drops is mated). df-pn proves
//! a mate but not the shortest one, so the length comes from an exact
//! minimax over mate lengths, deepened by two plies at a time (1, 3, 5,
//! ...) with a table of exact values and "no mate within d" bounds.
//!
//! Repetitions are not tracked here: a shortest mate never repeats a
//! position (the repeated stretch could be cut out), and a defence that
//! repeats only gives the attacker the same, shorter, continuation.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

use pns_core::prelude::*;

use pns_core::certificate::{Block, Certificate, Node};
use pns_core::game::Goal;
use pns_core::{Outcome, Status};

use crate::position::Move;
use crate::tsume::Tsume;

#[derive(Clone, Copy, Debug)]
enum Entry {
    /// The exact value: the shortest mate (attacker to move) or the
    /// longest defence (defender to move), in plies.
    Exact(u32),
    /// No mate within this many plies.
    NoneWithin(u32),
}

/// Whether a caller's limits end work now: `deadline` passed or `stop`
/// set (the length search, the proof reading and the answer share it).
pub(crate) fn expired(
    deadline: Option<std::time::Instant>,
    stop: Option<&Arc<AtomicBool>>,
) -> bool {
    deadline.is_some_and(|d| std::time::Instant::now() >= d)
        || stop.is_some_and(|s| s.load(Relaxed))
}

/// The search ran out of its node budget (or past its deadline).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfBudget;

/// Exact mate lengths by depth-limited minimax.
pub struct MateLength {
    memo: HashMap<u64, Entry>,
    /// Positions visited.
    pub nodes: u64,
    budget: u64,
    /// Give up after this instant too (a caller's time limit).
    deadline: Option<std::time::Instant>,
    /// Give up when this is set (a caller's `stop`).
    stop: Option<Arc<AtomicBool>>,
    /// Count futile interpositions as defences (off for the tsume answer;
    /// on to show what the rule changes).
    pub count_futile_drops: bool,
}

/// The answer to a proven problem: its length and its main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateLine {
    /// Plies of the shortest mate against the longest defence.
    pub length: u32,
    /// The main line: attacker's shortest mating moves, defender's longest
    /// non-futile defences.
    pub moves: Vec<Move>,
}

impl MateLength {
    /// A search that visits at most `budget` positions.
    pub fn new(budget: u64) -> Self {
        MateLength {
            memo: HashMap::new(),
            nodes: 0,
            budget,
            deadline: None,
            stop: None,
            count_futile_drops: false,
        }
    }

    /// The same search, giving up at `deadline` as well: a time limit
    /// bounds the whole answer, not only the proof search before it.
    pub fn with_deadline(mut self, deadline: Option<std::time::Instant>) -> Self {
        self.deadline = deadline;
        self
    }

    /// The same search, giving up when `stop` is set as well.
    pub fn with_stop(mut self, stop: Option<Arc<AtomicBool>>) -> Self {
        self.stop = stop;
        self
    }

    /// Lets the search visit `more` positions beyond those it has visited:
    /// one search reused for many bounded questions keeps its table.
    pub fn allow(&mut self, more: u64) {
        self.budget = self.nodes.saturating_add(more);
    }

    /// Positions in the search's table.
    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }

    /// Empties the search's table (its memory), keeping the count.
    pub fn forget(&mut self) {
        self.memo = HashMap::new();
    }

    fn tick(&mut self) -> Result<(), OutOfBudget> {
        self.nodes += 1;
        // The clock every 4,096 positions: reading it costs more than a
        // position's bookkeeping.
        let late = self.nodes & 4095 == 0 && expired(self.deadline, self.stop.as_ref());
        if self.nodes > self.budget || late {
            Err(OutOfBudget)
        } else {
            Ok(())
        }
    }

    fn cached(&self, key: u64, d: u32) -> Option<Option<u32>> {
        match self.memo.get(&key)? {
            Entry::Exact(v) => Some((*v <= d).then_some(*v)),
            Entry::NoneWithin(w) if d <= *w => Some(None),
            _ => None,
        }
    }

    fn store(&mut self, key: u64, d: u32, r: Option<u32>) {
        let e = match r {
            Some(v) => Entry::Exact(v),
            None => match self.memo.get(&key) {
                Some(Entry::NoneWithin(w)) if *w >= d => return,
                _ => Entry::NoneWithin(d),
            },
        };
        self.memo.insert(key, e);
    }

    /// The shortest mate from `t` (attacker to move) within `d` plies.
    pub fn attack(&mut self, t: &Tsume, d: u32) -> Result<Option<u32>, OutOfBudget> {
        if d == 0 {
            return Ok(None);
        }
        let key = t.key();
        if let Some(r) = self.cached(key, d) {
            return Ok(r);
        }
        self.tick()?;
        let mut moves = Vec::with_capacity(32);
        t.search_moves(&mut moves);
        let mut best: Option<u32> = None;
        for m in moves {
            let limit = match best {
                Some(1) => break,
                Some(b) => b - 2,
                None => d - 1,
            };
            let mut c = t.clone();
            c.play(m);
            if let Some(l) = self.defend(&c, limit)? {
                best = Some(1 + l);
            }
        }
        self.store(key, d, best);
        Ok(best)
    }

    /// The longest defence from `t` (defender to move) if every counted
    /// defence is mated within `d` plies.
    pub fn defend(&mut self, t: &Tsume, d: u32) -> Result<Option<u32>, OutOfBudget> {
        let key = t.key();
        if let Some(r) = self.cached(key, d) {
            return Ok(r);
        }
        self.tick()?;
        let mut moves = Vec::with_capacity(64);
        t.search_moves(&mut moves);
        let counted: Vec<Move> = moves
            .into_iter()
            .filter(|&m| self.count_futile_drops || !t.is_futile_drop(m))
            .collect();
        if counted.is_empty() {
            self.store(key, d, Some(0));
            return Ok(Some(0));
        }
        if d == 0 {
            return Ok(None);
        }
        let mut worst = 0;
        for m in counted {
            let mut c = t.clone();
            c.play(m);
            match self.attack(&c, d - 1)? {
                Some(l) => worst = worst.max(1 + l),
                None => {
                    self.store(key, d, None);
                    return Ok(None);
                }
            }
        }
        self.store(key, d, Some(worst));
        Ok(Some(worst))
    }

    /// The tsume answer from `root` (attacker to move) if there is a mate
    /// within `max_len` plies: deepening 1, 3, 5, ... then the main line.
    pub fn solve(&mut self, root: &Tsume, max_len: u32) -> Result<Option<MateLine>, OutOfBudget> {
        let mut d = 1;
        while d <= max_len {
            if let Some(len) = self.attack(root, d)? {
                let moves = self.main_line(root, len)?;
                return Ok(Some(MateLine { length: len, moves }));
            }
            d += 2;
        }
        Ok(None)
    }

    /// The main line of a mate of exactly `len` plies from `root`.
    fn main_line(&mut self, root: &Tsume, len: u32) -> Result<Vec<Move>, OutOfBudget> {
        let mut line = Vec::new();
        let mut t = root.clone();
        let mut left = len;
        while left > 0 {
            let mut moves = Vec::new();
            t.search_moves(&mut moves);
            let mut next = None;
            if t.attacker_to_move() {
                for m in moves {
                    let mut c = t.clone();
                    c.play(m);
                    if self.defend(&c, left - 1)? == Some(left - 1) {
                        next = Some(m);
                        break;
                    }
                }
            } else {
                let counted = self.count_futile_drops;
                for m in moves
                    .into_iter()
                    .filter(|&m| counted || !t.is_futile_drop(m))
                {
                    let mut c = t.clone();
                    c.play(m);
                    if self.attack(&c, left - 1)? == Some(left - 1) {
                        next = Some(m);
                        break;
                    }
                }
            }
            // The values are exact, so a move of the right value exists.
            let m = next.expect("a move keeping the mate length");
            line.push(m);
            t.play(m);
            left -= 1;
        }
        Ok(line)
    }
}

/// A certificate of a mate (thesis ch. 4's proof tree, written as the
/// engine's certificate DAG): at the attacker's nodes one check, at the
/// defender's *every* legal reply, futile interpositions included, down to
/// mates. It is built from exact mate distances (every evasion counted),
/// so the distance falls by one at each ply: no line of it repeats a
/// position, and the engine's path-aware verifier accepts it on the rules
/// alone. Far cheaper than the engine's generic extractor here, whose
/// sub-searches under a repetition rule start from an empty key space.
pub fn mate_certificate(
    root: &Tsume,
    position: &str,
    budget: u64,
    max_len: u32,
) -> Result<Certificate, String> {
    let mut ml = MateLength::new(budget);
    ml.count_futile_drops = true;
    let too_long = || format!("no mate within {max_len} plies with every evasion counted");
    let out = |_| format!("the certificate search passed {budget} positions");
    let mut d = 1;
    let len = loop {
        if d > max_len {
            return Err(too_long());
        }
        if let Some(l) = ml.attack(root, d).map_err(out)? {
            break l;
        }
        d += 2;
    };
    let mut ids: HashMap<u64, u32> = HashMap::new();
    let mut nodes: Vec<Option<Node>> = Vec::new();
    // Explicit stack: (position, exact distance, node id).
    let mut todo = vec![(root.clone(), len, 0u32)];
    ids.insert(root.key(), 0);
    nodes.push(None);
    while let Some((t, v, id)) = todo.pop() {
        let mut moves = Vec::new();
        t.search_moves(&mut moves);
        let mut edges = Vec::new();
        let mut children = Vec::new();
        if t.attacker_to_move() {
            for m in moves {
                let mut c = t.clone();
                c.play(m);
                if let Some(w) = ml.defend(&c, v - 1).map_err(out)? {
                    if w == v - 1 {
                        children.push((m, c, w));
                        break;
                    }
                }
            }
            if children.is_empty() {
                return Err(format!("no check keeps the mate in {v} in {t:?}"));
            }
        } else {
            for m in moves {
                let mut c = t.clone();
                c.play(m);
                match ml.attack(&c, v.saturating_sub(1)).map_err(out)? {
                    Some(w) => children.push((m, c, w)),
                    None => return Err(format!("{m:?} escapes the mate in {v} in {t:?}")),
                }
            }
        }
        for (m, c, w) in children {
            let key = c.key();
            let cid = match ids.get(&key) {
                Some(&i) => i,
                None => {
                    let i = nodes.len() as u32;
                    ids.insert(key, i);
                    nodes.push(None);
                    todo.push((c, w, i));
                    i
                }
            };
            edges.push((m.usi(), cid));
        }
        nodes[id as usize] = Some(Node::Moves(edges));
    }
    Ok(Certificate {
        game: "tsume".to_string(),
        position: position.to_string(),
        value: Outcome::Win,
        blocks: vec![Block {
            goal: Goal::Win,
            claim: Status::Proven,
            nodes: nodes
                .into_iter()
                .map(|n| n.expect("every node built"))
                .collect(),
        }],
    })
}

/// The main line of a proof certificate's block: the attacker's one move
/// at each of its nodes, the defender's longest (non-futile) defence
/// within the proof at each of the defender's. A mate, but perhaps not the
/// shortest: the fallback when the exact length search is out of reach.
pub fn proof_line(root: &Tsume, block: &Block) -> Result<MateLine, String> {
    /// A node's depth and its chosen move and child.
    type Memo = HashMap<usize, (u32, Option<(Move, usize)>)>;
    // Depth of each node (plies to the mate along the longest counted
    // defence), computed children first.
    fn depth(
        t: &Tsume,
        id: usize,
        block: &Block,
        memo: &mut Memo,
        stack: usize,
    ) -> Result<u32, String> {
        if let Some(&(d, _)) = memo.get(&id) {
            return Ok(d);
        }
        if stack > 100_000 {
            return Err("the proof is too deep to read".into());
        }
        let Node::Moves(moves) = &block.nodes[id] else {
            return Err(format!("node {id} is not a list of moves"));
        };
        let mut best: Option<(u32, Option<(Move, usize)>)> = None;
        for (text, child) in moves {
            let m = t.parse_move(text).map_err(|e| e.0)?;
            if !t.attacker_to_move() && t.is_futile_drop(m) {
                continue;
            }
            let mut c = t.clone();
            c.play(m);
            let d = 1 + depth(&c, *child as usize, block, memo, stack + 1)?;
            let better = match best {
                None => true,
                Some((b, _)) => {
                    if t.attacker_to_move() {
                        d < b
                    } else {
                        d > b
                    }
                }
            };
            if better {
                best = Some((d, Some((m, *child as usize))));
            }
        }
        let v = best.unwrap_or((0, None));
        memo.insert(id, v);
        Ok(v.0)
    }
    let mut memo = HashMap::new();
    let length = depth(root, 0, block, &mut memo, 0)?;
    let mut moves = Vec::new();
    let mut id = 0;
    while let Some(&(_, Some((m, child)))) = memo.get(&id) {
        moves.push(m);
        id = child;
    }
    Ok(MateLine { length, moves })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(sfen: &str, count_futile: bool) -> MateLine {
        let t = Tsume::parse(sfen).unwrap();
        let mut ml = MateLength::new(1_000_000);
        ml.count_futile_drops = count_futile;
        ml.solve(&t, 15).unwrap().unwrap()
    }

    #[test]
    fn futile_interpositions_are_not_counted() {
        // antma's tsume1_futile_drops: the dragon's check from afar can be
        // blocked by drops the dragon just takes: a mate in 1 that would
        // be longer if those drops counted.
        for sfen in [
            "6Snl/5+Rg1k/6ppp/9/9/9/9/9/9 b r2b3g3s3n3l15p 1",
            "6Snl/5+Rg1k/6pps/9/9/9/9/9/8L b r2b3g2s3n2l16p 1",
        ] {
            let a = answer(sfen, false);
            assert_eq!(a.length, 1, "{sfen}");
            assert_eq!(a.moves.len(), 1);
            assert!(answer(sfen, true).length > 1, "{sfen}");
        }
    }

    #[test]
    fn mate_certificates_verify_and_tampering_is_rejected() {
        use pns_core::verify::verify;
        for sfen in [
            "9/9/9/4k4/9/4P4/9/9/9 b 4G2r2b4s4n4l17p 1",
            "6Snl/5+Rg1k/6ppp/9/9/9/9/9/9 b r2b3g3s3n3l15p 1",
            "ln1p5/2k1p4/1pgP+P4/p8/1P7/P8/9/9/9 b RG2Sr2b2g2s3n3l10p 1",
        ] {
            let t = Tsume::parse(sfen).unwrap();
            let c = mate_certificate(&t, sfen, 10_000_000, 31).unwrap();
            assert_eq!(verify(&t, &c), Ok(Outcome::Win), "{sfen}");
            // Through the text form too.
            let c2 = Certificate::parse(&c.to_text()).unwrap();
            assert_eq!(verify(&t, &c2), Ok(Outcome::Win));
            // A defender's reply left out: rejected.
            let mut bad = c.clone();
            let nodes = &mut bad.blocks[0].nodes;
            let i = nodes
                .iter()
                .position(|n| matches!(n, Node::Moves(e) if e.len() > 1))
                .expect("a node with two replies");
            if let Node::Moves(e) = &mut nodes[i] {
                e.pop();
            }
            assert!(verify(&t, &bad).is_err(), "{sfen}");
            // A check replaced by a non-checking or illegal move: rejected.
            let mut bad = c.clone();
            if let Node::Moves(e) = &mut bad.blocks[0].nodes[0] {
                e[0].0 = "1i1h".to_string();
            }
            assert!(verify(&t, &bad).is_err());
        }
    }

    #[test]
    fn pawn_drop_mate_certificate_is_rejected() {
        use pns_core::verify::verify;
        // kn7/1s7/9/1N7 with a pawn in hand: P*9b would mate, which the
        // rules forbid, so a certificate claiming it must fail.
        let sfen = "kn7/1s7/9/1N7/9/9/9/9/9 b P2r2b4g3s2n4l17p 1";
        let t = Tsume::parse(sfen).unwrap();
        let c = Certificate {
            game: "tsume".into(),
            position: sfen.into(),
            value: Outcome::Win,
            blocks: vec![Block {
                goal: Goal::Win,
                claim: Status::Proven,
                nodes: vec![Node::Moves(vec![("P*9b".into(), 1)]), Node::Moves(vec![])],
            }],
        };
        assert!(verify(&t, &c).is_err());
    }

    #[test]
    fn main_line_ends_in_mate() {
        let sfen = "9/9/9/4k4/9/4P4/9/9/9 b 4G2r2b4s4n4l17p 1";
        let a = answer(sfen, false);
        assert_eq!(a.length, 7);
        let mut t = Tsume::parse(sfen).unwrap();
        for &m in &a.moves {
            let mut v = Vec::new();
            t.legal_moves(&mut v);
            assert!(v.contains(&m), "{m:?} not legal in {t:?}");
            t.play(m);
        }
        assert!(!t.attacker_to_move());
        assert_eq!(t.outcome(), Some(pns_core::Outcome::Loss));
    }
}
