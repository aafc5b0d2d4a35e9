//! A mate's proof tree read back from the table of the df-pn search that
//! proved it: at the attacker's nodes one check, at the defender's *every*
//! legal reply (futile interpositions included), down to mates. It is the
//! proof tree of the DeepPN thesis §2.1.1 written as the engine's
//! certificate DAG, for the rules-only verifier, and its longest counted
//! defence is the problem's main line.
//!
//! This is what a mate too long for the exact length search
//! ([`crate::answer::MateLength`]) gets: Microcosmos' 1525 plies, where
//! the engine's generic extractor (whose sub-searches under a repetition
//! rule start from an empty key space) does not finish. The table already
//! holds the proof, under each position's own key or as proof pieces
//! ([`crate::hands`]: a position is proven when a stored proof hand is a
//! subset of its attacker's hand). A position the table lost (replaced or
//! collected) is proven again by a bounded df-pn search on the same table.
//!
//! First the graph of proven positions is explored: every check the table
//! holds proven, every reply. df-pn stops at the first check it proves,
//! which is a mate but not always the shortest, and the problem's length
//! is that of the shortest mate: so where the exact length search finds a
//! mate within a few plies, its first check is the only one taken. Then,
//! in rounds, a retrograde analysis of the graph (mates first, in order of
//! mate length): an attacker's node takes the shortest of its finished
//! children, a defender's node finishes with its last child at the longest
//! counted reply; the other checks along the main line (and along the
//! lines of checks nearly as short) are searched by df-pn and the graph
//! grows, until the line stops changing. A node left unresolved (its
//! checks all lead back into the graph) is opened to all its checks. The
//! length found is the shortest mate the graph holds, not proven the
//! shortest. Every chosen edge goes from a
//! node finished later to one finished earlier, so the proof has no cycle
//! however the graph loops (positions of Microcosmos repeat along many
//! lines); and proofs do not depend on the line under the first-player-loss
//! rule (a repetition only ever counts against the attacker, GHI paper
//! §1.2). The verifier checks the lines again by the rules alone.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use pns_core::certificate::{Block, Certificate, Node};
use pns_core::game::{Goal, GoalContext, Side};
use pns_core::prelude::*;
use pns_core::problem::{goal_key, goal_salt};
use pns_core::{Algo, GoalProblem, Limits, Outcome, Status, Table};

use crate::answer::MateLength;
use crate::position::Move;
use crate::tsume::Tsume;

/// Positions the exact length search's table may hold (about 100 bytes
/// each) before it is emptied.
const EXACT_MEMO: usize = 20_000_000;

/// How the walk may spend its effort.
#[derive(Clone, Debug)]
pub struct WalkLimits {
    /// The search that proves again a position the table lost.
    pub algo: Algo,
    /// Visits each such search may take.
    pub reprove_visits: u64,
    /// Positions the graph may hold.
    pub max_nodes: usize,
    /// Give up at this instant.
    pub deadline: Option<Instant>,
    /// Give up when this is set (a caller's `stop`).
    pub stop: Option<Arc<AtomicBool>>,
    /// The attacker's check is the exact length search's where it finds a
    /// mate within this many plies...
    pub exact_plies: u32,
    /// ... visiting at most this many positions per node.
    pub exact_budget: u64,
    /// Elsewhere each check the table does not hold proven gets a df-pn
    /// search of this many visits (0: none), so that the shortest mate may
    /// be among those the graph holds.
    pub alt_visits: u64,
}

impl WalkLimits {
    /// Whether the walk must give up now (its deadline passed, or stopped).
    fn expired(&self) -> bool {
        crate::answer::expired(self.deadline, self.stop.as_ref())
    }
}

impl Default for WalkLimits {
    fn default() -> Self {
        WalkLimits {
            algo: Algo::default(),
            reprove_visits: 1_000_000,
            max_nodes: 20_000_000,
            deadline: None,
            stop: None,
            exact_plies: 31,
            exact_budget: 3_000,
            alt_visits: 1_000,
        }
    }
}

