//! Kawano's simulation: proving the siblings of a proven child of an AND
//! node by replaying its proof (and, dual, disproving the siblings of a
//! disproven child of an OR node by replaying its disproof).
//!
//! Kawano ("Using similar positions to search game trees", Games of No
//! Chance, 1996; not in `papers/`, described in the GHI paper §3.3) made
//! useless interpositions in tsume-shogi cheap: once one defence is
//! refuted, a similar defence is usually refuted by the same attacking
//! moves. Nagai's df-pn tsume solver (PhD thesis, University of Tokyo,
//! 2002; not in `papers/`) uses it, and so does the df-pn baseline of the
//! λ-df-pn paper (Yoshizoe, Kishimoto and Müller, IJCAI 2007, §3's
//! search enhancements, "Simulation", and §4;
//! `papers/lambda-dfpn-go-capturing.txt`), where λ-df-pn replays the
//! proof of a defender's pass (the threat check) on the defender's other
//! moves: a move that does nothing about the threat loses to the same
//! sequence.
//!
//! # What is replayed
//!
//! When child `s` of an AND node is proven, its proof is read from the
//! table as a tree of *moves* (not positions): at an OR node the move the
//! table stores as its best, at an AND node every reply with the subtree
//! below it. Each unsolved sibling is then searched by following that
//! tree: at an OR node the same move is played (it must be one the problem
//! generates there), at an AND node every reply the problem generates must
//! be proven in turn, each following the source's subtree for the same
//! reply. A branch ends, proven, at a terminal win, at a position the
//! table holds proven for this path (or the problem's own shared entries,
//! or the other goal's implied answer), or at a repetition that the rule
//! counts as the attacker's win; anything else (a move the sibling lacks,
//! a reply the source never met, a loss, the budget spent) makes the
//! simulation fail, and df-pn searches the sibling normally.
//!
//! # Why a simulated proof is a proof
//!
//! Every defender reply is covered, every leaf is a win on the current
//! line, and each leaf is judged exactly as the expansion in `expand.rs`
//! judges a child: a base entry's result as path-independent, a twin only
//! for its own path signature, a repetition by the rule with the result
//! marked path-dependent. Dependence travels up as in
//! [`super::ghi`]: an OR node depends on the path if its proving child
//! does, an AND node if any child does; each simulated node is stored as
//! df-pn's `leave` would store it (a twin where the GHI mode says so). So
//! a simulated proof is a tree df-pn could have found and stored by
//! itself, and it is as GHI-safe as df-pn is under the same mode. The
//! source tree is only a guide: a hole or a stale entry in it can make a
//! simulation fail, never succeed wrongly.
//!
//! # Dual simulation
//!
//! With [`Kawano::dual`] the same is done the other way round: when a child
//! of an OR node is disproven, its disproof is read as moves (the
//! defender's chosen reply at AND nodes, every attacking move at OR nodes)
//! and replayed on the unsolved siblings, so that an attacking move that
//! does nothing about the defence is refuted by the same replies. Every
//! rule above holds with the roles swapped: a branch ends at a terminal
//! loss for the attacker, an entry disproven for this path, or a
//! repetition the rule counts against the attacker; the nodes are stored
//! disproven as `leave` would store them. (The λ-df-pn paper simulates
//! only proofs; its escape proofs, where the attacker plays every point,
//! are what this was added for: `lambda:dual=on` in `pns-go`.)
//!
//! Simulation is bounded: each try replays at most the policy's budget of
//! nodes (reading the source counts too), and a search spends at most
//! [`PER_VISIT`] simulation nodes per visit in all. Its nodes are counted
//! in `kawano_nodes`, not in `visits` (`kawano_calls`: siblings tried,
//! `kawano_proven`: siblings proven).

use crate::numbers::INF;
use crate::problem::{Problem, Status};

