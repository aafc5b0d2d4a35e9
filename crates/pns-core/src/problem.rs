//! The AND/OR problem the engine searches, and the goal adapter that makes
//! one out of a two-player [`Game`].
//!
//! OR nodes belong to the attacker, who wants a proof; AND nodes to the
//! defender (thesis §2.1.1). Every algorithm is generic over [`Problem`] and
//! monomorphised, so the hooks cost nothing when a problem keeps the
//! defaults.

use std::fmt::Debug;

pub use crate::game::Repetition;
use crate::game::{Game, Goal, GoalContext, Side};
use crate::numbers::{pn_leaf, Pn};
use crate::rng::{splitmix64, Rng};

/// The value of a node as far as it is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Unknown,
    /// The attacker achieves the goal (proof number 0).
    Proven,
    /// The attacker cannot achieve the goal (disproof number 0).
    Disproven,
}

impl Status {
    #[inline]
    pub fn is_solved(self) -> bool {
        self != Status::Unknown
    }

    /// `proven` or `disproven` or `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Unknown => "unknown",
            Status::Proven => "proven",
            Status::Disproven => "disproven",
        }
    }

    pub fn from_name(s: &str) -> Option<Status> {
        match s {
            "unknown" => Some(Status::Unknown),
            "proven" => Some(Status::Proven),
            "disproven" => Some(Status::Disproven),
            _ => None,
        }
    }
}

/// See [`Problem::implication`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Implication {
    pub key_xor: u64,
    pub status: Status,
}

/// The implication between the two goals of the same attacker: the other
/// goal's `status` settles `goal` (win ⇒ not-lose for proofs, not-lose ⇒
/// win for disproofs).
pub fn goal_implication(ctx: GoalContext) -> Implication {
    let other = GoalContext {
        attacker: ctx.attacker,
        goal: match ctx.goal {
            Goal::Win => Goal::NotLose,
            Goal::NotLose => Goal::Win,
        },
    };
    Implication {
        key_xor: goal_salt(ctx) ^ goal_salt(other),
        status: match ctx.goal {
            Goal::Win => Status::Disproven,
            Goal::NotLose => Status::Proven,
        },
    }
}

/// An AND/OR search problem.
///
/// The engine calls `play`/`undo` in strict stack order. A problem may keep
/// its own history (copy-make on a stack, or real undo information): that
/// choice is the problem's, by measurement.
pub trait Problem {
    type Move: Copy + Eq + Debug;

    /// True at OR (attacker) nodes.
    fn is_or(&self) -> bool;

    /// The node's value if known without search (terminal, or an exact
    /// cheap fact such as a win in one). Never wrong.
    fn evaluate(&self) -> Status;

    /// [`Problem::evaluate`] of a child that an expansion has just played.
    /// The expansion then asks [`Problem::shared_probe`] and looks the
    /// probes up once every child is played, so a problem whose `evaluate`
    /// reads table entries of its own may leave that reading to the probe
    /// here: the children's cache misses then overlap instead of stalling
    /// one by one (λ-df-pn's reads of narrower questions in Go). Must be
    /// `evaluate` less what the probe reads. Default: `evaluate`.
    #[inline]
    fn evaluate_child(&self) -> Status {
        self.evaluate()
    }

    /// Appends the moves to search, best first. Called only when
    /// `evaluate()` is `Unknown`. An empty list means the player to move
    /// has no way to reach its aim: the node is lost for that player.
    fn generate(&self, out: &mut Vec<Self::Move>);

    fn play(&mut self, m: Self::Move);

    /// Undoes the last `play`.
    fn undo(&mut self);

    /// 64-bit hash of the node (position and question).
    fn key(&self) -> u64;

    /// Heuristic initial (pn, dn) of an unsolved leaf, both ≥ 1 (df-pn+
    /// `h`, thesis §2.2.4). Default `(1, 1)`.
    #[inline]
    fn heuristic(&self) -> (Pn, Pn) {
        (1, 1)
    }

