//! Proof certificates: the proof (or disproof) DAG of a solved question,
//! extracted after a search and written in a plain text format that the
//! independent verifier ([`crate::verify`]) checks with the game rules only.
//!
//! A proof tree has, at OR nodes, one winning move and, at AND nodes, every
//! move; its leaves are finished games the attacker has won (GHI paper
//! §3.3; thesis §2.1.1). A disproof tree is the dual. Transpositions are
//! shared, so a certificate is a DAG: node ids refer to positions, and the
//! verifier checks that every path to an id reaches the same position.
//!
//! ## File format (version 1)
//!
//! ```text
//! pns-certificate 1
//! game connect4
//! position 4453
//! value win
//! block win proven 3
//! 0 5:1
//! 1 1:2 2:2 ...
//! 2
//! end
//! ```
//!
//! `value` is the claimed result for the side to move. Each `block GOAL
//! CLAIM N` holds one proof (`proven`) or disproof (`disproven`) of the
//! question "the side to move at the root achieves GOAL" (`win` or
//! `not-lose`), as N node lines `ID MOVE:CHILD ...` with ids 0..N−1 in
//! order, node 0 the root; a line without moves is a finished game. A
//! line `ID !MOVE,MOVE,...:CHILD` is a *concession* (in a monotone game
//! only, see [`Shortcuts::concede`](crate::game::Shortcuts::concede)): the prover of the block (the attacker of
//! a `proven` block, the defender of a `disproven` one) gives its opponent
//! those moves for free, the side to move unchanged, and proves `CHILD`
//! instead. A line `ID +WITNESS:CHILD` is a *fill* (see [`Shortcuts::fill`](crate::game::Shortcuts::fill)):
//! the prover takes the stones the game-specific `WITNESS` names, which its
//! rules check cannot hurt it (Hex's captured cells), the side to move
//! unchanged, and proves `CHILD` instead. A line `ID ?WITNESS` is a *claim* (see [`Shortcuts::check_claim`](crate::game::Shortcuts::check_claim)):
//! a leaf where the prover wins by the game-specific `WITNESS` (one token,
//! no spaces), checked by the game's rules. A `win` needs `win proven`; a
//! `draw` needs `not-lose proven` and `win disproven`; a `loss` needs
//! `not-lose disproven` (or, in a game without draws, `win disproven`).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::BuildHasher as _;
use std::sync::atomic::Ordering;

use crate::dfpn::ghi::repetition_status;
use crate::dfpn::{self, status_of, PathOptions, Plain};
use crate::game::{Game, Goal, GoalContext, Outcome, Repetition, Side};
use crate::limits::Limits;
use crate::problem::{goal_implication, goal_key, goal_status, GoalProblem, Status};
use crate::tt::Table;

/// One node of a [`Block`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// The moves (in notation) and the ids they lead to; none at a finished
    /// game.
    Moves(Vec<(String, u32)>),
    /// Moves conceded to the prover's opponent (see [`Shortcuts::concede`](crate::game::Shortcuts::concede)) and
    /// the id of the position after them.
    Concede(Vec<String>, u32),
    /// Stones the prover takes by a game-specific witness (see
    /// [`Shortcuts::fill`](crate::game::Shortcuts::fill)) and the id of the position after them.
    Fill(String, u32),
    /// A leaf the prover wins by a game-specific witness (see
    /// [`Shortcuts::check_claim`](crate::game::Shortcuts::check_claim)).
    Claim(String),
}

/// One proof or disproof DAG.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub goal: Goal,
    /// `Proven` or `Disproven`.
    pub claim: Status,
    /// The nodes, node 0 the root.
    pub nodes: Vec<Node>,
}

impl Block {
    fn count(&self, kind: fn(&Node) -> bool) -> usize {
        self.nodes.iter().filter(|n| kind(n)).count()
    }

    /// How many nodes are concessions.
    pub fn concessions(&self) -> usize {
        self.count(|n| matches!(n, Node::Concede(..)))
    }

    /// How many nodes are fills.
    pub fn fills(&self) -> usize {
        self.count(|n| matches!(n, Node::Fill(..)))
    }

    /// How many nodes are claims.
    pub fn claims(&self) -> usize {
        self.count(|n| matches!(n, Node::Claim(..)))
    }
}

/// A certificate file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    pub game: String,
    pub position: String,
    pub value: Outcome,
    pub blocks: Vec<Block>,
}

const MAGIC: &str = "pns-certificate 1";

