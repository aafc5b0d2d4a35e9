//! Game graphs with cycles and transpositions, and an exact oracle that
//! knows the repetition rule: the test bed for GHI-safe search (Kishimoto
//! and Müller 2005, "A solution to the GHI problem for depth-first
//! proof-number search").
//!
//! A position is a vertex of a directed graph. Every vertex has a fixed
//! side to move and every edge (a move) goes to a vertex of the other side.
//! A vertex is either *finished* (a win or a loss for its side to move) or
//! has at least one move. The graph is shared between positions, so cloning
//! a position is cheap.
//!
//! # Repetitions
//!
//! The *line* is the sequence of positions from the search root to the
//! current one, the root included. A position already on the line is a
//! *repetition* and is not looked below; its value is given by the rule:
//!
//! * `fpl` (*first-player-loss*, tsume-shogi): a repetition is a loss for
//!   the attacker, the side to move at the root. Repeating never helps the
//!   attacker, whoever repeats.
//! * `cpl` (*current-player-loss*, Go's situational super-ko): the player
//!   whose move repeats a position loses, so the side to move at the
//!   repeated position wins.
//!
//! So the value of a position depends on the line that reaches it (the
//! paper's Fig. 4: one vertex is a win by one path and a loss by another).
//! Moves written in the notation only choose the start position: the line
//! of a search always starts at the position it is given.
//!
//! # Notation
//!
//! Whitespace-separated tokens. The first is a header of comma-separated
//! `name=value` pairs and must name the rule: `rule=fpl` or `rule=cpl`.
//!
//! **Random graphs**: the header also holds any of `nodes=N` (default 8),
//! `degree=K` (default 2), `seed=S` (default 1), `terminal=P` (default 20)
//! and `win=W` (default 50), e.g.
//! `rule=cpl,nodes=12,degree=3,seed=7,terminal=25,win=50`. Vertices are
//! named `0` to `N-1`; even ones have the first player to move, odd ones
//! the second, and vertex 0 is the root. Each vertex is finished with
//! probability P% (a win for its side to move with probability W%),
//! otherwise it has 1 to K distinct successors drawn uniformly among *all*
//! vertices of the other side, so cycles and transpositions are common.
//!
//! **Written-out graphs**: after the header (`rule=...` alone), one token
//! per vertex, `NAME:SUCC,SUCC,...` for a vertex with moves or `NAME:win` /
//! `NAME:loss` for a finished one (the result for its side to move). Names
//! are letters, digits and `_`. The first vertex written is the root and
//! has the first player to move; the other vertices' sides follow by
//! alternation, so every vertex must be reachable from the root and every
//! edge must join vertices of different sides. The paper's Fig. 4:
//!
//! ```text
//! rule=cpl A:B,C B:D C:D D:C
//! ```
//!
//! To write a figure: name the root first, list each vertex's moves in the
//! order the search should try them, and give every finished vertex its
//! result *for the player to move there* (a vertex two moves below the root
//! has the root's player to move; one move below, the opponent).
//!
//! **Moves**: after the graph, optional moves played from the root, each
//! written as the name of the vertex it leads to: `rule=cpl A:B,C B:D C:D
//! D:C B D` is vertex D.
//!
//! [`Graph::written_out`] writes any graph in the second form, e.g. a
//! random graph a test failed on, to keep or edit by hand.
//!
//! # Oracles
//!
//! [`oracle`] gives the exact value under the rule by search over whole
//! lines, memoised on (vertex, set of vertices on the line); graphs of at
//! most 128 vertices. [`tree_oracle`] answers the same question with no
//! memo at all (exponential; a dozen vertices), to check the first. The
//! `_line` variants take the line that leads to a position, to state
//! path-dependent values such as Fig. 4's.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use pns_core::game::play_move_list;
use pns_core::prelude::*;
use pns_core::rng::{splitmix64, Rng};
use pns_core::{GameError, Outcome, Repetition, Side};

/// Largest random graph (vertices), and largest random out-degree.
const MAX_NODES: u64 = 100_000;
const MAX_DEGREE: u64 = 64;

/// The parameters of a seeded random graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GraphParams {
    /// `FirstPlayerLoss` or `CurrentPlayerLoss`.
    pub rule: Repetition,
    pub nodes: u32,
    /// Most successors of a vertex (at least one).
    pub degree: u32,
    pub seed: u64,
    /// Percentage of finished vertices.
    pub terminal: u8,
    /// Percentage of finished vertices won by their side to move.
    pub win: u8,
}

impl GraphParams {
    /// Default parameters under `rule`.
    pub fn new(rule: Repetition) -> Self {
        GraphParams {
            rule,
            nodes: 8,
            degree: 2,
            seed: 1,
            terminal: 20,
            win: 50,
        }
    }

    /// The notation of these parameters (the header, no moves).
    pub fn notation(&self) -> String {
        format!(
            "rule={},nodes={},degree={},seed={},terminal={},win={}",
            rule_name(self.rule),
            self.nodes,
            self.degree,
            self.seed,
            self.terminal,
            self.win
        )
    }
}