    /// The leaf value df-pn gives a new node: the heuristic, or the node's
    /// status when computing it showed that the player to move has no move
    /// ([`Problem::generate`] would give none): a loss for that player,
    /// known without visiting the node. Default: the heuristic.
    #[inline]
    fn leaf_estimate(&self) -> Result<(Pn, Pn), Status> {
        Ok(self.heuristic())
    }

    /// Whether [`Problem::leaf_estimate`] costs less than a `play` and an
    /// `undo`: df-pn then reads it while each new child is played for its
    /// key, and does not play the child again to initialise it (the
    /// estimate is wasted on children the table holds). Default `false`
    /// (tsume's estimate generates moves).
    const CHEAP_ESTIMATE: bool = false;

    /// df-pn+ edge cost of playing `m` here: (cost_proof, cost_disproof)
    /// (thesis §2.2.4). Default `(0, 0)`.
    #[inline]
    fn edge_cost(&self, _m: Self::Move) -> (i64, i64) {
        (0, 0)
    }

    /// A random playout to the end: true if the attacker meets its aim.
    /// The default plays random moves from `generate`; adapters override it
    /// with the game's own playout.
    fn playout(&mut self, rng: &mut Rng) -> bool {
        let mut depth = 0;
        let mut moves = Vec::new();
        let result = loop {
            match self.evaluate() {
                Status::Proven => break true,
                Status::Disproven => break false,
                Status::Unknown => {}
            }
            moves.clear();
            self.generate(&mut moves);
            if moves.is_empty() {
                // The mover cannot reach its aim: OR to move fails.
                break !self.is_or();
            }
            let m = moves[rng.below(moves.len() as u64) as usize];
            self.play(m);
            depth += 1;
        };
        for _ in 0..depth {
            self.undo();
        }
        result
    }

    /// A related question whose answer, if the table holds it, settles this
    /// one: the node with key `key() ^ key_xor` having status `status`
    /// implies this node has `status` too. A solve uses it to reuse the
    /// first search in the second: a proven "win" is a proven "not lose",
    /// a disproven "not lose" a disproven "win". Default: none.
    #[inline]
    fn implication(&self) -> Option<Implication> {
        None
    }

    /// How repeated positions count. Default: they cannot happen.
    #[inline]
    fn repetition(&self) -> Repetition {
        Repetition::Impossible
    }

    /// The key compared along the line to detect a repetition (the
    /// position, without the question). Default: [`Problem::key`].
    #[inline]
    fn history_key(&self) -> u64 {
        self.key()
    }

    /// The statistics of the nested searches this problem's hooks ran
    /// since the last call (a ladder, a threat check: searches on the same
    /// table in their own key space, [`crate::dfpn::PathOptions::space`]),
    /// summed. The search takes them when it ends and counts them apart
    /// and in its totals ([`crate::Stats::add_nested`]). Default: none.
    fn nested_stats(&mut self) -> Option<crate::stats::Stats> {
        None
    }

    /// Whether the problem delays some moves behind others
    /// ([`Problem::delays`]). Default `false`: df-pn never asks, and
    /// compiles to the same code as without it.
    const DELAYS: bool = false;

    /// Delayed expansion: `m`, generated right after `prev` at the current
    /// node, is an answer of the same kind (tsume: the defender's drops on
    /// one square, which mostly share one refutation). df-pn then counts
    /// and searches `m` only once `prev` is solved, so a group of such
    /// moves weighs in the node's numbers as one move until its first
    /// members are settled ([`crate::game::SearchHooks::delays`]). Only
    /// which children count changes: a node is solved only when every
    /// child is. Default: never.
    #[inline]
    fn delays(&self, _prev: Self::Move, _m: Self::Move) -> bool {
        false
    }

    /// Whether the problem shares solved results between nodes by a rule
    /// of its own ([`Problem::shared_status`], [`Problem::share_solved`]).
    /// Default `false`: df-pn never calls them.
    const SHARES_SOLVED: bool = false;

    /// Whether df-pn hands solved nodes to [`Problem::share_solved`]
    /// (collecting each one's children for it). Default: as
    /// [`Problem::SHARES_SOLVED`]; a problem that only reads entries that
    /// others store says `false`.
    const STORES_SHARED: bool = Self::SHARES_SOLVED;