use super::expand::{Child, Frame, Search};
use super::ghi::{self, Line, Twin, FLAG_HAS_TWINS};
use super::policy::{DeltaRule, DfpnPolicy};
use super::status_of;
use crate::numbers::Pn;

/// Nodes one simulation may replay by default ([`Kawano::new`]).
pub const DEFAULT_BUDGET: u64 = 1_000;

/// Simulation nodes a search may spend per node visit, in all (plus one
/// try's budget): simulations are not visits, and a search with a visit
/// limit must not replay without end.
pub const PER_VISIT: u64 = 64;

/// df-pn with Kawano's simulation at AND nodes: `inner` in every other
/// respect (see the module's documentation).
#[derive(Clone, Copy, Debug)]
pub struct Kawano<Pol> {
    pub inner: Pol,
    /// Nodes one simulation may replay (reading the source included).
    pub budget: u64,
    /// Dual simulation too: at OR nodes, a disproven child's disproof
    /// replayed on its unsolved siblings (see the module's documentation).
    pub dual: bool,
}

impl<Pol> Kawano<Pol> {
    pub fn new(inner: Pol) -> Self {
        Kawano {
            inner,
            budget: DEFAULT_BUDGET,
            dual: false,
        }
    }

    /// With dual simulation (disproofs replayed at OR nodes) as well.
    pub fn with_dual(mut self, dual: bool) -> Self {
        self.dual = dual;
        self
    }
}

impl<Pol: DfpnPolicy> DfpnPolicy for Kawano<Pol> {
    const USES_COST: bool = Pol::USES_COST;
    const DELTA: DeltaRule = Pol::DELTA;
    const SIMULATE: bool = true;

    fn use_heuristic(&self) -> bool {
        self.inner.use_heuristic()
    }

    #[inline(always)]
    fn leaf(&self, phi: Pn, delta: Pn, depth: u32) -> (Pn, Pn) {
        self.inner.leaf(phi, delta, depth)
    }

    #[inline(always)]
    fn child_th_delta(&self, th_phi: Pn, delta2: Pn) -> Pn {
        self.inner.child_th_delta(th_phi, delta2)
    }

    #[inline(always)]
    fn constant_cost(&self) -> (i64, i64) {
        self.inner.constant_cost()
    }

    #[inline(always)]
    fn sim_budget(&self) -> u64 {
        self.budget
    }

    #[inline(always)]
    fn sim_dual(&self) -> bool {
        self.dual
    }
}

/// A node of a proof (or disproof) read from the table, as moves.
#[derive(Clone, Copy, Debug)]
enum Src<M> {
    /// Not known (budget spent, entry gone): nothing to follow.
    Hole,
    /// Settled without a move (terminal, a repetition, a shared entry):
    /// the sibling's node must be settled by itself.
    Leaf,
    /// A node where the winner chooses (OR in a proof, AND in a
    /// disproof): the chosen move and the subtree below it.
    Pick { mv: M, child: u32 },
    /// A node where every move must be answered: `len` moves in
    /// `edges[start..]`.
    Every { start: u32, len: u32 },
}

/// A proof as moves: nodes, and the `Every` nodes' (move, subtree) lists.
struct SrcTree<M> {
    nodes: Vec<Src<M>>,
    edges: Vec<(M, u32)>,
}

impl<M: Copy> SrcTree<M> {
    fn push(&mut self, n: Src<M>) -> u32 {
        self.nodes.push(n);
        (self.nodes.len() - 1) as u32
    }
}