fn rule_name(r: Repetition) -> &'static str {
    match r {
        Repetition::FirstPlayerLoss => "fpl",
        Repetition::CurrentPlayerLoss => "cpl",
        Repetition::Impossible => "none",
        Repetition::SecondPlayerLoss => "spl",
    }
}

/// A game graph. Vertex 0 is the root.
#[derive(Debug)]
pub struct Graph {
    rule: Repetition,
    names: Vec<String>,
    side: Vec<Side>,
    succ: Vec<Vec<u32>>,
    terminal: Vec<Option<Outcome>>,
    /// Set for a random graph: its notation is then the parameters.
    params: Option<GraphParams>,
    index: HashMap<String, u32>,
    /// A hash of the contents (not of how they were written), so that equal
    /// graphs hash alike.
    fingerprint: u64,
}

impl PartialEq for Graph {
    fn eq(&self, o: &Self) -> bool {
        self.fingerprint == o.fingerprint
            && self.rule == o.rule
            && self.names == o.names
            && self.side == o.side
            && self.succ == o.succ
            && self.terminal == o.terminal
    }
}

impl Eq for Graph {}

impl Graph {
    fn build(
        rule: Repetition,
        names: Vec<String>,
        side: Vec<Side>,
        succ: Vec<Vec<u32>>,
        terminal: Vec<Option<Outcome>>,
        params: Option<GraphParams>,
    ) -> Graph {
        let mut h = splitmix64(0x6379_636c_6963 ^ rule as u64);
        let mut mix = |x: u64| h = splitmix64(h ^ x);
        for v in 0..names.len() {
            for b in names[v].bytes() {
                mix(b as u64);
            }
            mix(0x100 + side[v] as u64);
            mix(match terminal[v] {
                None => 0x200,
                Some(o) => 0x300 + o as u64,
            });
            for &w in &succ[v] {
                mix(0x1_0000_0000 + w as u64);
            }
            mix(0x400);
        }
        let index = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i as u32))
            .collect();
        Graph {
            rule,
            names,
            side,
            succ,
            terminal,
            params,
            index,
            fingerprint: h,
        }
    }

    /// A seeded random graph (see the module documentation).
    pub fn random(p: GraphParams) -> Result<Graph, GameError> {
        if p.rule == Repetition::Impossible {
            return Err(GameError::new("rule must be fpl or cpl"));
        }
        if p.nodes == 0 {
            return Err(GameError::new("nodes must be at least 1"));
        }
        if p.nodes as u64 > MAX_NODES {
            return Err(GameError::new(format!(
                "nodes: {} is over the maximum {MAX_NODES}",
                p.nodes
            )));
        }
        if p.degree == 0 {
            return Err(GameError::new("degree must be at least 1"));
        }
        if p.degree as u64 > MAX_DEGREE {
            return Err(GameError::new(format!(
                "degree: {} is over the maximum {MAX_DEGREE}",
                p.degree
            )));
        }
        if p.terminal > 100 || p.win > 100 {
            return Err(GameError::new(
                "terminal and win are percentages (0 to 100)",
            ));
        }
        let n = p.nodes as usize;
        let mut rng = Rng::new(splitmix64(p.seed ^ 0x6379_636c_6963));
        let side: Vec<Side> = (0..n)
            .map(|v| {
                if v % 2 == 0 {
                    Side::First
                } else {
                    Side::Second
                }
            })
            .collect();
        let mut succ = vec![Vec::new(); n];
        let mut terminal = vec![None; n];
        for v in 0..n {
            // Vertices of the other side are 2j + parity, j < count.
            let parity = 1 - v % 2;
            let count = (n - parity).div_ceil(2);
            let finished = rng.below(100) < p.terminal as u64;
            let wins = rng.below(100) < p.win as u64;
            if finished || count == 0 {
                terminal[v] = Some(if wins { Outcome::Win } else { Outcome::Loss });
                continue;
            }
            let k = (1 + rng.below(p.degree as u64) as usize).min(count);
            let s = &mut succ[v];
            while s.len() < k {
                let w = (2 * rng.below(count as u64) as usize + parity) as u32;
                if !s.contains(&w) {
                    s.push(w);
                }
            }
        }
        let names = (0..n).map(|v| v.to_string()).collect();
        Ok(Graph::build(p.rule, names, side, succ, terminal, Some(p)))
    }

    /// A graph written out as `NAME:SUCC,...` / `NAME:win` / `NAME:loss`
    /// tokens, the first being the root.
    pub fn written(rule: Repetition, defs: &[&str]) -> Result<Graph, GameError> {
        if rule == Repetition::Impossible {
            return Err(GameError::new("rule must be fpl or cpl"));
        }
        if defs.is_empty() {
            return Err(GameError::new("the graph has no vertices"));
        }
        let mut names: Vec<String> = Vec::with_capacity(defs.len());
        let mut index: HashMap<&str, u32> = HashMap::new();
        let mut specs: Vec<&str> = Vec::with_capacity(defs.len());
        for d in defs {
            let (name, spec) = d
                .split_once(':')
                .ok_or_else(|| GameError::new(format!("'{d}' is not NAME:MOVES")))?;
            check_name(name)?;
            if index.insert(name, names.len() as u32).is_some() {
                return Err(GameError::new(format!("vertex {name} is written twice")));
            }
            names.push(name.to_string());
            specs.push(spec);
        }
        let n = names.len();
        let mut succ = vec![Vec::new(); n];
        let mut terminal = vec![None; n];
        for v in 0..n {
            let (name, spec) = (&names[v], specs[v]);
            match spec {
                "win" => terminal[v] = Some(Outcome::Win),
                "loss" => terminal[v] = Some(Outcome::Loss),
                "" => {
                    return Err(GameError::new(format!(
                        "vertex {name} has no moves (write {name}:win or {name}:loss for a finished one)"
                    )))
                }
                _ => {
                    for t in spec.split(',') {
                        let &w = index.get(t).ok_or_else(|| {
                            if t.is_empty() {
                                GameError::new(format!("vertex {name}: an empty successor name"))
                            } else {
                                GameError::new(format!(
                                    "edge {name}->{t}: vertex {t} is not written"
                                ))
                            }
                        })?;
                        if succ[v].contains(&w) {
                            return Err(GameError::new(format!(
                                "edge {name}->{t} is written twice"
                            )));
                        }
                        succ[v].push(w);
                    }
                }
            }
        }
        // Sides by alternation from the root (breadth first).
        let mut side: Vec<Option<Side>> = vec![None; n];
        side[0] = Some(Side::First);
        let mut queue = VecDeque::from([0usize]);
        while let Some(v) = queue.pop_front() {
            let s = side[v].expect("queued vertices have a side");
            for &w in &succ[v] {
                let w = w as usize;
                match side[w] {
                    None => {
                        side[w] = Some(s.opponent());
                        queue.push_back(w);
                    }
                    Some(t) if t == s => {
                        return Err(GameError::new(format!(
                        "edge {}->{} does not alternate sides (both have the {s} player to move)",
                        names[v], names[w]
                    )))
                    }
                    Some(_) => {}
                }
            }
        }
        let side = side
            .iter()
            .enumerate()
            .map(|(v, s)| {
                s.ok_or_else(|| {
                    GameError::new(format!(
                        "vertex {} is not reachable from the root {}",
                        names[v], names[0]
                    ))
                })
            })
            .collect::<Result<Vec<Side>, GameError>>()?;
        Ok(Graph::build(rule, names, side, succ, terminal, None))
    }

    /// The repetition rule.
    pub fn rule(&self) -> Repetition {
        self.rule
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Always false: a graph has a root.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The parameters of a random graph; `None` for one written out.
    pub fn params(&self) -> Option<GraphParams> {
        self.params
    }

    /// The vertex called `name`.
    pub fn vertex(&self, name: &str) -> Option<u32> {
        self.index.get(name).copied()
    }

    /// The name of vertex `v`.
    pub fn name(&self, v: u32) -> &str {
        &self.names[v as usize]
    }

    /// The successors of vertex `v`, in move order.
    pub fn successors(&self, v: u32) -> &[u32] {
        &self.succ[v as usize]
    }

    /// The notation of the graph (no moves): the parameters of a random
    /// graph, the written-out form of another.
    pub fn notation(&self) -> String {
        match self.params {
            Some(p) => p.notation(),
            None => self.written_out(),
        }
    }

    /// The graph written out vertex by vertex (only the vertices reachable
    /// from the root, in their original order): handy to print a random
    /// graph that a test failed on, and to edit it by hand.
    pub fn written_out(&self) -> String {
        let mut reach = vec![false; self.len()];
        reach[0] = true;
        let mut stack = vec![0usize];
        while let Some(v) = stack.pop() {
            for &w in &self.succ[v] {
                if !reach[w as usize] {
                    reach[w as usize] = true;
                    stack.push(w as usize);
                }
            }
        }
        let mut s = format!("rule={}", rule_name(self.rule));
        for v in (0..self.len()).filter(|&v| reach[v]) {
            s.push(' ');
            s.push_str(&self.names[v]);
            s.push(':');
            match self.terminal[v] {
                Some(o) => s.push_str(o.name()),
                None => {
                    let succ: Vec<&str> = self.succ[v]
                        .iter()
                        .map(|&w| self.names[w as usize].as_str())
                        .collect();
                    s.push_str(&succ.join(","));
                }
            }
        }
        s
    }
}