impl Certificate {
    /// The text form.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{MAGIC}");
        let _ = writeln!(s, "game {}", self.game);
        let _ = writeln!(s, "position {}", self.position);
        let _ = writeln!(s, "value {}", self.value);
        for b in &self.blocks {
            let _ = writeln!(
                s,
                "block {} {} {}",
                b.goal.name(),
                b.claim.name(),
                b.nodes.len()
            );
            for (i, n) in b.nodes.iter().enumerate() {
                let _ = write!(s, "{i}");
                match n {
                    Node::Moves(edges) => {
                        for (m, c) in edges {
                            let _ = write!(s, " {m}:{c}");
                        }
                    }
                    Node::Concede(moves, c) => {
                        let _ = write!(s, " !{}:{c}", moves.join(","));
                    }
                    Node::Fill(w, c) => {
                        let _ = write!(s, " +{w}:{c}");
                    }
                    Node::Claim(w) => {
                        let _ = write!(s, " ?{w}");
                    }
                }
                s.push('\n');
            }
            s.push_str("end\n");
        }
        s
    }

    /// Parses the text form; errors name the line.
    pub fn parse(text: &str) -> Result<Certificate, String> {
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim_end()));
        let mut next = |what: &str| -> Result<(usize, &str), String> {
            lines
                .next()
                .ok_or_else(|| format!("unexpected end of file: expected {what}"))
        };
        let (n, l) = next("the header")?;
        if l != MAGIC {
            return Err(format!(
                "line {n}: not a pns certificate (expected '{MAGIC}')"
            ));
        }
        let field = |(n, l): (usize, &str), key: &str| -> Result<String, String> {
            l.strip_prefix(key)
                .and_then(|r| {
                    r.strip_prefix(' ')
                        .or(if r.is_empty() { Some("") } else { None })
                })
                .map(|r| r.to_string())
                .ok_or_else(|| format!("line {n}: expected '{key} ...'"))
        };
        let game = field(next("game")?, "game")?;
        let position = field(next("position")?, "position")?;
        let (vn, vl) = next("value")?;
        let value = match field((vn, vl), "value")?.as_str() {
            "win" => Outcome::Win,
            "draw" => Outcome::Draw,
            "loss" => Outcome::Loss,
            v => return Err(format!("line {vn}: unknown value '{v}'")),
        };
        let mut blocks = Vec::new();
        while let Some((n, l)) = lines.next() {
            if l.is_empty() {
                continue;
            }
            let parts: Vec<&str> = l.split_whitespace().collect();
            if parts.len() != 4 || parts[0] != "block" {
                return Err(format!("line {n}: expected 'block GOAL CLAIM N'"));
            }
            let goal = Goal::from_name(parts[1])
                .ok_or_else(|| format!("line {n}: unknown goal '{}'", parts[1]))?;
            let claim = match Status::from_name(parts[2]) {
                Some(s @ (Status::Proven | Status::Disproven)) => s,
                _ => return Err(format!("line {n}: claim must be proven or disproven")),
            };
            let count: usize = parts[3]
                .parse()
                .map_err(|_| format!("line {n}: bad node count '{}'", parts[3]))?;
            let mut nodes = Vec::with_capacity(count.min(1 << 24));
            for i in 0..count {
                let (n, l) = lines
                    .next()
                    .ok_or_else(|| format!("unexpected end of file in block: node {i} missing"))?;
                let mut toks = l.split_whitespace();
                let id: usize = toks
                    .next()
                    .and_then(|t| t.parse().ok())
                    .ok_or_else(|| format!("line {n}: expected node id {i}"))?;
                if id != i {
                    return Err(format!(
                        "line {n}: node ids must be in order: expected {i}, found {id}"
                    ));
                }
                let toks: Vec<&str> = toks.collect();
                if let Some(w) = toks.first().and_then(|t| t.strip_prefix('?')) {
                    if toks.len() != 1 || w.is_empty() {
                        return Err(format!(
                            "line {n}: a claim is one non-empty token and the node's only entry"
                        ));
                    }
                    nodes.push(Node::Claim(w.to_string()));
                    continue;
                }
                let mut entries = Vec::with_capacity(toks.len());
                for t in toks {
                    let (m, c) = t
                        .rsplit_once(':')
                        .ok_or_else(|| format!("line {n}: '{t}' is not MOVE:CHILD"))?;
                    let c: u32 = c
                        .parse()
                        .map_err(|_| format!("line {n}: bad child id in '{t}'"))?;
                    if c as usize >= count {
                        return Err(format!("line {n}: child {c} is out of range (0..{count})"));
                    }
                    entries.push((m, c));
                }
                // A fill (`+`) or a concession (`!`) is the node's only entry.
                let special = |m: &str| m.starts_with(['+', '!']);
                nodes.push(match entries.as_slice() {
                    [(m, c)] if special(m) => {
                        let body = &m[1..];
                        let fill = m.starts_with('+');
                        // A fill's witness is one token; a concession's
                        // moves are separated by commas.
                        if body.is_empty() || (!fill && body.split(',').any(str::is_empty)) {
                            return Err(format!("line {n}: empty fill or concession '{m}'"));
                        }
                        if fill {
                            Node::Fill(body.to_string(), *c)
                        } else {
                            Node::Concede(body.split(',').map(String::from).collect(), *c)
                        }
                    }
                    e if e.iter().any(|(m, _)| special(m)) => {
                        return Err(format!(
                            "line {n}: a fill or a concession must be the node's only entry"
                        ))
                    }
                    e => Node::Moves(e.iter().map(|&(m, c)| (m.to_string(), c)).collect()),
                });
            }
            match lines.next() {
                Some((_, "end")) => {}
                Some((n, _)) => return Err(format!("line {n}: expected 'end'")),
                None => return Err("unexpected end of file: expected 'end'".into()),
            }
            blocks.push(Block { goal, claim, nodes });
        }
        Ok(Certificate {
            game,
            position,
            value,
            blocks,
        })
    }
}

/// The blocks a claimed value needs, as (goal, claim) pairs; the second
/// alternative for a loss applies to games without draws.
pub fn required_blocks(value: Outcome, has_draws: bool) -> Vec<(Goal, Status)> {
    match value {
        Outcome::Win => vec![(Goal::Win, Status::Proven)],
        Outcome::Draw => vec![
            (Goal::NotLose, Status::Proven),
            (Goal::Win, Status::Disproven),
        ],
        Outcome::Loss if has_draws => vec![(Goal::NotLose, Status::Disproven)],
        Outcome::Loss => vec![(Goal::Win, Status::Disproven)],
    }
}