/// What the walk found and spent.
#[derive(Clone, Debug)]
pub struct TableProof {
    /// The proof tree: node 0 is the root.
    pub block: Block,
    /// The mate's length in it: plies along the longest counted defence
    /// (futile interpositions not counted), the shortest check at each of
    /// the attacker's nodes.
    pub length: u32,
    /// Positions of the explored graph.
    pub explored: usize,
    /// Positions the table did not hold proven, proven again.
    pub reproofs: u64,
    /// Positions whose check the exact length search chose.
    pub exact_nodes: u64,
    /// Positions the exact length search visited in all.
    pub exact_positions: u64,
    /// Searches of checks the table did not hold proven, on main lines.
    pub alt_searches: u64,
    /// Visits of every df-pn search the walk ran (re-proofs and those).
    pub search_visits: u64,
    /// Rounds of the main line's improvement.
    pub rounds: u32,
    /// Rounds that repaired unresolved nodes (a cycle with no way out).
    pub repairs: u32,
}

impl TableProof {
    /// The reading's statistics in a line (for diagnostics).
    pub fn summary(&self) -> String {
        format!(
            "{} nodes ({} explored), {} checks by the exact search ({} positions), \
             {} re-proofs, {} other checks searched ({} visits), {} rounds, {} repairs",
            self.block.nodes.len(),
            self.explored,
            self.exact_nodes,
            self.exact_positions,
            self.reproofs,
            self.alt_searches,
            self.search_visits,
            self.rounds,
            self.repairs
        )
    }

    /// The certificate of this proof for `position` (the root's text).
    pub fn certificate(&self, position: &str) -> Certificate {
        Certificate {
            game: "tsume".to_string(),
            position: position.to_string(),
            value: Outcome::Win,
            blocks: vec![self.block.clone()],
        }
    }
}

/// A position of the explored graph.
struct GNode {
    /// The position (for the searches after exploration).
    pos: Tsume,
    attacker: bool,
    /// The attacker's check is the exact length search's (the shortest).
    exact: bool,
    /// Moves to explored positions: the move, the child, whether the reply
    /// is a futile interposition (not counted in the length).
    edges: Vec<(Move, u32, bool)>,
}

struct Walk<'a> {
    tt: &'a Table,
    lim: &'a WalkLimits,
    ctx: GoalContext,
    ids: HashMap<u64, u32>,
    nodes: Vec<GNode>,
    /// Positions found but not yet expanded.
    todo: Vec<(Tsume, u32)>,
    reproofs: u64,
    exact_nodes: u64,
    alt_searches: u64,
    search_visits: u64,
    /// The exact length search, its table kept across nodes.
    exact: MateLength,
}