    /// Where the problem's own entries for the current node lie (keys
    /// XORed with the search's key space `space`) and what a lookup
    /// compares them with, or `None`; asked for every child that is not
    /// terminal, and prefetched before any is looked up
    /// ([`crate::game::SearchHooks::shared_probe`]).
    #[inline]
    fn shared_probe(&self, _space: u64) -> Option<crate::game::SharedProbe> {
        None
    }

    /// The value the problem's own entries in `tt` give the node that
    /// `probe` describes, or `Unknown`. Never wrong.
    #[inline]
    fn shared_lookup(_tt: &crate::tt::Table, _probe: crate::game::SharedProbe) -> Status {
        Status::Unknown
    }

    /// The value of the current node as the problem's own entries in `tt`
    /// settle it: [`Problem::shared_probe`] then [`Problem::shared_lookup`].
    #[inline]
    fn shared_status(&self, tt: &crate::tt::Table, space: u64) -> Status {
        match self.shared_probe(space) {
            Some(q) => Self::shared_lookup(tt, q),
            None => Status::Unknown,
        }
    }

    /// The current node was solved with `status` on every path; `children`
    /// are its moves in generated order with their values (`Unknown` for a
    /// value that holds on the current path only; empty for a node without
    /// moves). The problem may store entries of its own in
    /// `tt` (keys XORed with `space`, effort `amount`).
    #[inline]
    fn share_solved(
        &mut self,
        _tt: &crate::tt::Table,
        _space: u64,
        _status: Status,
        _children: &[(Self::Move, Status)],
        _amount: u32,
    ) {
    }
}

/// Different questions about the same position get different keys, so they
/// may share one transposition table.
#[inline]
pub fn goal_salt(ctx: GoalContext) -> u64 {
    splitmix64(
        0x5eed_0000
            ^ ((ctx.goal == Goal::NotLose) as u64)
            ^ (((ctx.attacker == Side::Second) as u64) << 1),
    )
}

/// The key [`GoalProblem`] gives position `g` for the question `ctx`.
#[inline]
pub fn goal_key<G: Game>(g: &G, ctx: GoalContext) -> u64 {
    g.key() ^ goal_salt(ctx)
}

/// Status of a finished or known result `o` (for the side to move in `g`)
/// for the question `ctx`.
#[inline]
pub fn goal_status<G: Game>(g: &G, o: crate::game::Outcome, ctx: GoalContext) -> Status {
    let for_attacker = if g.side_to_move() == ctx.attacker {
        o
    } else {
        o.flip()
    };
    if ctx.goal.met_by(for_attacker) {
        Status::Proven
    } else {
        Status::Disproven
    }
}

/// Turns a [`Game`] into the AND/OR problem "the attacker achieves `goal`"
/// (the goal adapter). The attacker is the side to move at the root
/// unless set otherwise.
#[derive(Clone, Debug)]
pub struct GoalProblem<G: Game> {
    stack: Vec<G>,
    ctx: GoalContext,
    salt: u64,
    use_heuristic: bool,
    reuse_other_goal: bool,
}

impl<G: Game> GoalProblem<G> {
    /// "The side to move in `root` achieves `goal`".
    pub fn new(root: G, goal: Goal) -> Self {
        let attacker = root.side_to_move();
        Self::with_attacker(root, goal, attacker)
    }

    /// "`attacker` achieves `goal` from `root`".
    pub fn with_attacker(root: G, goal: Goal, attacker: Side) -> Self {
        let ctx = GoalContext { attacker, goal };
        let salt = goal_salt(ctx);
        let mut stack = Vec::with_capacity(128);
        stack.push(root);
        GoalProblem {
            stack,
            ctx,
            salt,
            use_heuristic: true,
            reuse_other_goal: false,
        }
    }

    /// Whether the game's heuristic initialisation is used (default) or
    /// every leaf starts at (1, 1) as in plain PN-search.
    pub fn set_heuristic(&mut self, on: bool) {
        self.use_heuristic = on;
    }