/// The side a block proves a win for: the attacker of a `proven` block,
/// the defender of a `disproven` one (concessions go to the other side,
/// claims are made for this one).
pub fn prover(attacker: Side, claim: Status) -> Side {
    if claim == Status::Proven {
        attacker
    } else {
        attacker.opponent()
    }
}

/// `g` after `m`.
fn played<G: Game>(g: &G, m: G::Move) -> G {
    let mut c = g.clone();
    c.play(m);
    c
}

/// No node (the end of a memo chain).
const NO_NODE: u32 = u32::MAX;

/// A node under construction: [`Node`] with moves not yet in notation.
enum Raw<M> {
    Moves(Vec<(M, u32)>),
    Concede(Vec<M>, u32),
    Fill(String, u32),
    Claim(String),
}

/// Builds a proof or disproof DAG from what a search left in the table,
/// filling any gap (a child the search pruned as dominated, or an entry the
/// table replaced) with a df-pn sub-search.
pub struct Extractor<'a, G: Game> {
    ctx: GoalContext,
    claim: Status,
    tt: &'a Table,
    limits: Limits,
    /// The last node built for each position hash; `chain` leads to the
    /// earlier ones with the same hash. (Not a map from the position
    /// itself: a second copy of every position was about half of a large
    /// extraction's memory.)
    memo: HashMap<u64, u32>,
    /// Per node: the previous node whose position has the same hash.
    chain: Vec<u32>,
    hasher: std::collections::hash_map::RandomState,
    /// Bytes the DAG is estimated to hold (`NODE_BYTES` a node, and its
    /// moves).
    bytes: u64,
    /// Claims found for children by `claimed_child`, not yet used.
    claims: HashMap<G, String>,
    nodes: Vec<Raw<G::Move>>,
    games: Vec<G>,
    /// The game's repetition rule; with one, the line below and the
    /// repetitions met under each node matter (module docs of
    /// [`crate::verify`]).
    rule: Repetition,
    /// History keys of the positions from the root to the node being built.
    line: Vec<u64>,
    /// Per node: a repetition ended a line at or below it.
    rep: Vec<bool>,
    /// Sub-searches run to fill gaps.
    pub sub_searches: u64,
    /// The search that answers in place of df-pn ([`Extractor::with_search`]).
    search: Option<SubSearch<'a, G>>,
    /// The prover's move named by the search itself
    /// ([`Extractor::with_choice`]).
    choice: Option<SubChoice<'a, G>>,
    /// The prover's candidate moves tried nearest its goal first
    /// ([`Extractor::with_nearest_first`]).
    nearest_first: bool,
    /// When the extraction ends: `limits.time` bounds the whole of it, not
    /// each sub-search (a proof whose lines all end in repetitions can
    /// need exponentially many).
    deadline: Option<std::time::Instant>,
    /// Visits the sub-searches may still spend in all
    /// ([`Extractor::with_visit_budget`]).
    visits_left: Option<u64>,
    /// Why the extraction stopped early, if it did.
    exhausted: Option<String>,
}

/// A status search for [`Extractor::with_search`]: the status of "the
/// block's attacker reaches the goal" from a position reached by a line
/// (the history keys of the positions before it, oldest first), within
/// the limits given (the extractor's own, with the time its extraction
/// has left and its stop flag).
pub type SubSearch<'a, G> = Box<dyn FnMut(&G, &[u64], &Limits) -> Status + 'a>;

/// A move chooser for [`Extractor::with_choice`]: a move of the prover at
/// `g` (reached by the line of history keys given) that the search which
/// solved `g` names as winning, or `None` to ask each child.
pub type SubChoice<'a, G> =
    Box<dyn FnMut(&G, &[u64]) -> Option<<G as crate::game::Rules>::Move> + 'a>;

impl<'a, G: Game> Extractor<'a, G> {
    /// An extractor for "the side to move at the root achieves `goal`",
    /// whose answer is `claim`. `limits` bound each sub-search, their
    /// time limit the whole extraction from now, and their memory the
    /// DAG (an estimate: the position, the node and its memo entry, and
    /// each move), which ends the extraction with an error past it.
    pub fn new(root: &G, goal: Goal, claim: Status, tt: &'a Table, limits: Limits) -> Self {
        Extractor {
            ctx: GoalContext {
                attacker: root.side_to_move(),
                goal,
            },
            claim,
            tt,
            memo: HashMap::new(),
            chain: Vec::new(),
            hasher: std::collections::hash_map::RandomState::new(),
            bytes: 0,
            claims: HashMap::new(),
            nodes: Vec::new(),
            games: Vec::new(),
            rule: Repetition::for_attacker(root, root.side_to_move()),
            line: Vec::new(),
            rep: Vec::new(),
            sub_searches: 0,
            search: None,
            choice: None,
            nearest_first: false,
            // (A time too large for a deadline is no limit.)
            deadline: limits
                .time
                .and_then(|t| std::time::Instant::now().checked_add(t)),
            visits_left: None,
            exhausted: None,
            limits,
        }
    }

    /// The same extractor, its df-pn sub-searches spending at most
    /// `visits` visits in all (each one's own limit, `limits.visits`,
    /// still applies).
    pub fn with_visit_budget(mut self, visits: u64) -> Self {
        self.visits_left = Some(visits);
        self
    }