impl Walk<'_> {
    /// Whether the table (or the rules) has `t` proven.
    fn proven(&self, t: &Tsume) -> bool {
        self.tt
            .probe(goal_key(t, self.ctx))
            .is_some_and(|h| h.pn == 0)
            || t.shared_status(self.tt, goal_salt(self.ctx), self.ctx) == Status::Proven
            || (!t.attacker_to_move() && t.outcome() == Some(Outcome::Loss))
    }

    /// Proves `t` again on the table; whether it is a mate.
    fn reprove(&mut self, t: &Tsume) -> Result<bool, String> {
        self.reproofs += 1;
        match self.prove(t, self.lim.reprove_visits) {
            Status::Proven => Ok(true),
            Status::Disproven => Ok(false),
            _ => Err(format!(
                "a position the table lost was not proven again within {} visits: {t:?}",
                self.lim.reprove_visits
            )),
        }
    }

    /// A df-pn search of "the attacker mates" from `t` on the table.
    fn prove(&mut self, t: &Tsume, visits: u64) -> Status {
        let mut p = GoalProblem::with_attacker(t.clone(), Goal::Win, Side::First);
        let limits = Limits {
            visits: Some(visits),
            time: self
                .lim
                .deadline
                .map(|d| d.saturating_duration_since(Instant::now())),
            stop: self.lim.stop.clone(),
            ..Limits::default()
        };
        let r = self.lim.algo.run(&mut p, self.tt, &limits);
        self.search_visits += r.stats.visits;
        r.status
    }

    /// The node of position `t`, queued for expansion if new.
    fn id(&mut self, t: Tsume) -> Result<u32, String> {
        let key = t.key();
        if let Some(&id) = self.ids.get(&key) {
            return Ok(id);
        }
        if self.nodes.len() >= self.lim.max_nodes {
            return Err(format!(
                "the proof's graph passed {} positions",
                self.lim.max_nodes
            ));
        }
        let id = self.nodes.len() as u32;
        self.ids.insert(key, id);
        self.nodes.push(GNode {
            pos: t.clone(),
            attacker: t.attacker_to_move(),
            exact: false,
            edges: Vec::new(),
        });
        self.todo.push((t, id));
        Ok(id)
    }

    /// The first check of the shortest mate (futile interpositions not
    /// counted), if the exact length search finds one within
    /// `exact_plies` and its budget.
    fn shortest_check(&mut self, t: &Tsume, moves: &[Move]) -> Option<Move> {
        // Its table is a help, not a need: bounded so that a long proof
        // does not fill the memory beside the search's own table.
        if self.exact.memo_len() > EXACT_MEMO {
            self.exact.forget();
        }
        self.exact.allow(self.lim.exact_budget);
        let mut d = 1;
        while d <= self.lim.exact_plies {
            match self.exact.attack(t, d) {
                Ok(Some(len)) => {
                    return moves.iter().copied().find(|&m| {
                        let mut c = t.clone();
                        c.play(m);
                        self.exact.defend(&c, len - 1) == Ok(Some(len - 1))
                    })
                }
                Ok(None) => d += 2,
                Err(_) => return None,
            }
        }
        None
    }

    /// Searches the checks of `t` (an attacker's node `id`) that are not
    /// in the graph, each within `alt_visits`, and adds those proven;
    /// whether any was.
    fn search_others(&mut self, t: &Tsume, id: u32) -> Result<bool, String> {
        let mut moves = Vec::with_capacity(64);
        t.search_moves(&mut moves);
        let mut grew = false;
        for m in moves {
            if self.nodes[id as usize].edges.iter().any(|e| e.0 == m) {
                continue;
            }
            let mut c = t.clone();
            c.play(m);
            self.alt_searches += 1;
            if self.proven(&c) || self.prove(&c, self.lim.alt_visits) == Status::Proven {
                let cid = self.id(c)?;
                self.nodes[id as usize].edges.push((m, cid, false));
                grew = true;
            }
        }
        Ok(grew)
    }

    /// Expands every position queued.
    fn explore(&mut self) -> Result<(), String> {
        let mut expanded = 0u64;
        while let Some((t, id)) = self.todo.pop() {
            self.expand(&t, id)?;
            expanded += 1;
            if expanded & 1023 == 0 && self.lim.expired() {
                return Err("reading the proof reached the time limit or was stopped".into());
            }
        }
        Ok(())
    }

    /// Expands `t` (proven): its proven checks, or all its replies.
    fn expand(&mut self, t: &Tsume, id: u32) -> Result<(), String> {
        let mut moves = Vec::with_capacity(64);
        t.search_moves(&mut moves);
        let mut edges = Vec::new();
        if t.attacker_to_move() {
            if let Some(m) = self.shortest_check(t, &moves) {
                let mut c = t.clone();
                c.play(m);
                // A short mate df-pn does not prove within the alternative
                // checks' budget: the table's checks instead.
                if self.proven(&c) || self.prove(&c, self.lim.alt_visits) == Status::Proven {
                    self.exact_nodes += 1;
                    self.nodes[id as usize].exact = true;
                    edges.push((m, self.id(c)?, false));
                }
            }
            if edges.is_empty() {
                for pass in 0..2 {
                    for &m in &moves {
                        let mut c = t.clone();
                        c.play(m);
                        if self.proven(&c) {
                            edges.push((m, self.id(c)?, false));
                        }
                    }
                    if !edges.is_empty() {
                        break;
                    }
                    if pass == 1 || !self.reprove(t)? {
                        return Err(format!("no check of a proven position is proven: {t:?}"));
                    }
                }
            }
        } else {
            for &m in &moves {
                let futile = t.is_futile_drop(m);
                let mut c = t.clone();
                c.play(m);
                if !self.proven(&c) && !self.reprove(&c)? {
                    return Err(format!("the reply {} escapes: {t:?}", m.usi()));
                }
                edges.push((m, self.id(c)?, futile));
            }
        }
        self.nodes[id as usize].edges = edges;
        Ok(())
    }
}