fn check_name(name: &str) -> Result<(), GameError> {
    if name.is_empty() {
        return Err(GameError::new("a vertex has an empty name"));
    }
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(GameError::new(format!(
            "vertex name '{name}': use letters, digits and _"
        )));
    }
    if name == "win" || name == "loss" {
        return Err(GameError::new(format!(
            "'{name}' is a result, not a vertex name"
        )));
    }
    Ok(())
}

/// The header: the rule and, for a random graph, its parameters.
fn parse_header(s: &str) -> Result<(Repetition, Option<GraphParams>), GameError> {
    let mut rule = None;
    let mut p = GraphParams::new(Repetition::FirstPlayerLoss);
    let mut random = false;
    for item in crate::params::items(s) {
        let (k, v) = item?;
        let num = |max: u64| crate::params::number(k, v, max);
        match k {
            "rule" => {
                rule = Some(match v {
                    "fpl" => Repetition::FirstPlayerLoss,
                    "cpl" => Repetition::CurrentPlayerLoss,
                    _ => {
                        return Err(GameError::new(format!(
                            "rule: '{v}' is neither fpl nor cpl"
                        )))
                    }
                })
            }
            "nodes" => p.nodes = num(MAX_NODES)? as u32,
            "degree" => p.degree = num(MAX_DEGREE)? as u32,
            "seed" => p.seed = num(u64::MAX)?,
            "terminal" => p.terminal = num(100)? as u8,
            "win" => p.win = num(100)? as u8,
            _ => return Err(GameError::new(format!("unknown graph parameter '{k}'"))),
        }
        random |= k != "rule";
    }
    let rule = rule
        .ok_or_else(|| GameError::new("the position must name its rule: rule=fpl or rule=cpl"))?;
    p.rule = rule;
    Ok((rule, random.then_some(p)))
}