    /// Lets the search read answers to the attacker's other goal from the
    /// table (see [`Problem::implication`]).
    pub fn set_reuse_other_goal(&mut self, on: bool) {
        self.reuse_other_goal = on;
    }

    pub fn context(&self) -> GoalContext {
        self.ctx
    }

    /// The current position.
    #[inline]
    pub fn game(&self) -> &G {
        // The stack is never empty: `undo` never pops the root.
        self.stack.last().expect("root position")
    }

    /// Moves played since the root.
    pub fn ply(&self) -> usize {
        self.stack.len() - 1
    }

    #[inline]
    fn status_of(&self, g: &G, o: crate::game::Outcome) -> Status {
        goal_status(g, o, self.ctx)
    }
}

impl<G: Game> Problem for GoalProblem<G> {
    type Move = G::Move;

    #[inline]
    fn is_or(&self) -> bool {
        self.game().side_to_move() == self.ctx.attacker
    }

    #[inline]
    fn evaluate(&self) -> Status {
        let g = self.game();
        match g.known_outcome() {
            Some(o) => self.status_of(g, o),
            None => Status::Unknown,
        }
    }

    #[inline]
    fn generate(&self, out: &mut Vec<G::Move>) {
        self.game().search_moves(out)
    }

    #[inline]
    fn play(&mut self, m: G::Move) {
        let mut next = self.game().clone();
        next.play(m);
        self.stack.push(next);
    }

    #[inline]
    fn undo(&mut self) {
        debug_assert!(self.stack.len() > 1, "undo past the root");
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    #[inline]
    fn key(&self) -> u64 {
        self.game().key() ^ self.salt
    }

    #[inline]
    fn heuristic(&self) -> (Pn, Pn) {
        self.leaf_estimate().unwrap_or((1, 1))
    }

    #[inline]
    fn leaf_estimate(&self) -> Result<(Pn, Pn), Status> {
        if !self.use_heuristic {
            return Ok((1, 1));
        }
        match self.game().heuristic_or_no_move(self.ctx) {
            Some((p, d)) => Ok((pn_leaf(p), pn_leaf(d))),
            // No move that reaches the mover's aim: lost for the mover, as
            // `enter` would find on a visit.
            None if self.is_or() => Err(Status::Disproven),
            None => Err(Status::Proven),
        }
    }

    #[inline]
    fn edge_cost(&self, m: G::Move) -> (i64, i64) {
        self.game().edge_cost(m, self.ctx)
    }

    #[inline]
    fn implication(&self) -> Option<Implication> {
        self.reuse_other_goal.then(|| goal_implication(self.ctx))
    }

    #[inline]
    fn repetition(&self) -> Repetition {
        Repetition::for_attacker(self.game(), self.ctx.attacker)
    }

    #[inline]
    fn history_key(&self) -> u64 {
        self.game().history_key()
    }

    fn playout(&mut self, rng: &mut Rng) -> bool {
        let g = self.game();
        let o = g.playout(rng);
        self.status_of(g, o) == Status::Proven
    }

    const DELAYS: bool = G::DELAYS;

    #[inline]
    fn delays(&self, prev: G::Move, m: G::Move) -> bool {
        self.game().delays(prev, m)
    }

    const SHARES_SOLVED: bool = G::SHARES_SOLVED;

    #[inline]
    fn shared_probe(&self, space: u64) -> Option<crate::game::SharedProbe> {
        self.game().shared_probe(space ^ self.salt, self.ctx)
    }

    #[inline]
    fn shared_lookup(tt: &crate::tt::Table, probe: crate::game::SharedProbe) -> Status {
        G::shared_lookup(tt, probe)
    }

    #[inline]
    fn share_solved(
        &mut self,
        tt: &crate::tt::Table,
        space: u64,
        status: Status,
        children: &[(G::Move, Status)],
        amount: u32,
    ) {
        self.game()
            .share_solved(tt, space ^ self.salt, self.ctx, status, children, amount)
    }
}