    /// The limits of the next sub-search, or `None` (and the reason kept)
    /// when the extraction's time or visit budget is spent.
    fn sub_limits(&mut self) -> Option<Limits> {
        if self.exhausted.is_some() {
            return None;
        }
        if self
            .limits
            .stop
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            self.exhausted = Some(format!(
                "the extraction was stopped after {} nodes",
                self.nodes.len()
            ));
            return None;
        }
        let mut lim = self.limits.clone();
        if let Some(d) = self.deadline {
            let left = d.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                self.exhausted = Some(format!(
                    "the extraction reached its time limit after {} nodes",
                    self.nodes.len()
                ));
                return None;
            }
            lim.time = Some(left);
        }
        if let Some(v) = self.visits_left {
            if v == 0 {
                self.exhausted = Some(format!(
                    "the extraction spent its visit budget after {} nodes",
                    self.nodes.len()
                ));
                return None;
            }
            lim.visits = Some(lim.visits.map_or(v, |own| own.min(v)));
        }
        Some(lim)
    }

    /// Counts a sub-search's visits against the budget.
    fn spent(&mut self, r: &crate::result::SearchResult) -> Status {
        if let Some(v) = self.visits_left.as_mut() {
            *v = v.saturating_sub(r.stats.visits.max(1));
        }
        r.status
    }

    /// The same extractor, with `search` filling the gaps instead of
    /// df-pn: the algorithm that solved the question, when df-pn alone
    /// could not repeat its proof within the limits (λ-df-pn on a Go
    /// capturing problem). Only what `search` claims is used to choose the
    /// DAG's nodes; the verifier checks the DAG with the rules alone, so a
    /// wrong claim makes a certificate fail, never pass.
    pub fn with_search(mut self, search: SubSearch<'a, G>) -> Self {
        self.search = Some(search);
        self
    }

    /// The same extractor, asking `choice` first for the prover's move at
    /// each of its nodes. A search whose proof of a node is not a proof of
    /// each child searched alone (λ-df-pn proves a capture through the λ
    /// order of the attacker's move, which a search from the position
    /// after it does not know) names its move from its own table; the
    /// subtree below is still extracted and the verifier checks it, so a
    /// wrong move makes the extraction fail, never a certificate pass.
    pub fn with_choice(mut self, choice: SubChoice<'a, G>) -> Self {
        self.choice = Some(choice);
        self
    }

    /// The same extractor, trying the prover's candidate moves (where
    /// neither the table nor [`Extractor::with_choice`] names one) in the
    /// order of the game's heuristic distance to the prover's goal after
    /// each ([`SearchHooks::heuristic`](crate::game::SearchHooks::heuristic)),
    /// the search order breaking ties. The first candidate whose status is
    /// the claim is taken and its whole subtree extracted. A move nearer
    /// the goal often ends its lines sooner (a Go escape that gains its
    /// liberties at once rather than in three moves, each answered by every
    /// move of the side that plays every point), though not always (where
    /// two eyes, not liberties, end the lines, the search's order found a
    /// tree of 60 nodes and this one millions). Only the order changes,
    /// never what is checked.
    pub fn with_nearest_first(mut self) -> Self {
        self.nearest_first = true;
        self
    }

    /// Whether the DAG outgrew `limits.memory` (an extraction that ended
    /// there, not for a status or move it could not find).
    pub fn outgrew_memory(&self) -> bool {
        self.limits.memory.is_some_and(|m| self.bytes > m)
    }

    /// The node's status: from the rules, the game's exact knowledge, the
    /// table, or else a sub-search.
    ///
    /// With a repetition rule the answer is for `g` reached by the current
    /// line: a repetition of it, or a sub-search that knows the line (the
    /// table's path-independent entries and the twins for this very path
    /// answer at once).
    pub fn status(&mut self, g: &G) -> Status {
        if self.rule != Repetition::Impossible {
            if self.line.contains(&g.history_key()) {
                return repetition_status(self.rule, g.side_to_move() == self.ctx.attacker);
            }
            if let Some(o) = g.known_outcome() {
                return goal_status(g, o, self.ctx);
            }
            let Some(lim) = self.sub_limits() else {
                return Status::Unknown;
            };
            self.sub_searches += 1;
            if let Some(search) = self.search.as_mut() {
                return search(g, &self.line, &lim);
            }
            let mut p = GoalProblem::with_attacker(g.clone(), self.ctx.goal, self.ctx.attacker);
            p.set_reuse_other_goal(true);
            let path = PathOptions {
                prefix: &self.line,
                ..PathOptions::default()
            };
            let r = dfpn::search_with(&mut p, Plain::default(), self.tt, &lim, &path);
            return self.spent(&r);
        }
        if let Some(o) = g.known_outcome() {
            return goal_status(g, o, self.ctx);
        }
        let s = self.table_status(g);
        if s.is_solved() {
            return s;
        }
        let Some(lim) = self.sub_limits() else {
            return Status::Unknown;
        };
        self.sub_searches += 1;
        if let Some(search) = self.search.as_mut() {
            return search(g, &self.line, &lim);
        }
        let mut p = GoalProblem::with_attacker(g.clone(), self.ctx.goal, self.ctx.attacker);
        p.set_reuse_other_goal(true);
        let r = dfpn::search(&mut p, Plain::default(), self.tt, &lim);
        self.spent(&r)
    }

    /// Whether the node `id` (built on another line) may be shared on the
    /// current one: no repetition below it and none of its positions on the
    /// line (the verifier's rule).
    fn shareable(&self, id: u32) -> bool {
        if self.rule == Repetition::Impossible {
            return true;
        }
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            if !seen.insert(n) {
                continue;
            }
            let n = n as usize;
            if self.rep[n] || self.line.contains(&self.games[n].history_key()) {
                return false;
            }
            if let Raw::Moves(edges) = &self.nodes[n] {
                stack.extend(edges.iter().map(|&(_, c)| c));
            }
        }
        true
    }

    /// The table's answer for `g`, directly or through the other goal's
    /// answer (a proven win is a proven not-lose; a disproven not-lose a
    /// disproven win).
    fn table_status(&mut self, g: &G) -> Status {
        let key = goal_key(g, self.ctx);
        if let Some(h) = self.tt.probe(key) {
            let s = status_of(h.pn, h.dn);
            if s.is_solved() {
                return s;
            }
        }
        let imp = goal_implication(self.ctx);
        match self.tt.probe(key ^ imp.key_xor) {
            Some(h) if status_of(h.pn, h.dn) == imp.status => imp.status,
            _ => Status::Unknown,
        }
    }

    /// The cheapest child of `g` whose status is the claim: one known
    /// without a search (`Extractor::known_child`: finished game, table
    /// entry with the least effort, known outcome, the other goal's entry);
    /// else, where the table has not solved `g`, the same after one
    /// sub-search of `g`; else a sub-search per child in the game's search
    /// order. (With a repetition rule, a sub-search per child on the line.)
    pub fn choose(&mut self, g: &G) -> Option<G::Move> {
        let track = self.rule != Repetition::Impossible;
        if track {
            self.line.push(g.history_key());
        }
        let m = self.choose_on_line(g);
        if track {
            self.line.pop();
        }
        m
    }

    fn choose_on_line(&mut self, g: &G) -> Option<G::Move> {
        if self.rule == Repetition::Impossible {
            if let Some(m) = self.known_child(g, g) {
                return Some(m);
            }
            // A node the search did not solve (below a child taken on
            // trust, see `child_status`): one sub-search here leaves its
            // winning child in the table, where a sub-search per child
            // could spend one on each losing move first.
            if !self.table_status(g).is_solved() && self.status(g) == self.claim {
                if let Some(m) = self.known_child(g, g) {
                    return Some(m);
                }
            }
        }
        // Each child asked in the game's search order (with a repetition
        // rule the table's base entries may not hold for this line).
        let mut order = Vec::new();
        g.search_moves(&mut order);
        let mut legal = Vec::new();
        g.legal_moves(&mut legal);
        for m in legal {
            if !order.contains(&m) {
                order.push(m);
            }
        }
        if self.nearest_first {
            let (ctx, proven) = (self.ctx, self.claim == Status::Proven);
            // (A stable sort: the search order breaks ties.)
            order.sort_by_cached_key(|&m| {
                let h = played(g, m).heuristic(ctx);
                if proven {
                    h.0
                } else {
                    h.1
                }
            });
        }
        order
            .into_iter()
            .find(|&m| self.status(&played(g, m)) == self.claim)
    }

    /// The cheapest move of `g` whose child is known to have the claim
    /// without a search. First what costs no analysis: a finished game,
    /// then the table entry with the least effort; only when neither
    /// answers, the game's own knowledge ([`SearchHooks::known_outcome`](crate::game::SearchHooks::known_outcome):
    /// an H-search per child in Hex, most of them on positions the search
    /// never analysed), then the other goal's entry. The children are
    /// judged in `s`, the position whose table entries stand for `g`'s
    /// ([`Extractor::node_read`]; `g` itself where there is none), and only
    /// the moves legal in both count.
    fn known_child(&mut self, g: &G, s: &G) -> Option<G::Move> {
        let mut legal = Vec::new();
        g.legal_moves(&mut legal);
        if !std::ptr::eq(g, s) {
            let mut theirs = Vec::new();
            s.legal_moves(&mut theirs);
            legal.retain(|m| theirs.contains(m));
        }
        let mut children = Vec::with_capacity(legal.len());
        let mut best: Option<(u64, G::Move)> = None;
        for &m in &legal {
            let c = played(s, m);
            let rank = if let Some(o) = c.outcome() {
                (goal_status(&c, o, self.ctx) == self.claim).then_some(0)
            } else {
                match self.tt.probe(goal_key(&c, self.ctx)) {
                    Some(h) if status_of(h.pn, h.dn) == self.claim => Some(1 + h.amount as u64),
                    _ => {
                        children.push((m, c));
                        None
                    }
                }
            };
            if let Some(r) = rank {
                if best.is_none_or(|(b, _)| r < b) {
                    best = Some((r, m));
                }
            }
        }
        if let Some((_, m)) = best {
            return Some(m);
        }
        let mut implied = None;
        for (m, c) in children {
            if let Some(o) = c.known_outcome() {
                if goal_status(&c, o, self.ctx) == self.claim {
                    return Some(m);
                }
            } else if implied.is_none() && self.table_status(&c) == self.claim {
                implied = Some(m);
            }
        }
        implied
    }

    /// The status of `c`, a child of a node where the prover's opponent
    /// moves, and the position that stands for `c` below: `s` (the node's
    /// own reading position played on, [`Extractor::node_read`]) when the
    /// rules or the search's table know it has the claim there (not the
    /// game's analysis: in Hex an H-search per child, on positions the
    /// search ruled out).
    ///
    /// Without a repetition rule `c` is not searched: every child of such a
    /// node has the node's status, the claim, by the minimax rule, and a
    /// sub-search per child cost most of a Hex certificate's extraction
    /// (the search leaves no entry for a move it ruled out, such as one
    /// outside the must-play region). Should the belief be wrong, the
    /// subtree below fails. With a repetition rule a status depends on the
    /// line, and `c` is searched as before.
    fn child_status(&mut self, c: &G, s: Option<G>) -> (Status, Option<G>) {
        if self.rule != Repetition::Impossible {
            return (self.status(c), None);
        }
        let read = s.filter(|s| {
            let known = match s.outcome() {
                Some(o) => goal_status(s, o, self.ctx),
                None => self.table_status(s),
            };
            known == self.claim
        });
        (self.claim, read)
    }

    /// The node built for `g`, the latest if several (one per line where
    /// repetitions matter).
    fn memo_get(&self, g: &G) -> Option<u32> {
        let mut id = *self.memo.get(&self.hasher.hash_one(g))?;
        while id != NO_NODE {
            if self.games[id as usize] == *g {
                return Some(id);
            }
            id = self.chain[id as usize];
        }
        None
    }

    /// Records `id`, the node just pushed, as `g`'s (the latest).
    fn memo_link(&mut self, g: &G, id: u32) {
        let prev = self.memo.insert(self.hasher.hash_one(g), id);
        self.chain[id as usize] = prev.unwrap_or(NO_NODE);
    }

    /// A new node at `g` without moves yet (`rep`: a repetition ends the
    /// line there), or an error once the DAG's estimated memory passes
    /// `limits.memory`.
    fn push_node(&mut self, g: &G, rep: bool) -> Result<u32, String> {
        let id = self.nodes.len() as u32;
        self.bytes += Self::NODE_BYTES;
        if self.limits.memory.is_some_and(|m| self.bytes > m) {
            let e = format!(
                "the extraction reached its memory limit ({} MiB) after {} nodes",
                self.limits.memory.unwrap_or(0) >> 20,
                id
            );
            self.exhausted = Some(e.clone());
            return Err(e);
        }
        self.nodes.push(Raw::Moves(Vec::new()));
        self.games.push(g.clone());
        self.rep.push(rep);
        self.chain.push(NO_NODE);
        Ok(id)
    }

    /// A node's share of the DAG's memory, its moves apart: the position,
    /// the node, its memo entry (with the table's slack) and chain link,
    /// its repetition flag.
    const NODE_BYTES: u64 = (std::mem::size_of::<G>()
        + std::mem::size_of::<Raw<G::Move>>()
        + 2 * std::mem::size_of::<(u64, u32)>()
        + std::mem::size_of::<u32>()
        + 1) as u64;

    /// Forgets the nodes from `mark` on: a subtree built on a shortcut
    /// whose result did not hold ([`Extractor::shortcut_child`]).
    fn rollback(&mut self, mark: usize) {
        let forgotten = self.nodes.len().saturating_sub(mark) as u64;
        self.bytes = self.bytes.saturating_sub(forgotten * Self::NODE_BYTES);
        self.nodes.truncate(mark);
        self.games.truncate(mark);
        self.rep.truncate(mark);
        // Entries of forgotten nodes fall back to the earlier nodes of their
        // chains (a chain leads to lower ids only).
        let chain = &self.chain;
        self.memo.retain(|_, id| {
            while *id as usize >= mark {
                match chain[*id as usize] {
                    NO_NODE => return false,
                    prev => *id = prev,
                }
            }
            true
        });
        self.chain.truncate(mark);
    }

    /// The node after a concession or a fill at a node read through `s`:
    /// `c`, the position after it, when the claim holds there.
    ///
    /// Both keep the value (the game's analysis suggests only such ones:
    /// fill-in, cells outside a connection's carrier), so without a
    /// repetition rule the claim is taken to hold at `c` and the statuses
    /// below it are read from the search's table through `s`, the position
    /// before the shortcut, which the search did see: a position after a
    /// shortcut is one the search never visited, and a sub-search on each
    /// such position and its children was most of a Hex certificate's
    /// extraction time (docs/PERFORMANCE.md, Hex certificates). Should the
    /// subtree fail, it is forgotten and `c`'s status is searched, as
    /// everywhere else. The verifier checks the result either way.
    fn shortcut_child(&mut self, c: &G, s: &G) -> Result<Option<u32>, String> {
        if self.rule == Repetition::Impossible {
            let mark = self.nodes.len();
            match self.node_read(c, Some(s.clone())) {
                Ok(id) => return Ok(Some(id)),
                Err(e) if self.exhausted.is_some() => return Err(e),
                Err(_) => self.rollback(mark),
            }
        }
        if self.status(c) != self.claim {
            return Ok(None);
        }
        self.node(c).map(Some)
    }

    /// Extracts the DAG below `root` and returns it as a [`Block`].
    pub fn extract(&mut self, root: &G) -> Result<Block, String> {
        if self.status(root) != self.claim {
            return Err(format!(
                "the root is not {} for goal {}",
                self.claim.name(),
                self.ctx.goal.name()
            ));
        }
        if let Err(e) = self.node(root) {
            // A budget spent shows as some node left unknown: say which.
            return Err(self.exhausted.take().unwrap_or(e));
        }
        // (Each node's moves are freed as it is written in notation.)
        let nodes = std::mem::take(&mut self.nodes)
            .into_iter()
            .zip(&self.games)
            .map(|(raw, g)| match raw {
                Raw::Moves(edges) => {
                    Node::Moves(edges.iter().map(|&(m, c)| (g.format_move(m), c)).collect())
                }
                Raw::Concede(moves, c) => {
                    Node::Concede(moves.iter().map(|&m| g.format_move(m)).collect(), c)
                }
                Raw::Fill(w, c) => Node::Fill(w, c),
                Raw::Claim(w) => Node::Claim(w),
            })
            .collect();
        Ok(Block {
            goal: self.ctx.goal,
            claim: self.claim,
            nodes,
        })
    }

    fn node(&mut self, g: &G) -> Result<u32, String> {
        self.node_read(g, None)
    }

    /// The node of `g`, its statuses read from the table through `s` when
    /// given: the position without the concessions and fills made above
    /// `g` and with the same moves since, whose entries the search left
    /// ([`Extractor::shortcut_child`]).
    fn node_read(&mut self, g: &G, s: Option<G>) -> Result<u32, String> {
        let track = self.rule != Repetition::Impossible;
        if track && self.line.contains(&g.history_key()) {
            // The line ends here by the rule: a leaf of its own (the same
            // position elsewhere may need a subtree).
            let st = repetition_status(self.rule, g.side_to_move() == self.ctx.attacker);
            if st != self.claim {
                return Err(format!(
                    "a repetition in the DAG is not {}",
                    self.claim.name()
                ));
            }
            return self.push_node(g, true);
        }
        if let Some(id) = self.memo_get(g) {
            if self.shareable(id) {
                return Ok(id);
            }
        }
        let id = self.push_node(g, false)?;
        self.memo_link(g, id);
        if track {
            self.line.push(g.history_key());
        }
        let r = self.node_below(g, s, id);
        if track {
            self.line.pop();
            if let Raw::Moves(edges) = &self.nodes[id as usize] {
                self.rep[id as usize] = edges.iter().any(|&(_, c)| self.rep[c as usize]);
            }
        }
        r
    }

    /// [`Extractor::node`] below the node `id` at `g`, with `g` on the line.
    fn node_below(&mut self, g: &G, s: Option<G>, id: u32) -> Result<u32, String> {
        if let Some(o) = g.outcome() {
            if goal_status(g, o, self.ctx) != self.claim {
                return Err(format!(
                    "a finished game in the DAG is not {}",
                    self.claim.name()
                ));
            }
            return Ok(id);
        }
        let prover = self.prover();
        let claim = match self.claims.remove(g) {
            Some(w) => Some(w),
            None => g.claim(prover).filter(|w| g.check_claim(prover, w).is_ok()),
        };
        if let Some(w) = claim {
            self.nodes[id as usize] = Raw::Claim(w);
            return Ok(id);
        }
        let is_or = g.side_to_move() == self.ctx.attacker;
        // The prover moves here: the node keeps one child, which the
        // search's table names. Concessions and fills are made only where
        // the other side moves, where they cut the children to play out: a
        // position after them is one the search never saw (its statuses
        // are read through the position before, `shortcut_child`), while
        // here it would save no child (docs/PERFORMANCE.md, Hex certificates).
        let one = (self.claim == Status::Proven) == is_or;
        // The position whose table entries stand for `g`'s.
        let read = s.as_ref().unwrap_or(g);
        if !one {
            if let Some((moves, c)) = self.concession(g) {
                if let Some(child) = self.shortcut_child(&c, read)? {
                    self.nodes[id as usize] = Raw::Concede(moves, child);
                    return Ok(id);
                }
            }
            if let Some((w, c)) = self.fill(g) {
                if let Some(child) = self.shortcut_child(&c, read)? {
                    self.nodes[id as usize] = Raw::Fill(w, child);
                    return Ok(id);
                }
            }
        }
        let mut edges = Vec::new();
        if one {
            // (Claims and shared children chosen without a search do not
            // know the line: not with a repetition rule.)
            let mut m = if self.rule == Repetition::Impossible {
                self.claimed_child(g, prover)
            } else {
                None
            };
            // A move the table names through `s` keeps reading through it.
            let mut through = None;
            if let (None, Some(s)) = (m, s.as_ref()) {
                m = self.known_child(g, s);
                through = m.map(|m| played(s, m));
            }
            if m.is_none() {
                if let Some(choose) = self.choice.as_mut() {
                    let mut legal = Vec::new();
                    g.legal_moves(&mut legal);
                    m = choose(g, &self.line).filter(|m| legal.contains(m));
                }
            }
            let m = m.or_else(|| self.choose_on_line(g)).ok_or_else(|| {
                format!(
                    "no child is {} at a node the search solved (limits too small?)",
                    self.claim.name()
                )
            })?;
            let c = played(g, m);
            edges.push((m, self.node_read(&c, through)?));
        } else {
            let mut legal = Vec::new();
            g.legal_moves(&mut legal);
            legal.sort();
            let mut theirs = Vec::new();
            if let Some(s) = s.as_ref() {
                s.legal_moves(&mut theirs);
            }
            for m in legal {
                let c = played(g, m);
                let through = s
                    .as_ref()
                    .filter(|_| theirs.contains(&m))
                    .map(|s| played(s, m));
                let (st, through) = self.child_status(&c, through);
                if st != self.claim {
                    return Err(format!(
                        "a child is {} where {} was expected",
                        st.name(),
                        self.claim.name()
                    ));
                }
                edges.push((m, self.node_read(&c, through)?));
            }
        }
        self.bytes += (edges.capacity() * std::mem::size_of::<(G::Move, u32)>()) as u64;
        self.nodes[id as usize] = Raw::Moves(edges);
        Ok(id)
    }

    /// One of the first few moves the game's search order lists whose
    /// position the prover can claim at once ([`Shortcuts::claim`](crate::game::Shortcuts::claim)): such a move
    /// ends the line with one leaf.
    fn claimed_child(&mut self, g: &G, prover: Side) -> Option<G::Move> {
        const TRIED: usize = 3;
        let mut order = Vec::new();
        g.search_moves(&mut order);
        for m in order.into_iter().take(TRIED) {
            let c = played(g, m);
            if c.outcome().is_some() {
                continue;
            }
            // A child already in the DAG is shared (unless it is still
            // being built: an ancestor, in a game with cycles).
            if let Some(id) = self.memo_get(&c) {
                if !matches!(&self.nodes[id as usize], Raw::Moves(e) if e.is_empty()) {
                    return Some(m);
                }
                continue;
            }
            // Only where the game's own analysis sees the prover win: on
            // Hex 7x7 `f7` every claim tried elsewhere failed (300 of 350
            // tries), each an H-search that writes its derivation.
            let sees = c.known_outcome().map(|o| goal_status(&c, o, self.ctx));
            if sees != Some(self.claim) {
                continue;
            }
            if let Some(w) = c.claim(prover).filter(|w| c.check_claim(prover, w).is_ok()) {
                self.claims.insert(c, w);
                return Some(m);
            }
        }
        None
    }

    /// The side this block proves a win for: the attacker of a proof, the
    /// defender of a disproof.
    fn prover(&self) -> Side {
        prover(self.ctx.attacker, self.claim)
    }

    /// The game's suggested fill at `g` ([`Shortcuts::fill_witness`](crate::game::Shortcuts::fill_witness)) and the
    /// position after it (whether the claim holds there is for
    /// [`Extractor::shortcut_child`] to find).
    fn fill(&mut self, g: &G) -> Option<(String, G)> {
        let prover = self.prover();
        let w = g.fill_witness(prover)?;
        let mut c = g.clone();
        c.fill(prover, &w).ok()?;
        Some((w, c))
    }

    /// The game's suggested concessions at `g` ([`Shortcuts::concessions`](crate::game::Shortcuts::concessions)) and
    /// the position after them (whether the claim holds there is for
    /// [`Extractor::shortcut_child`] to find).
    fn concession(&mut self, g: &G) -> Option<(Vec<G::Move>, G)> {
        let prover = self.prover();
        let mut moves = Vec::new();
        g.concessions(prover, &mut moves);
        if moves.is_empty() {
            return None;
        }
        moves.sort();
        let mut c = g.clone();
        for &m in &moves {
            c.concede(prover.opponent(), m).ok()?;
        }
        Some((moves, c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_bad_text_is_rejected() {
        let c = Certificate {
            game: "tictactoe".into(),
            position: "15".into(),
            value: Outcome::Draw,
            blocks: vec![Block {
                goal: Goal::Win,
                claim: Status::Disproven,
                nodes: vec![Node::Moves(vec![("2".into(), 1)]), Node::Moves(vec![])],
            }],
        };
        let t = c.to_text();
        assert_eq!(Certificate::parse(&t).unwrap(), c);
        assert!(Certificate::parse("hello").is_err());
        let broken = t.replace("0 2:1", "0 2:7");
        assert!(Certificate::parse(&broken)
            .unwrap_err()
            .contains("out of range"));
        let truncated = t.replace("end\n", "");
        assert!(Certificate::parse(&truncated).is_err());
        // Concessions, fills and claims round-trip; malformed ones are
        // rejected.
        let mut c2 = c.clone();
        c2.blocks[0].nodes = vec![
            Node::Concede(vec!["1".into(), "3".into()], 1),
            Node::Fill("{b1c1}".into(), 2),
            Node::Moves(vec![("2".into(), 3)]),
            Node::Claim("N-b2:b1c1:(b1>c1.c1>b1.)".into()),
        ];
        let t2 = c2.to_text();
        assert!(
            t2.contains("0 !1,3:1\n") && t2.contains("1 +{b1c1}:2\n") && t2.contains("3 ?N-b2"),
            "{t2}"
        );
        assert_eq!(Certificate::parse(&t2).unwrap(), c2);
        assert_eq!((c2.blocks[0].concessions(), c2.blocks[0].fills()), (1, 1));
        for (from, to) in [
            ("0 !1,3:1", "0 !1,3:1 2:1"),
            ("0 !1,3:1", "0 !1,,3:1"),
            ("0 !1,3:1", "0 !1:1 !3:1"),
            ("1 +{b1c1}:2", "1 +{b1c1}:2 2:2"),
            ("1 +{b1c1}:2", "1 2:2 +{b1c1}:2"),
            ("1 +{b1c1}:2", "1 +:2"),
            ("1 +{b1c1}:2", "1 +{b1c1}:9"),
            ("3 ?N-b2:b1c1:(b1>c1.c1>b1.)", "3 ?a ?b"),
        ] {
            assert!(Certificate::parse(&t2.replace(from, to)).is_err(), "{to}");
        }
    }
}