/// Reads the proof of `root` (attacker to move, proven on `tt` by a df-pn
/// search of "the attacker mates" in the engine's key space 0) from the
/// table, with the shortest mates the graph holds.
pub fn table_proof(root: &Tsume, tt: &Table, lim: &WalkLimits) -> Result<TableProof, String> {
    if !root.attacker_to_move() {
        return Err("the attacker is not to move".into());
    }
    let mut w = Walk {
        tt,
        lim,
        ctx: GoalContext {
            attacker: Side::First,
            goal: Goal::Win,
        },
        ids: HashMap::new(),
        nodes: Vec::new(),
        todo: Vec::new(),
        reproofs: 0,
        exact_nodes: 0,
        alt_searches: 0,
        search_visits: 0,
        exact: MateLength::new(0),
    };
    if !w.proven(root) && !w.reprove(root)? {
        return Err("the position is not a mate".into());
    }
    w.id(root.clone())?;
    w.explore()?;
    // The main line's attacker's nodes get their other checks searched,
    // until the line no longer changes: df-pn stops at the first check it
    // proves, so the table may hold a longer mate than the problem's. Only
    // the line's nodes matter for its length; a side branch whose mate the
    // table makes too long becomes the line and is searched in turn. So
    // do the lines of the line's other checks within `SLACK` plies of the
    // chosen one: such a check's mate may be too long only in the table,
    // and if it is never the line, it is never searched.
    const SLACK: u32 = 16;
    let mut searched = vec![false; 0];
    let mut rounds = 0;
    let mut repairs = 0;
    let vals = loop {
        rounds += 1;
        let vals = retrograde(&w.nodes);
        searched.resize(w.nodes.len(), false);
        if vals.value[0] == NONE {
            // No proof without a cycle: a proven position's checks may all
            // lead back into the graph when entries its proof needed were
            // replaced, or an exact-search check's line (its table bounded)
            // may come back. Open every unresolved attacker's node to the
            // table's checks and to searches of the others.
            let open: Vec<u32> = (0..w.nodes.len() as u32)
                .filter(|&x| w.nodes[x as usize].attacker && vals.value[x as usize] == NONE)
                .filter(|&x| !searched[x as usize])
                .collect();
            repairs += 1;
            let mut grew = false;
            for &x in &open {
                searched[x as usize] = true;
                w.nodes[x as usize].exact = false;
                let t = w.nodes[x as usize].pos.clone();
                grew |= w.search_others(&t, x)?;
            }
            if !grew {
                let left = vals.value.iter().filter(|&&v| v == NONE).count();
                return Err(format!(
                    "the explored positions hold no proof without a cycle ({left} of {} \
                     positions unresolved after {repairs} repairs)",
                    w.nodes.len()
                ));
            }
            w.explore()?;
            continue;
        }
        // The lines to search: (first node, its position).
        let mut starts = vec![0u32];
        for (x, _) in main_line(&w.nodes, &vals, 0) {
            let n = &w.nodes[x as usize];
            if n.attacker {
                let chosen = vals.choice[x as usize] as usize;
                for (i, &(_, c, _)) in n.edges.iter().enumerate() {
                    let v = vals.value[c as usize];
                    if i != chosen && v != NONE && v < vals.value[x as usize] + SLACK {
                        starts.push(c);
                    }
                }
            }
        }
        let mut grew = false;
        for start in starts {
            for (x, _) in main_line(&w.nodes, &vals, start) {
                let n = &w.nodes[x as usize];
                if n.attacker && !n.exact && !searched[x as usize] {
                    searched[x as usize] = true;
                    let t = n.pos.clone();
                    grew |= w.search_others(&t, x)?;
                }
            }
        }
        if !grew || w.lim.alt_visits == 0 {
            break vals;
        }
        w.explore()?;
    };
    Ok(TableProof {
        block: Block {
            goal: Goal::Win,
            claim: Status::Proven,
            nodes: proof_tree(&w.nodes, &vals),
        },
        length: vals.value[0],
        explored: w.nodes.len(),
        reproofs: w.reproofs,
        exact_nodes: w.exact_nodes,
        exact_positions: w.exact.nodes,
        alt_searches: w.alt_searches,
        search_visits: w.search_visits,
        rounds,
        repairs,
    })
}