/// A position: a vertex of a shared graph.
#[derive(Clone)]
pub struct Cyclic {
    graph: Arc<Graph>,
    v: u32,
}

impl Cyclic {
    /// The root of `graph`.
    pub fn new(graph: Graph) -> Self {
        Cyclic {
            graph: Arc::new(graph),
            v: 0,
        }
    }

    /// The root of the random graph with these parameters.
    pub fn random(p: GraphParams) -> Result<Self, GameError> {
        Graph::random(p).map(Cyclic::new)
    }

    /// The graph.
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// The vertex.
    pub fn vertex(&self) -> u32 {
        self.v
    }

    /// The vertex's name.
    pub fn name(&self) -> &str {
        self.graph.name(self.v)
    }

    /// The same graph at vertex `name`, if there is one.
    pub fn at(&self, name: &str) -> Option<Cyclic> {
        self.graph.vertex(name).map(|v| Cyclic {
            graph: self.graph.clone(),
            v,
        })
    }
}

impl PartialEq for Cyclic {
    fn eq(&self, o: &Self) -> bool {
        self.v == o.v && (Arc::ptr_eq(&self.graph, &o.graph) || *self.graph == *o.graph)
    }
}

impl Eq for Cyclic {}

impl Hash for Cyclic {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.v.hash(state);
        self.graph.fingerprint.hash(state);
    }
}

impl fmt::Debug for Cyclic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cyclic({} at {})", self.graph.notation(), self.name())
    }
}

impl Rules for Cyclic {
    /// The vertex the move leads to.
    type Move = u32;

    const NAME: &'static str = "cyclic";

    const HAS_DRAWS: bool = false;

    fn side_to_move(&self) -> Side {
        self.graph.side[self.v as usize]
    }

    fn outcome(&self) -> Option<Outcome> {
        self.graph.terminal[self.v as usize]
    }

    fn legal_moves(&self, out: &mut Vec<u32>) {
        out.extend_from_slice(self.graph.successors(self.v));
    }

    fn play(&mut self, m: u32) {
        debug_assert!(self.graph.successors(self.v).contains(&m));
        self.v = m;
    }

    fn key(&self) -> u64 {
        // Both mixes are bijections: distinct vertices get distinct keys.
        splitmix64(self.graph.fingerprint ^ splitmix64(self.v as u64 + 1))
    }

    fn repetition(&self) -> Repetition {
        self.graph.rule
    }
}

impl Notation for Cyclic {
    fn parse_position(s: &str) -> Result<Self, GameError> {
        let mut tokens = s.split_whitespace().peekable();
        let header = tokens
            .next()
            .ok_or_else(|| GameError::new("empty position: write rule=fpl|cpl and a graph"))?;
        if header.contains(':') {
            return Err(GameError::new(
                "the position must start with its rule: rule=fpl or rule=cpl",
            ));
        }
        let (rule, params) = parse_header(header)?;
        let written = tokens.peek().is_some_and(|t| t.contains(':'));
        let graph = match (params, written) {
            (Some(_), true) => {
                return Err(GameError::new(
                    "a graph is either random (nodes=, degree=, ...) or written out, not both",
                ))
            }
            (Some(p), false) => Graph::random(p)?,
            (None, true) => {
                let mut defs = Vec::new();
                while let Some(t) = tokens.next_if(|t| t.contains(':')) {
                    defs.push(t);
                }
                Graph::written(rule, &defs)?
            }
            (None, false) => Graph::random(GraphParams::new(rule))?,
        };
        let moves: Vec<&str> = tokens.collect();
        if let Some(t) = moves.iter().find(|t| t.contains(':')) {
            return Err(GameError::new(format!(
                "'{t}': vertices must be written before the moves"
            )));
        }
        play_move_list(Cyclic::new(graph), moves)
    }