impl<P: Problem, Pol: DfpnPolicy, L: Line> Search<'_, P, Pol, L> {
    /// Child `src` of the node `f` (the current node of `p`) is `claim`:
    /// proven below an AND node (Kawano's simulation) or disproven below
    /// an OR node (dual simulation). Tries to settle each unsolved sibling
    /// the same way by replaying that (dis)proof, and marks those it
    /// settles in the frame.
    #[cold]
    #[inline(never)]
    pub(crate) fn kawano(&mut self, p: &mut P, f: &Frame, src: usize, claim: Status) {
        let budget = self.pol.sim_budget();
        // A sibling is tried once per visit of the node: retrying each one
        // after every newly proven child would cost the square of the
        // number of defences (250 where the defender plays every point).
        // A waiting child is left until it is woken ([`Problem::delays`]).
        let unsolved = |c: &Child<P::Move>| {
            !status_of(c.pn, c.dn).is_solved()
                && c.bits & (Child::<P::Move>::SIM_TRIED | Child::<P::Move>::WAITING) == 0
        };
        if !self.children[f.cstart..f.cend].iter().any(unsolved) || self.over_cap(budget) {
            return;
        }
        let c = self.children[src];
        let mut tree = SrcTree {
            nodes: Vec::new(),
            edges: Vec::new(),
        };
        let mut left = budget;
        p.play(c.mv);
        let root = self.read_proof(p, &mut tree, &mut left, claim);
        p.undo();
        if !matches!(
            tree.nodes[root as usize],
            Src::Pick { .. } | Src::Every { .. }
        ) {
            return;
        }
        for i in f.cstart..f.cend {
            if i == src || !unsolved(&self.children[i]) || self.over_cap(budget) {
                continue;
            }
            self.stats.kawano_calls += 1;
            let mv = self.children[i].mv;
            let mut left = budget;
            p.play(mv);
            let r = self.replay(p, &tree, Some(root), &mut left, claim);
            p.undo();
            let c = &mut self.children[i];
            match r {
                Some(dep) => {
                    self.stats.kawano_proven += 1;
                    (c.pn, c.dn) = if claim == Status::Proven {
                        (0, INF)
                    } else {
                        (INF, 0)
                    };
                    c.set(Child::<P::Move>::DEP, dep);
                }
                None => c.bits |= Child::<P::Move>::SIM_TRIED,
            }
        }
    }

    /// Past the search's allowance of simulation nodes.
    #[inline]
    fn over_cap(&self, budget: u64) -> bool {
        self.stats.kawano_nodes > PER_VISIT.saturating_mul(self.stats.visits) + budget
    }

    /// Reads the proof (`claim` Proven) or disproof (Disproven) of the
    /// current node (the line holds its ancestors) from the table into
    /// `tree`; returns its index.
    fn read_proof(
        &mut self,
        p: &mut P,
        tree: &mut SrcTree<P::Move>,
        left: &mut u64,
        claim: Status,
    ) -> u32 {
        if *left == 0 {
            return tree.push(Src::Hole);
        }
        *left -= 1;
        self.stats.kawano_nodes += 1;
        let hk = p.history_key();
        if (L::ACTIVE && self.line.contains(hk)) || p.evaluate().is_solved() {
            return tree.push(Src::Leaf);
        }
        // The winner chooses at OR nodes of a proof, AND nodes of a
        // disproof.
        let picks = p.is_or() == (claim == Status::Proven);
        // A list of its own: a problem may reorder the whole vector it is
        // given (Go's capture sorts its moves), not just what it appends.
        let mut moves = Vec::new();
        p.generate(&mut moves);
        let n = moves.len();
        if n == 0 {
            return tree.push(Src::Leaf);
        }
        if picks {
            // The winning move: the base entry's, else this path's twin.
            let key = p.key() ^ self.salt;
            let best = match self.probe(key) {
                Some(h) if status_of(h.pn, h.dn) == claim => Some(h.best),
                Some(h) if L::ACTIVE && h.flags & FLAG_HAS_TWINS != 0 => {
                    let sig = self.line.child_sig(hk);
                    let (twins, _) = ghi::twins(self.tt, &mut self.stats, key);
                    twins
                        .iter()
                        .flatten()
                        .find(|t| t.sig == sig && t.status == claim)
                        .map(|t| t.best)
                }
                _ => None,
            };
            match best {
                Some(b) if (b as usize) < n => {
                    let mv = moves[b as usize];
                    self.line.push(hk);
                    p.play(mv);
                    let child = self.read_proof(p, tree, left, claim);
                    p.undo();
                    self.line.pop();
                    tree.push(Src::Pick { mv, child })
                }
                _ => tree.push(Src::Hole),
            }
        } else {
            let start = tree.edges.len();
            tree.edges.extend(moves.iter().map(|&m| (m, u32::MAX)));
            self.line.push(hk);
            for j in 0..n {
                let mv = tree.edges[start + j].0;
                p.play(mv);
                let child = self.read_proof(p, tree, left, claim);
                p.undo();
                tree.edges[start + j].1 = child;
            }
            self.line.pop();
            tree.push(Src::Every {
                start: start as u32,
                len: n as u32,
            })
        }
    }

    /// Settles the current node as `claim` by following `at` in `tree`:
    /// `Some(dep)` when settled (`dep`: the result holds on this path
    /// only), `None` when the simulation fails. Stores every node it
    /// settles.
    fn replay(
        &mut self,
        p: &mut P,
        tree: &SrcTree<P::Move>,
        at: Option<u32>,
        left: &mut u64,
        claim: Status,
    ) -> Option<bool> {
        if *left == 0 {
            return None;
        }
        *left -= 1;
        self.stats.kawano_nodes += 1;
        let is_or = p.is_or();
        let hk = p.history_key();
        if L::ACTIVE && self.line.contains(hk) {
            let st = ghi::repetition_status(self.line.rule(), is_or);
            return (st == claim).then_some(true);
        }
        // A settled status: `claim` ends the branch (on every path), the
        // other one fails the simulation.
        let settled = |st: Status| st.is_solved().then_some((st == claim).then_some(false));
        if let Some(r) = settled(p.evaluate()) {
            return r;
        }
        if P::SHARES_SOLVED {
            if let Some(r) = settled(p.shared_status(self.tt, self.salt)) {
                return r;
            }
        }
        // What the expansion of this node's parent would read.
        let key = p.key() ^ self.salt;
        if let Some(h) = self.probe(key) {
            if let Some(r) = settled(status_of(h.pn, h.dn)) {
                return r;
            }
            if L::ACTIVE && h.flags & FLAG_HAS_TWINS != 0 {
                let sig = self.line.child_sig(hk);
                let (twins, _) = ghi::twins(self.tt, &mut self.stats, key);
                if let Some(t) = twins.iter().flatten().find(|t| t.sig == sig) {
                    self.stats.twin_hits += 1;
                    return (t.status == claim).then_some(true);
                }
            }
        }
        if let Some(imp) = p.implication() {
            if let Some(h) = self.probe(key ^ imp.key_xor) {
                if status_of(h.pn, h.dn) == imp.status {
                    return (imp.status == claim).then_some(false);
                }
            }
        }
        let node = tree.nodes[at? as usize];
        let picks = is_or == (claim == Status::Proven);
        if !matches!(
            (node, picks),
            (Src::Pick { .. }, true) | (Src::Every { .. }, false)
        ) {
            return None;
        }
        let mut moves = Vec::new();
        p.generate(&mut moves);
        if moves.is_empty() {
            // The mover has no move: a loss for it, on every path.
            let st = if is_or {
                Status::Disproven
            } else {
                Status::Proven
            };
            return (st == claim).then_some(false);
        }
        self.line.push(hk);
        let r = match node {
            Src::Pick { mv, child } => {
                let idx = moves.iter().position(|&m| m == mv);
                idx.and_then(|idx| {
                    p.play(mv);
                    let r = self.replay(p, tree, Some(child), left, claim);
                    p.undo();
                    r.map(|dep| (dep, idx))
                })
            }
            Src::Every { start, len } => {
                let src = &tree.edges[start as usize..(start + len) as usize];
                let mut dep = Some(false);
                for (j, &mv) in moves.iter().enumerate() {
                    // Similar positions list their replies in much the same
                    // order: the same index first.
                    let sub = match src.get(j) {
                        Some(&(m, c)) if m == mv => Some(c),
                        _ => src.iter().find(|e| e.0 == mv).map(|e| e.1),
                    };
                    p.play(mv);
                    let r = self.replay(p, tree, sub, left, claim);
                    p.undo();
                    match r {
                        Some(d) => dep = dep.map(|x| x | d),
                        None => {
                            dep = None;
                            break;
                        }
                    }
                }
                dep.map(|d| (d, 0))
            }
            Src::Hole | Src::Leaf => unreachable!("checked above"),
        };
        let out = r.map(|(dep, best)| {
            self.store_settled(key, dep, best as u16, claim);
            dep
        });
        self.line.pop();
        out
    }

    /// Stores a node settled (`claim`) by simulation (the line holds it)
    /// as `leave` would: a twin for this path where the GHI mode says so,
    /// else the base entry.
    fn store_settled(&mut self, key: u64, dep: bool, best: u16, claim: Status) {
        if L::ACTIVE && self.line.mode().twin(dep) {
            let t = Twin {
                sig: self.line.sig(),
                status: claim,
                best,
            };
            ghi::store_twin(self.tt, &mut self.stats, key, t, 1);
            // The base entry keeps its numbers for every other path.
            match self.tt.probe(key) {
                Some(h) => self.store(key, h.pn, h.dn, h.amount, h.flags | FLAG_HAS_TWINS, h.best),
                None => self.store(key, 1, 1, 1, FLAG_HAS_TWINS, best),
            }
        } else if claim == Status::Proven {
            self.store(key, 0, INF, 1, 0, best);
        } else {
            self.store(key, INF, 0, 1, 0, best);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfpn::test_trees::{Tree, TreeProblem};
    use crate::dfpn::{search, Plain};
    use crate::limits::Limits;
    use crate::result::SearchResult;
    use crate::rng::Rng;
    use crate::tt::Table;

    /// The exact value of `t` for the attacker (OR at the root).
    fn exact(t: &Tree, is_or: bool) -> bool {
        match t {
            Tree::Win => true,
            Tree::Loss => false,
            // A node without children: a loss for the player to move.
            Tree::Node(k) if k.is_empty() => !is_or,
            Tree::Node(k) if is_or => k.iter().any(|c| exact(c, false)),
            Tree::Node(k) => k.iter().all(|c| exact(c, true)),
        }
    }

    fn run<Pol: DfpnPolicy>(t: &Tree, pol: Pol) -> SearchResult {
        search(
            &mut TreeProblem::new(t),
            pol,
            &Table::with_mb(1),
            &Limits::default(),
        )
    }

    /// Simulation with a budget of 3 nodes and no heuristic: replays that
    /// mostly run out, which must still never give a wrong value.
    fn run_tight(t: &Tree, dual: bool) -> SearchResult {
        let pol = Kawano {
            inner: Plain { heuristic: false },
            budget: 3,
            dual,
        };
        run(t, pol)
    }

    fn status(win: bool) -> Status {
        if win {
            Status::Proven
        } else {
            Status::Disproven
        }
    }

    /// A random tree of `depth` whose AND nodes' children are, more often
    /// than not, copies of one template with a few leaves flipped (similar
    /// defences, the case simulation is for).
    fn random_tree(rng: &mut Rng, depth: u32, is_or: bool) -> Tree {
        similar_tree(rng, depth, is_or, false)
    }

    /// A random tree of `depth` whose OR nodes (`at_or`) or AND nodes have
    /// children that are, more often than not, copies of one template with
    /// a few leaves flipped.
    fn similar_tree(rng: &mut Rng, depth: u32, is_or: bool, at_or: bool) -> Tree {
        if depth == 0 || (depth < 4 && rng.below(5) == 0) {
            return if rng.below(100) < 55 {
                Tree::Win
            } else {
                Tree::Loss
            };
        }
        let n = 1 + rng.below(3) as usize;
        if is_or == at_or && rng.below(10) < 7 {
            let template = similar_tree(rng, depth - 1, !is_or, at_or);
            let kids = (0..n + 1).map(|_| mutate(rng, &template, 12)).collect();
            return Tree::Node(kids);
        }
        Tree::Node(
            (0..n)
                .map(|_| similar_tree(rng, depth - 1, !is_or, at_or))
                .collect(),
        )
    }

    /// `t` with each leaf flipped with probability `pct`%.
    fn mutate(rng: &mut Rng, t: &Tree, pct: u64) -> Tree {
        match t {
            Tree::Win | Tree::Loss => {
                let win = matches!(t, Tree::Win) != (rng.below(100) < pct);
                if win {
                    Tree::Win
                } else {
                    Tree::Loss
                }
            }
            Tree::Node(k) => Tree::Node(k.iter().map(|c| mutate(rng, c, pct)).collect()),
        }
    }

    /// Five identical defences, each refuted by one attacking line three
    /// plies deep: the first is searched, the other four are simulated.
    #[test]
    fn identical_defences_are_proven_by_simulation() {
        let d = "(L L ((L W) (W W)) L)";
        let t = Tree::parse(&format!("(({d} {d} {d} {d} {d}))"));
        let plain = run(&t, Plain::default());
        let sim = run(&t, Kawano::new(Plain::default()));
        assert_eq!(plain.status, Status::Proven);
        assert_eq!(sim.status, Status::Proven);
        // The four siblings, and inside the first, `(W W)` by the proof of
        // `(L W)`: five visits in all, one per node of the first proof.
        assert_eq!(sim.stats.kawano_proven, 5, "{:?}", sim.stats);
        assert_eq!(sim.stats.visits, 5);
        assert!(sim.stats.kawano_nodes > 0);
        assert!(
            sim.stats.visits < plain.stats.visits,
            "visits {} with simulation, {} without",
            sim.stats.visits,
            plain.stats.visits
        );
        assert_eq!(plain.stats.kawano_calls + plain.stats.kawano_nodes, 0);
    }

    /// A defence the proof does not cover (a different reply, a leaf that
    /// is a loss there) fails to simulate and is searched: the value stays
    /// right.
    #[test]
    fn a_different_defence_fails_and_is_searched() {
        // The second defence loses for the attacker after the same move.
        let t = Tree::parse("(((L ((W W))) (L ((L L)))))");
        assert!(!exact(&t, true));
        let sim = run(&t, Kawano::new(Plain::default()));
        assert_eq!(sim.status, Status::Disproven);
        // The third: one more reply than the source had, which wins.
        let t = Tree::parse("(((L ((W W))) (L ((W W) W))))");
        let sim = run(&t, Kawano::new(Plain::default()));
        assert_eq!(sim.status, Status::Proven);
        assert_eq!(sim.stats.kawano_proven, 1);
    }

    /// Random trees with similar defences: df-pn with simulation, with a
    /// tiny and a default budget, gives the exact value; simulation
    /// succeeds and saves visits on these trees.
    #[test]
    fn values_with_simulation_equal_the_exact_ones_on_random_trees() {
        let mut rng = Rng::new(12);
        let (mut proven, mut calls, mut fewer) = (0, 0, 0);
        let (mut v_plain, mut v_sim) = (0, 0);
        for i in 0..400 {
            let t = random_tree(&mut rng, 4 + (i % 4), true);
            let want = status(exact(&t, true));
            let plain = run(&t, Plain::default());
            let sim = run(&t, Kawano::new(Plain::default()));
            let tight = run_tight(&t, false);
            assert_eq!(plain.status, want, "tree {i}: {t:?}");
            assert_eq!(sim.status, want, "tree {i} with simulation: {t:?}");
            assert_eq!(tight.status, want, "tree {i}, budget 3: {t:?}");
            proven += sim.stats.kawano_proven;
            calls += sim.stats.kawano_calls;
            fewer += (sim.stats.visits < plain.stats.visits) as u32;
            v_plain += plain.stats.visits;
            v_sim += sim.stats.visits;
        }
        eprintln!(
            "random trees: {proven} of {calls} siblings proven by simulation; fewer visits on \
             {fewer} of 400 trees; visits {v_plain} without, {v_sim} with"
        );
        assert!(proven > 100 && calls >= proven, "{proven} of {calls}");
        assert!(fewer > 20, "fewer visits on {fewer} trees");
        assert!(v_sim < v_plain, "visits {v_sim} with, {v_plain} without");
    }

    /// Five identical attacking moves, each refuted by one defence: with
    /// dual simulation the first is searched and the other four are
    /// disproven by replaying its disproof; without, all five are searched.
    #[test]
    fn identical_attacks_are_disproven_by_dual_simulation() {
        let a = "(W (L (L L)) W)";
        let t = Tree::parse(&format!("({a} {a} {a} {a} {a})"));
        let plain = run(&t, Kawano::new(Plain::default()));
        let dual = run(&t, Kawano::new(Plain::default()).with_dual(true));
        assert_eq!(plain.status, Status::Disproven);
        assert_eq!(dual.status, Status::Disproven);
        assert_eq!(plain.stats.kawano_proven, 0);
        assert!(dual.stats.kawano_proven >= 4, "{:?}", dual.stats);
        assert!(
            dual.stats.visits < plain.stats.visits,
            "visits {} with dual simulation, {} without",
            dual.stats.visits,
            plain.stats.visits
        );
    }

    /// Random trees with similar attacking moves (and, apart, with similar
    /// defences): df-pn with dual simulation, with a tiny and a default
    /// budget, gives the exact value; dual simulation succeeds and saves
    /// visits on these trees.
    #[test]
    fn values_with_dual_simulation_equal_the_exact_ones_on_random_trees() {
        let mut rng = Rng::new(27);
        let (mut settled, mut calls, mut fewer) = (0, 0, 0);
        let (mut v_one, mut v_dual) = (0, 0);
        for i in 0..400 {
            let t = similar_tree(&mut rng, 4 + (i % 4), true, i % 2 == 0);
            let want = status(exact(&t, true));
            let one = run(&t, Kawano::new(Plain::default()));
            let dual = run(&t, Kawano::new(Plain::default()).with_dual(true));
            let tight = run_tight(&t, true);
            assert_eq!(dual.status, want, "tree {i} with dual simulation: {t:?}");
            assert_eq!(tight.status, want, "tree {i}, budget 3: {t:?}");
            settled += dual
                .stats
                .kawano_proven
                .saturating_sub(one.stats.kawano_proven);
            calls += dual.stats.kawano_calls;
            fewer += (dual.stats.visits < one.stats.visits) as u32;
            v_one += one.stats.visits;
            v_dual += dual.stats.visits;
        }
        eprintln!(
            "random trees: {settled} more siblings settled by simulation in {calls} tries; \
             fewer visits on {fewer} of 400 trees; visits {v_one} without dual, {v_dual} with"
        );
        assert!(settled > 100, "{settled} more settled");
        assert!(fewer > 20, "fewer visits on {fewer} trees");
        assert!(v_dual < v_one, "visits {v_dual} with, {v_one} without");
    }

    /// The wrapper changes nothing but the simulation: the same search as
    /// the inner policy where no AND node has a proven child to replay.
    #[test]
    fn without_and_nodes_to_simulate_the_search_is_the_same() {
        let t = Tree::parse("(L L (L L) W)");
        let a = run(&t, Plain::default());
        let b = run(&t, Kawano::new(Plain::default()));
        assert_eq!((a.status, a.stats.visits), (b.status, b.stats.visits));
        assert_eq!(b.stats.kawano_calls, 0);
    }
}