/// No mate length: a node whose every check leads into a cycle.
const NONE: u32 = u32::MAX;

/// Mate lengths over the explored graph and the attacker's choices.
struct Values {
    /// Each node's mate length ([`NONE`] where the graph holds no proof
    /// of it without a cycle).
    value: Vec<u32>,
    /// Each attacker's node's chosen edge.
    choice: Vec<u32>,
}

/// Mate lengths over the explored graph, mates first (a retrograde
/// analysis): an attacker's node takes the shortest of its finished
/// children, a defender's node finishes with its last child, at its
/// longest counted reply.
fn retrograde(g: &[GNode]) -> Values {
    let n = g.len();
    let mut parents: Vec<Vec<u32>> = vec![Vec::new(); n];
    // Replies of each defender's node not finished yet.
    let mut left: Vec<u32> = vec![0; n];
    for (i, node) in g.iter().enumerate() {
        for &(_, c, _) in &node.edges {
            parents[c as usize].push(i as u32);
        }
        if !node.attacker {
            left[i] = node.edges.len() as u32;
        }
    }
    let mut value = vec![NONE; n];
    let mut choice: Vec<u32> = vec![NONE; n];
    let mut best = vec![NONE; n]; // an attacker's best offer so far
    let mut heap = BinaryHeap::new();
    for (i, node) in g.iter().enumerate() {
        if !node.attacker && node.edges.is_empty() {
            heap.push(Reverse((0u32, i as u32)));
        }
    }
    while let Some(Reverse((v, x))) = heap.pop() {
        let x = x as usize;
        if value[x] != NONE {
            continue;
        }
        value[x] = v;
        for &p in &parents[x] {
            let p = p as usize;
            if value[p] != NONE {
                continue;
            }
            if g[p].attacker {
                if 1 + v < best[p] {
                    best[p] = 1 + v;
                    choice[p] = g[p]
                        .edges
                        .iter()
                        .position(|&(_, c, _)| c as usize == x)
                        .expect("an edge to the child") as u32;
                    heap.push(Reverse((1 + v, p as u32)));
                }
            } else {
                // Once per edge into `x` (two moves may reach one child).
                let times = g[p].edges.iter().filter(|&&(_, c, _)| c as usize == x);
                left[p] -= times.count() as u32;
                if left[p] == 0 {
                    let len = g[p]
                        .edges
                        .iter()
                        .filter(|&&(_, _, futile)| !futile)
                        .map(|&(_, c, _)| 1 + value[c as usize])
                        .max()
                        .unwrap_or(0);
                    heap.push(Reverse((len, p as u32)));
                }
            }
        }
    }
    Values { value, choice }
}

/// The main line from node `start`: each node and the move played there
/// (the attacker's choice; the defender's first longest counted reply, as
/// [`crate::answer::proof_line`] reads it), down to the mate.
fn main_line(g: &[GNode], vals: &Values, start: u32) -> Vec<(u32, Move)> {
    let mut line = Vec::new();
    let mut x = start as usize;
    loop {
        let edge = if g[x].attacker {
            Some(g[x].edges[vals.choice[x] as usize])
        } else {
            let mut best: Option<(Move, u32, bool)> = None;
            for &e in &g[x].edges {
                let longer =
                    best.is_none_or(|b| vals.value[e.1 as usize] > vals.value[b.1 as usize]);
                if !e.2 && longer {
                    best = Some(e);
                }
            }
            best
        };
        let Some((m, c, _)) = edge else {
            return line;
        };
        line.push((x as u32, m));
        x = c as usize;
    }
}