    fn parse_move(&self, s: &str) -> Result<u32, GameError> {
        if let Some(o) = self.outcome() {
            return Err(GameError::new(format!(
                "the game is over at {} ({o} for the side to move)",
                self.name()
            )));
        }
        let w = self
            .graph
            .vertex(s)
            .ok_or_else(|| GameError::new(format!("there is no vertex '{s}'")))?;
        if !self.graph.successors(self.v).contains(&w) {
            return Err(GameError::new(format!(
                "there is no move from {} to {s}",
                self.name()
            )));
        }
        Ok(w)
    }

    fn format_move(&self, m: u32) -> String {
        self.graph.name(m).to_string()
    }

    fn render(&self) -> String {
        let g = &self.graph;
        let mut s = format!(
            "{}\nvertex {}, {} to move\n",
            g.notation(),
            self.name(),
            self.side_to_move()
        );
        match self.outcome() {
            Some(o) => s.push_str(&format!("finished: {o} for the side to move\n")),
            None => {
                let moves: Vec<&str> = g.successors(self.v).iter().map(|&w| g.name(w)).collect();
                s.push_str(&format!("moves: {}\n", moves.join(" ")));
            }
        }
        s
    }
}

impl SearchHooks for Cyclic {}

impl Shortcuts for Cyclic {}

impl Playout for Cyclic {}

// ------------------------------------------------------------------ oracle

/// Whether the side to move at `root` wins, under the graph's rule, with
/// the line starting at `root` (so the attacker is `root`'s side to move).
///
/// Exact, by search over full lines memoised on (vertex, set of vertices on
/// the line): under either rule the value below a vertex depends only on
/// the vertex, the set of positions the line has visited (the repetitions
/// it can reach) and the attacker, which is fixed for one call. Time and
/// memory are at most the number of such pairs reachable from the root.
///
/// # Panics
///
/// When the graph has more than 128 vertices (the line is a 128-bit set).
pub fn oracle(root: &Cyclic) -> bool {
    oracle_line(std::slice::from_ref(root))
}

/// Whether the side to move at the last position of `line` wins, when the
/// line of the search is `line` (the first position is the search root, its
/// side to move the attacker). A last position that repeats an earlier one
/// gets the rule's value. This is how the paper's figures are stated: "D
/// via A→B→D is proven".
///
/// # Panics
///
/// When `line` is empty, mixes graphs or skips a move, or the graph has
/// more than 128 vertices.
pub fn oracle_line(line: &[Cyclic]) -> bool {
    let (first, last) = check_line(line);
    let g = &*first.graph;
    assert!(
        g.len() <= 128,
        "the oracle handles graphs of at most 128 vertices, not {}",
        g.len()
    );
    let attacker = first.side_to_move();
    let before: u128 = line[..line.len() - 1]
        .iter()
        .fold(0, |m, p| m | 1u128 << p.v);
    if before >> last.v & 1 == 1 {
        return mover_wins_repetition(g.rule, last.side_to_move(), attacker);
    }
    let mut memo = HashMap::new();
    wins(g, attacker, last.v, before, &mut memo)
}

fn check_line(line: &[Cyclic]) -> (&Cyclic, &Cyclic) {
    let first = line.first().expect("a line has a root");
    for w in line.windows(2) {
        assert!(
            Arc::ptr_eq(&w[0].graph, &first.graph) || *w[0].graph == *first.graph,
            "a line lies in one graph"
        );
        assert!(
            w[0].outcome().is_none() && first.graph.successors(w[0].v).contains(&w[1].v),
            "no move from {} to {} on the line",
            w[0].name(),
            w[1].name()
        );
    }
    (first, line.last().expect("a line has a root"))
}

/// Whether the side to move at a repeated position wins.
fn mover_wins_repetition(rule: Repetition, mover: Side, attacker: Side) -> bool {
    match rule {
        Repetition::FirstPlayerLoss => mover != attacker,
        Repetition::CurrentPlayerLoss => true,
        Repetition::SecondPlayerLoss => mover == attacker,
        Repetition::Impossible => unreachable!("a graph's rule is fpl or cpl"),
    }
}

/// Whether the side to move at `v` wins when the vertices before it on the
/// line are `before` (`v` not among them).
fn wins(
    g: &Graph,
    attacker: Side,
    v: u32,
    before: u128,
    memo: &mut HashMap<(u32, u128), bool>,
) -> bool {
    if let Some(o) = g.terminal[v as usize] {
        return o == Outcome::Win;
    }
    if let Some(&w) = memo.get(&(v, before)) {
        return w;
    }
    let here = before | 1u128 << v;
    let win = g.successors(v).iter().any(|&w| {
        let opponent_wins = if here >> w & 1 == 1 {
            mover_wins_repetition(g.rule, g.side[w as usize], attacker)
        } else {
            wins(g, attacker, w, here, memo)
        };
        !opponent_wins
    });
    memo.insert((v, before), win);
    win
}