/// The proof tree of the chosen checks, breadth first from the root (0).
fn proof_tree(g: &[GNode], vals: &Values) -> Vec<Node> {
    let mut ids: HashMap<u32, u32> = HashMap::new();
    let mut order = vec![0u32];
    ids.insert(0, 0);
    let mut out = Vec::new();
    let mut i = 0;
    while i < order.len() {
        let x = order[i] as usize;
        let edges: Vec<(Move, u32)> = if g[x].attacker {
            let (m, c, _) = g[x].edges[vals.choice[x] as usize];
            vec![(m, c)]
        } else {
            g[x].edges.iter().map(|&(m, c, _)| (m, c)).collect()
        };
        let mut listed = Vec::with_capacity(edges.len());
        for (m, c) in edges {
            let next = order.len() as u32;
            let cid = *ids.entry(c).or_insert_with(|| {
                order.push(c);
                next
            });
            listed.push((m.usi(), cid));
        }
        out.push(Node::Moves(listed));
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::{proof_line, MateLength};
    use pns_core::verify::verify;

    fn prove(sfen: &str) -> (Tsume, Table) {
        let t = Tsume::parse(sfen).unwrap();
        let tt = Table::with_mb(16);
        let mut p = GoalProblem::new(t.clone(), Goal::Win);
        let r = Algo::default().run(&mut p, &tt, &Limits::default());
        assert_eq!(r.status, Status::Proven, "{sfen}");
        (t, tt)
    }

    #[test]
    fn table_proofs_verify_and_give_a_mate_line() {
        for sfen in [
            "9/9/9/4k4/9/4P4/9/9/9 b 4G2r2b4s4n4l17p 1",
            "6Snl/5+Rg1k/6ppp/9/9/9/9/9/9 b r2b3g3s3n3l15p 1",
            "ln1p5/2k1p4/1pgP+P4/p8/1P7/P8/9/9/9 b RG2Sr2b2g2s3n3l10p 1",
        ] {
            let (t, tt) = prove(sfen);
            let p = table_proof(&t, &tt, &WalkLimits::default()).unwrap();
            let c = p.certificate(sfen);
            assert_eq!(verify(&t, &c), Ok(Outcome::Win), "{sfen}");
            // The proof's line is the exact answer's length (short mates:
            // the exact search chose every check).
            let line = proof_line(&t, &p.block).unwrap();
            let exact = MateLength::new(10_000_000).solve(&t, 31).unwrap().unwrap();
            assert_eq!(line.length, exact.length, "{sfen}");
            assert_eq!(p.length, line.length, "{sfen}");
            assert_eq!(line.moves.len() as u32, line.length);
        }
    }

    #[test]
    fn retrograde_takes_the_shortest_mate_and_never_a_cycle() {
        let m = |u: &str| Move::parse_usi(u).unwrap();
        let pos = Tsume::parse("9/9/9/4k4/9/4P4/9/9/9 b 4G2r2b4s4n4l17p 1").unwrap();
        let or = |edges: Vec<(Move, u32, bool)>| GNode {
            pos: pos.clone(),
            attacker: true,
            exact: false,
            edges,
        };
        let and = |edges: Vec<(Move, u32, bool)>| GNode {
            pos: pos.clone(),
            attacker: false,
            exact: false,
            edges,
        };
        // 0 (attacker) -> 1 (a reply leads back to 0) or 2 -> 3 (mate in
        // three); 2's other reply 4 is mated at once by 5.
        let g = vec![
            or(vec![(m("1a1b"), 1, false), (m("2a2b"), 2, false)]),
            and(vec![(m("1c1d"), 0, false)]),
            and(vec![(m("3c3d"), 3, false), (m("4c4d"), 4, false)]),
            or(vec![(m("5a5b"), 5, false)]),
            or(vec![(m("5a5b"), 5, false)]),
            and(vec![]),
        ];
        let vals = retrograde(&g);
        assert_eq!(vals.value[0], 3);
        let nodes = proof_tree(&g, &vals);
        let line: Vec<String> = main_line(&g, &vals, 0).iter().map(|e| e.1.usi()).collect();
        assert_eq!(line, ["2a2b", "3c3d", "5a5b"]);
        // Root, 2, 3, 4 and 5 (shared by 3 and 4), the cycle left out.
        assert_eq!(nodes.len(), 5);
        let Node::Moves(root) = &nodes[0] else {
            panic!("moves")
        };
        assert_eq!(root.len(), 1);
        assert_eq!(root[0].0, "2a2b");
        // Futile interpositions are not counted: with both of 2's replies
        // futile, 2 is mated where it stands and the root's mate is 1 ply.
        let mut g2 = g;
        g2[2].edges[0].2 = true;
        g2[2].edges[1].2 = true;
        assert_eq!(retrograde(&g2).value[0], 1);
        // Only the cycle: no proof.
        let g3 = vec![
            or(vec![(m("1a1b"), 1, false)]),
            and(vec![(m("1c1d"), 0, false)]),
        ];
        assert_eq!(retrograde(&g3).value[0], NONE);
    }

    #[test]
    fn solve_reads_the_proof_when_the_length_search_gives_up() {
        use crate::solve::{solve, TsumeOptions};
        let sfen = "9/9/9/4k4/9/4P4/9/9/9 b 4G2r2b4s4n4l17p 1";
        let t = Tsume::parse(sfen).unwrap();
        let tt = Table::with_mb(16);
        let opts = TsumeOptions {
            length_budget: 5,
            ..TsumeOptions::default()
        };
        let r = solve(&t, &opts, &tt);
        assert_eq!(r.status(), Status::Proven);
        assert!(!r.answer_exact);
        assert!(r.answer_error.as_deref().unwrap().contains("budget"));
        assert!(r.proof_nodes.unwrap() > 7);
        // The walk's own bounded exact search still finds the mate in 7.
        assert_eq!(r.answer.unwrap().length, 7);
        let exact = solve(&t, &TsumeOptions::default(), &Table::with_mb(16));
        assert!(exact.answer_exact);
        assert_eq!(exact.answer.unwrap().length, 7);
        assert_eq!(exact.proof_nodes, None, "the exact search answered first");
    }

    #[test]
    fn the_line_read_is_confirmed_by_the_resumed_length_search() {
        use crate::solve::{mate_answer, AnswerLimits, TsumeOptions};
        let sfen = "9/9/9/4k4/9/4P4/9/9/9 b 4G2r2b4s4n4l17p 1";
        let t = Tsume::parse(sfen).unwrap();
        let tt = Table::with_mb(16);
        let r = crate::solve::solve(
            &t,
            &TsumeOptions {
                answer: false,
                ..TsumeOptions::default()
            },
            &tt,
        );
        assert_eq!(r.status(), Status::Proven);
        let lim = AnswerLimits {
            algo: Algo::default(),
            length_budget: 20_000_000,
            first_budget: 5,
            max_length: 255,
            deadline: None,
            stop: None,
        };
        let a = mate_answer(&t, &tt, &lim);
        // Read from the proof, then no mate within 5 plies: 7 is exact.
        assert!(a.proof.is_some());
        assert!(a.exact, "{:?}", a.error);
        assert_eq!(a.line.unwrap().length, 7);
        assert!(a.length_nodes > 5);
    }

    #[test]
    fn a_lost_table_is_proven_again() {
        // An empty table: every position is proven again by the walk.
        let sfen = "ln1p5/2k1p4/1pgP+P4/p8/1P7/P8/9/9/9 b RG2Sr2b2g2s3n3l10p 1";
        let t = Tsume::parse(sfen).unwrap();
        let tt = Table::with_mb(16);
        let p = table_proof(&t, &tt, &WalkLimits::default()).unwrap();
        assert!(p.reproofs >= 1);
        assert_eq!(verify(&t, &p.certificate(sfen)), Ok(Outcome::Win));
    }

    #[test]
    fn no_mate_is_not_walked() {
        // The king walks away: no mate, and no proof to read.
        let sfen = "9/9/9/4k4/9/9/9/9/9 b G2r2b3g4s4n4l18p 1";
        let t = Tsume::parse(sfen).unwrap();
        let tt = Table::with_mb(16);
        assert!(table_proof(&t, &tt, &WalkLimits::default()).is_err());
    }
}