/// The *tree method* (Schijf et al.; the GHI paper §2.2.5): the same
/// question as [`oracle`] answered by plain recursion over every line,
/// through the [`Game`] interface and [`Rules::history_key`], with no memo.
/// Exponential: for graphs of a dozen vertices. An independent check of
/// [`oracle`] (and of this module's `Game` implementation).
pub fn tree_oracle(root: &Cyclic) -> bool {
    tree_oracle_line(std::slice::from_ref(root))
}

/// [`oracle_line`] by the tree method.
pub fn tree_oracle_line(line: &[Cyclic]) -> bool {
    let (first, last) = check_line(line);
    let attacker = first.side_to_move();
    let rule = first.repetition();
    let mut keys: Vec<u64> = line.iter().map(Rules::history_key).collect();
    let last_key = keys.pop().expect("a line has a root");
    if keys.contains(&last_key) {
        return match rule {
            Repetition::FirstPlayerLoss => last.side_to_move() != attacker,
            _ => true,
        };
    }
    tree_wins(last, attacker, rule, &mut keys)
}

fn tree_wins(p: &Cyclic, attacker: Side, rule: Repetition, keys: &mut Vec<u64>) -> bool {
    if let Some(o) = p.outcome() {
        return o == Outcome::Win;
    }
    keys.push(p.history_key());
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let win = moves.into_iter().any(|m| {
        let mut c = p.clone();
        c.play(m);
        let opponent_wins = if keys.contains(&c.history_key()) {
            // fpl: the repetition is the attacker's loss; cpl: the
            // repeating move loses.
            rule == Repetition::CurrentPlayerLoss || c.side_to_move() != attacker
        } else {
            tree_wins(&c, attacker, rule, keys)
        };
        !opponent_wins
    });
    keys.pop();
    win
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The paper's Fig. 1 under `rule`, with G's result for its side to
    /// move (the second player).
    fn fig1(rule: &str, g: &str) -> Cyclic {
        Cyclic::parse_position(&format!(
            "rule={rule} A:B,C B:D,E C:F D:loss E:G,H F:H G:{g} H:E"
        ))
        .unwrap()
    }

    /// The line through the named vertices of `root`'s graph.
    fn line(root: &Cyclic, names: &str) -> Vec<Cyclic> {
        names
            .split_whitespace()
            .map(|n| root.at(n).unwrap())
            .collect()
    }

    /// Both oracles on a line, which must agree.
    fn value(root: &Cyclic, names: &str) -> bool {
        let l = line(root, names);
        let v = oracle_line(&l);
        assert_eq!(v, tree_oracle_line(&l), "the oracles differ on {names}");
        v
    }

    #[test]
    fn fig1_first_player_loss() {
        // D is a loss for the first player (to move there); G a win for the
        // first player, so a loss for the second player to move at G.
        let a = fig1("fpl", "loss");
        assert_eq!(a.name(), "A");
        assert_eq!(a.at("E").unwrap().side_to_move(), Side::First);
        assert_eq!(a.at("H").unwrap().side_to_move(), Side::Second);
        // A wins by A→C→F→H→E→G.
        assert!(oracle(&a));
        assert!(tree_oracle(&a));
        assert!(!value(&a, "A C"), "C is lost for the second player");
        assert!(value(&a, "A B"), "B→D wins for the second player");
        // H reached through E: its only move repeats E, a loss for the
        // attacker, so the second player (to move at H) wins. Reached
        // through F it loses: the GHI trap of step 3.
        assert!(value(&a, "A B E H"));
        assert!(!value(&a, "A C F H"));
        assert!(value(&a, "A C F H E H"), "a repetition: the attacker loses");
    }

    #[test]
    fn fig1_current_player_loss() {
        // G is a loss for the root player, a win for the second player to
        // move there.
        let a = fig1("cpl", "win");
        assert!(!oracle(&a));
        assert!(!tree_oracle(&a));
        // H via A→B→E: the second player's only move repeats E, so the
        // first player wins ("H is stored as a win"); via A→C→F it loses
        // for the first player.
        assert!(!value(&a, "A B E H"));
        assert!(value(&a, "A C F H"));
        assert!(value(&a, "A C"), "C is a win for the second player");
        // E via A→C→F→H: both G and the repetition of H lose for the first
        // player.
        assert!(!value(&a, "A C F H E"));
        // The repeated H: the first player's move repeated it and loses.
        assert!(value(&a, "A C F H E H"));
    }

    #[test]
    fn fig4_current_player_loss() {
        let a = Cyclic::parse_position("rule=cpl A:B,C B:D C:D D:C").unwrap();
        // D via A→B→D is proven: A→B→D→C→D is not allowed for the second
        // player. D via A→C→D is disproven: D→C repeats C.
        assert!(value(&a, "A B D"));
        assert!(!value(&a, "A C D"));
        assert!(oracle(&a), "A wins by B");
        assert!(!value(&a, "A B"));
        assert!(value(&a, "A C"));
        // Under first-player-loss every line ends in a repetition: a loss
        // for the attacker.
        let f = Cyclic::parse_position("rule=fpl A:B,C B:D C:D D:C").unwrap();
        assert!(!oracle(&f));
        assert!(!tree_oracle(&f));
    }

    #[test]
    fn the_line_starts_at_the_position_given() {
        // Moves in the notation choose the start; they are no history. From
        // D (first player to move), D→C→D repeats D: the second player
        // loses under cpl.
        let d = Cyclic::parse_position("rule=cpl A:B,C B:D C:D D:C B D").unwrap();
        assert_eq!(d.name(), "D");
        assert!(oracle(&d));
        // Under fpl the attacker is now the first player at D, and loses.
        let d = Cyclic::parse_position("rule=fpl A:B,C B:D C:D D:C C D").unwrap();
        assert!(!oracle(&d));
        // Starting at C, the second player is the attacker: it loses the
        // repetition under fpl.
        let c = Cyclic::parse_position("rule=fpl A:B,C B:D C:D D:C C").unwrap();
        assert_eq!(c.side_to_move(), Side::Second);
        assert!(!oracle(&c));
    }

    #[test]
    fn the_oracles_agree_on_random_graphs() {
        let mut wins = [0; 2];
        for seed in 0..300 {
            for (r, rule) in ["fpl", "cpl"].iter().enumerate() {
                let pos = format!(
                    "rule={rule},nodes={},degree={},seed={seed},terminal={}",
                    2 + seed % 11,
                    1 + seed % 4,
                    seed % 40
                );
                let g = Cyclic::parse_position(&pos).unwrap();
                let v = oracle(&g);
                assert_eq!(v, tree_oracle(&g), "{pos}");
                wins[r] += v as usize;
            }
        }
        // Both values occur under both rules.
        for w in wins {
            assert!(w > 30 && w < 270, "{wins:?}");
        }
    }

    #[test]
    fn random_graphs_alternate_and_have_cycles_and_transpositions() {
        let (mut cyclic, mut transposing) = (0, 0);
        for seed in 0..100 {
            let g = Cyclic::parse_position(&format!(
                "rule=cpl,nodes=12,degree=3,seed={seed},terminal=20"
            ))
            .unwrap();
            let gr = g.graph();
            assert_eq!(gr.len(), 12);
            let mut preds = vec![0; gr.len()];
            for v in 0..gr.len() as u32 {
                let p = g.at(gr.name(v)).unwrap();
                let s = gr.successors(v);
                assert_eq!(p.outcome().is_none(), !s.is_empty());
                assert!(s.len() <= 3);
                for (i, &w) in s.iter().enumerate() {
                    assert!(!s[..i].contains(&w), "distinct successors");
                    assert_ne!(gr.side[w as usize], p.side_to_move());
                    preds[w as usize] += 1;
                }
            }
            transposing += preds.iter().any(|&k| k >= 2) as u32;
            cyclic += has_cycle(gr) as u32;
        }
        assert!(cyclic >= 80, "{cyclic} graphs of 100 have a cycle");
        assert!(
            transposing >= 90,
            "{transposing} of 100 have a transposition"
        );
    }

    fn has_cycle(g: &Graph) -> bool {
        // Depth-first colouring: 0 new, 1 on the stack, 2 done.
        fn go(g: &Graph, v: u32, colour: &mut [u8]) -> bool {
            colour[v as usize] = 1;
            for &w in g.successors(v) {
                let c = colour[w as usize];
                if c == 1 || (c == 0 && go(g, w, colour)) {
                    return true;
                }
            }
            colour[v as usize] = 2;
            false
        }
        let mut colour = vec![0; g.len()];
        (0..g.len() as u32).any(|v| colour[v as usize] == 0 && go(g, v, &mut colour))
    }

    #[test]
    fn keys_are_distinct_and_equal_positions_are_equal() {
        let g = Cyclic::parse_position("rule=fpl,nodes=40,degree=3,seed=4").unwrap();
        let keys: std::collections::HashSet<u64> = (0..40)
            .map(|v| g.at(&v.to_string()).unwrap().key())
            .collect();
        assert_eq!(keys.len(), 40);
        let again = Cyclic::parse_position("rule=fpl,nodes=40,degree=3,seed=4").unwrap();
        assert_eq!(g, again);
        assert_eq!(g.key(), again.key());
        assert_ne!(g, g.at("2").unwrap());
        let other = Cyclic::parse_position("rule=fpl,nodes=40,degree=3,seed=5").unwrap();
        assert_ne!(g, other);
        assert_ne!(g.key(), other.key());
        let cpl = Cyclic::parse_position("rule=cpl,nodes=40,degree=3,seed=4").unwrap();
        assert_ne!(g, cpl, "the rule is part of the game");
        assert_eq!(cpl.repetition(), Repetition::CurrentPlayerLoss);
        assert_eq!(g.repetition(), Repetition::FirstPlayerLoss);
    }

    #[test]
    fn notation_round_trips() {
        let s = "rule=cpl,nodes=9,degree=3,seed=5,terminal=30,win=40";
        let g = Cyclic::parse_position(s).unwrap();
        assert_eq!(g.graph().notation(), s);
        // Defaults fill in what is left out.
        let d = Cyclic::parse_position("rule=fpl").unwrap();
        assert_eq!(
            d.graph().notation(),
            "rule=fpl,nodes=8,degree=2,seed=1,terminal=20,win=50"
        );
        // Moves by vertex name.
        let first = g.graph().successors(0)[0];
        let name = g.graph().name(first).to_string();
        let moved = Cyclic::parse_position(&format!("{s} {name}")).unwrap();
        assert_eq!(moved.vertex(), first);
        assert_eq!(moved.side_to_move(), Side::Second);
        let mut played = g.clone();
        played.play(played.parse_move(&name).unwrap());
        assert_eq!(played, moved);
        assert_eq!(g.format_move(first), name);

        let fig = "rule=cpl A:B,C B:D,E C:F D:loss E:G,H F:H G:win H:E";
        let a = Cyclic::parse_position(fig).unwrap();
        assert_eq!(a.graph().notation(), fig);
        assert_eq!(Cyclic::parse_position(&a.graph().notation()).unwrap(), a);
        let h = Cyclic::parse_position(&format!("{fig} C F H")).unwrap();
        assert_eq!(h, a.at("H").unwrap());
        assert!(h.render().contains("vertex H, second to move"));
        assert!(a.at("G").unwrap().render().contains("finished: win"));

        // A random graph written out parses back to the same game.
        for seed in 0..30 {
            let r =
                Cyclic::parse_position(&format!("rule=fpl,nodes=10,degree=3,seed={seed}")).unwrap();
            let w = Cyclic::parse_position(&r.graph().written_out()).unwrap();
            assert_eq!(w.graph().written_out(), r.graph().written_out());
            assert_eq!(oracle(&w), oracle(&r), "seed {seed}");
        }
    }

    #[test]
    fn malformed_input_is_rejected_with_a_message() {
        let bad = [
            ("", "empty"),
            ("nodes=4", "rule"),
            ("rule=xyz", "neither fpl nor cpl"),
            ("rule=cpl,colour=red", "unknown graph parameter"),
            ("rule=cpl,nodes=0", "nodes must be at least 1"),
            ("rule=cpl,nodes=x", "not a number"),
            ("rule=cpl,nodes=-3", "not a number"),
            ("rule=cpl,degree=0", "degree must be at least 1"),
            ("rule=cpl,terminal=101", "over the maximum"),
            ("rule=cpl,nodes", "not name=value"),
            ("A:B rule=cpl", "must start with its rule"),
            ("rule=cpl A:B,X B:win", "vertex X is not written"),
            ("rule=cpl A:B B:", "B has no moves"),
            ("rule=cpl A:B B:C C:A", "does not alternate"),
            ("rule=cpl A:A", "does not alternate"),
            ("rule=cpl A:B,B B:win", "written twice"),
            ("rule=cpl A:B B:win A:loss", "written twice"),
            ("rule=cpl A:B,,C B:win C:win", "empty successor"),
            ("rule=cpl A:B B:win C:loss", "not reachable"),
            ("rule=cpl A:win win:loss", "is a result"),
            ("rule=cpl A-1:win", "letters, digits"),
            ("rule=cpl,nodes=3 A:win", "not both"),
            ("rule=cpl A:B B:A B C:win", "before the moves"),
            ("rule=cpl A:B,C B:win C:A Z", "no vertex 'Z'"),
            ("rule=cpl A:B,C B:A C:A B C", "no move from B to C"),
            ("rule=cpl A:B B:win B B", "after the game has ended"),
        ];
        for (s, want) in bad {
            match Cyclic::parse_position(s) {
                Ok(p) => panic!("'{s}' parsed as {p:?}"),
                Err(e) => {
                    assert!(e.0.contains(want), "'{s}': '{}' lacks '{want}'", e.0);
                    assert!(!e.0.contains('\n'), "one line: {}", e.0);
                }
            }
        }
    }

    #[test]
    fn one_vertex_graphs_are_finished() {
        // No vertex of the other side: the root cannot move.
        for seed in 0..10 {
            let g = Cyclic::parse_position(&format!("rule=cpl,nodes=1,seed={seed}")).unwrap();
            assert!(g.outcome().is_some());
            assert_eq!(oracle(&g), g.outcome() == Some(Outcome::Win));
        }
    }
}
