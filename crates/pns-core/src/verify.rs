//! The independent certificate verifier.
//!
//! It knows only the game's rules — `side_to_move`, `outcome`,
//! `legal_moves`, `play`, `parse_move` and position equality — and no
//! table, heuristic, pruning or search code. It checks, for each block, the
//! four properties of a proof tree (GHI paper §3.3; thesis §2.1.1): the
//! root is in it; an OR node (AND node, for a disproof) has at least one
//! child in it; the other nodes have *all* their legal moves in it; every
//! leaf is a finished game with the claimed result. Shared nodes must be the
//! same position on every path, and a cycle is rejected. A concession node
//! gives the prover's opponent free moves through the game's rules
//! ([`Shortcuts::concede`](crate::game::Shortcuts::concede)), which refuse them in a game where that would be
//! unsound; a fill node gives the prover stones that the game's rules
//! check cannot hurt it ([`Shortcuts::fill`](crate::game::Shortcuts::fill)); a claim leaf is checked by the
//! game's rules ([`Shortcuts::check_claim`](crate::game::Shortcuts::check_claim)).
//!
//! In a game whose positions repeat ([`Rules::repetition`](crate::game::Rules::repetition)) the verifier
//! tracks the line from the root, as the rules do: a node whose position is
//! on its line ends the line, and the rule decides who won it (GHI paper
//! §1.2); a node with no moves that is neither finished nor such a
//! repetition is rejected. A shared node is accepted on a second line only
//! when its subtree met no repetition and holds no position of that line,
//! so that its value cannot depend on how it was reached; otherwise it is
//! checked again on the new line.

use std::collections::HashSet;

use crate::certificate::{prover, required_blocks, Block, Certificate, Node};
use crate::dfpn::ghi::repetition_status;
use crate::game::{Game, GoalContext, Outcome, Repetition, Side};
use crate::problem::Status;

/// Counts from a successful check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    pub nodes: usize,
    pub leaves: usize,
}

enum State<G> {
    New,
    Open,
    Done(G),
}

/// Checks one block against the root position.
pub fn verify_block<G: Game>(root: &G, b: &Block) -> Result<Checked, String> {
    if b.nodes.is_empty() {
        return Err("the block has no nodes".into());
    }
    if !matches!(b.claim, Status::Proven | Status::Disproven) {
        return Err("a block must claim proven or disproven".into());
    }
    if root.repetition() != Repetition::Impossible {
        return verify_block_on_lines(root, b);
    }
    let ctx = GoalContext {
        attacker: root.side_to_move(),
        goal: b.goal,
    };
    let prover = prover(ctx.attacker, b.claim);
    let mut state: Vec<State<G>> = (0..b.nodes.len()).map(|_| State::New).collect();
    let mut checked = Checked::default();
    // Explicit stack: (node id, position, children already pushed?).
    let mut stack: Vec<(u32, G, bool)> = vec![(0, root.clone(), false)];
    while let Some((id, g, expanded)) = stack.pop() {
        let i = id as usize;
        if expanded {
            state[i] = State::Done(g);
            continue;
        }
        match &state[i] {
            State::Done(prev) => {
                if *prev != g {
                    return Err(format!("node {id} is reached at two different positions"));
                }
                continue;
            }
            State::Open => return Err(format!("node {id} is on a cycle")),
            State::New => {}
        }
        state[i] = State::Open;
        checked.nodes += 1;
        let edges = match &b.nodes[i] {
            Node::Moves(edges) => edges,
            Node::Claim(w) => {
                if g.outcome().is_some() {
                    return Err(format!("node {id} is a finished game but holds a claim"));
                }
                g.check_claim(prover, w)
                    .map_err(|e| format!("node {id}: claim rejected: {e}"))?;
                checked.leaves += 1;
                stack.push((id, g, true));
                continue;
            }
            Node::Fill(w, child) => {
                if g.outcome().is_some() {
                    return Err(format!("node {id} is a finished game but fills"));
                }
                let mut c = g.clone();
                c.fill(prover, w)
                    .map_err(|e| format!("node {id}: fill rejected: {e}"))?;
                stack.push((id, g, true));
                stack.push((*child, c, false));
                continue;
            }
            Node::Concede(moves, child) => {
                if g.outcome().is_some() {
                    return Err(format!("node {id} is a finished game but concedes moves"));
                }
                let mut c = g.clone();
                for m in moves {
                    let mv = c
                        .parse_move(m)
                        .map_err(|e| format!("node {id}: conceded move '{m}': {e}"))?;
                    c.concede(prover.opponent(), mv)
                        .map_err(|e| format!("node {id}: conceded move '{m}': {e}"))?;
                }
                stack.push((id, g, true));
                stack.push((*child, c, false));
                continue;
            }
        };
        if let Some(o) = g.outcome() {
            finished_leaf(&g, o, edges, id, b, ctx.attacker)?;
            checked.leaves += 1;
            stack.push((id, g, true));
            continue;
        }
        if edges.is_empty() {
            return Err(format!("node {id} lists no moves but the game is not over"));
        }
        let listed = listed_moves(&g, edges, id, b, ctx.attacker)?;
        stack.push((id, g.clone(), true));
        for (mv, (_, child)) in listed.into_iter().zip(edges) {
            let mut c = g.clone();
            c.play(mv);
            stack.push((*child, c, false));
        }
    }
    if let Some(unreached) = state.iter().position(|s| matches!(s, State::New)) {
        return Err(format!("node {unreached} is not reachable from the root"));
    }
    Ok(checked)
}

/// Checks a finished game `g` (result `o` for the side to move) that
/// certificate node `id` holds: it lists no moves and its result supports
/// the block's claim.
fn finished_leaf<G: Game>(
    g: &G,
    o: Outcome,
    edges: &[(String, u32)],
    id: u32,
    b: &Block,
    attacker: Side,
) -> Result<(), String> {
    if !edges.is_empty() {
        return Err(format!("node {id} is a finished game but lists moves"));
    }
    let for_attacker = if g.side_to_move() == attacker {
        o
    } else {
        o.flip()
    };
    if b.goal.met_by(for_attacker) != (b.claim == Status::Proven) {
        return Err(format!(
            "node {id} is a finished game ({o} for the side to move) that does not support '{} {}'",
            b.goal.name(),
            b.claim.name()
        ));
    }
    Ok(())
}

/// The moves node `id` lists at `g`, each legal and listed once; at a node
/// where the prover's opponent moves, every legal move must be there.
fn listed_moves<G: Game>(
    g: &G,
    edges: &[(String, u32)],
    id: u32,
    b: &Block,
    attacker: Side,
) -> Result<Vec<G::Move>, String> {
    let mut listed = Vec::with_capacity(edges.len());
    for (m, _) in edges {
        let mv = g
            .parse_move(m)
            .map_err(|e| format!("node {id}: move '{m}': {e}"))?;
        if listed.contains(&mv) {
            return Err(format!("node {id}: move '{m}' is listed twice"));
        }
        listed.push(mv);
    }
    let is_or = g.side_to_move() == attacker;
    if (b.claim == Status::Proven) != is_or {
        let mut legal = Vec::new();
        g.legal_moves(&mut legal);
        let legal: HashSet<_> = legal.into_iter().collect();
        if let Some(m) = legal.iter().find(|m| !listed.contains(m)) {
            return Err(format!(
                "node {id}: the legal move '{}' is missing (every move must be refuted here)",
                g.format_move(*m)
            ));
        }
    }
    Ok(listed)
}

/// Lines longer than this are rejected (the check recurses along a line).
pub const MAX_LINE: usize = 2000;

/// [`verify_block`] for a game whose positions repeat: every line is
/// followed from the root, with the rule judging repetitions.
fn verify_block_on_lines<G: Game>(root: &G, b: &Block) -> Result<Checked, String> {
    let mut v = LineCheck {
        b,
        rule: Repetition::for_attacker(root, root.side_to_move()),
        attacker: root.side_to_move(),
        state: (0..b.nodes.len()).map(|_| LineState::New).collect(),
        line: Vec::new(),
        on_line: HashSet::new(),
        checked: Checked::default(),
    };
    v.check(0, root.clone())?;
    if let Some(unreached) = v.state.iter().position(|s| matches!(s, LineState::New)) {
        return Err(format!("node {unreached} is not reachable from the root"));
    }
    Ok(v.checked)
}

enum LineState<G> {
    New,
    /// Reached only where its position repeats one of its line.
    Repeated,
    Open(G),
    /// Checked, at this position; whether a repetition ended a line below.
    Done(G, bool),
}

struct LineCheck<'a, G> {
    b: &'a Block,
    rule: Repetition,
    attacker: Side,
    state: Vec<LineState<G>>,
    /// History keys of the positions from the root to the current node.
    line: Vec<u64>,
    /// The same keys, for membership: a long line (a 1525-ply tsume) is
    /// asked about at every node of every shared subtree.
    on_line: HashSet<u64>,
    checked: Checked,
}

impl<G: Game> LineCheck<'_, G> {
    /// Whether the claim holds for a line that ends in a position of kind
    /// `is_or` with this `status` for the attacker.
    fn supports(&self, status: Status) -> bool {
        status == self.b.claim
    }

    /// Checks node `id` at position `g` on the current line; returns
    /// whether a repetition ended a line at or below it.
    fn check(&mut self, id: u32, g: G) -> Result<bool, String> {
        let i = id as usize;
        if i >= self.b.nodes.len() {
            return Err(format!("node {id} does not exist"));
        }
        let is_or = g.side_to_move() == self.attacker;
        if self.on_line.contains(&g.history_key()) {
            let st = repetition_status(self.rule, is_or);
            if !self.supports(st) {
                return Err(format!(
                    "node {id} repeats a position of its line, which the repetition rule makes {} here",
                    st.name()
                ));
            }
            self.checked.leaves += 1;
            if matches!(self.state[i], LineState::New) {
                self.state[i] = LineState::Repeated;
            }
            return Ok(true);
        }
        match &self.state[i] {
            LineState::Done(prev, rep) => {
                if *prev != g {
                    return Err(format!("node {id} is reached at two different positions"));
                }
                if !*rep && self.disjoint_from_line(id) {
                    return Ok(false);
                }
                // Its value may depend on the line: check it again here.
            }
            LineState::Open(_) => {
                return Err(format!("node {id} is reached at two different positions"));
            }
            LineState::New | LineState::Repeated => {
                self.state[i] = LineState::Open(g.clone());
                self.checked.nodes += 1;
            }
        }
        if self.line.len() >= MAX_LINE {
            return Err(format!("node {id}: a line is longer than {MAX_LINE} moves"));
        }
        let edges = match &self.b.nodes[i] {
            Node::Moves(edges) => edges,
            _ => {
                return Err(format!(
                "node {id}: claims, fills and concessions are not allowed with a repetition rule"
            ))
            }
        };
        if let Some(o) = g.outcome() {
            finished_leaf(&g, o, edges, id, self.b, self.attacker)?;
            self.checked.leaves += 1;
            self.state[i] = LineState::Done(g, false);
            return Ok(false);
        }
        if edges.is_empty() {
            return Err(format!(
                "node {id} lists no moves but the game is not over and its position does not repeat"
            ));
        }
        let listed = listed_moves(&g, edges, id, self.b, self.attacker)?;
        self.line.push(g.history_key());
        self.on_line.insert(g.history_key());
        let mut rep = false;
        for (mv, (_, child)) in listed.into_iter().zip(edges) {
            let mut c = g.clone();
            c.play(mv);
            match self.check(*child, c) {
                Ok(r) => rep |= r,
                Err(e) => {
                    self.pop_line();
                    return Err(e);
                }
            }
        }
        self.pop_line();
        if !matches!(self.state[i], LineState::Done(..)) {
            self.state[i] = LineState::Done(g, rep);
        }
        Ok(rep)
    }

    fn pop_line(&mut self) {
        if let Some(k) = self.line.pop() {
            self.on_line.remove(&k);
        }
    }

    /// Whether no position of the subtree below the checked node `id` is on
    /// the current line (a shared subtree is then valid on it too).
    fn disjoint_from_line(&self, id: u32) -> bool {
        let mut seen = HashSet::new();
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            if !seen.insert(n) {
                continue;
            }
            match &self.state[n as usize] {
                LineState::Done(g, _) | LineState::Open(g) => {
                    if self.on_line.contains(&g.history_key()) {
                        return false;
                    }
                }
                // Reached below only as a repetition: nothing to compare.
                LineState::New | LineState::Repeated => continue,
            }
            if let Node::Moves(edges) = &self.b.nodes[n as usize] {
                stack.extend(edges.iter().map(|&(_, c)| c));
            }
        }
        true
    }
}

/// Checks a whole certificate for the position `root`: the game name, the
/// position, that the blocks present are those the claimed value needs, and
/// each block. Returns the value established.
pub fn verify<G: Game>(root: &G, cert: &Certificate) -> Result<Outcome, String> {
    if cert.game != G::NAME {
        return Err(format!(
            "the certificate is for game '{}', not '{}'",
            cert.game,
            G::NAME
        ));
    }
    let pos = G::parse_position(&cert.position)
        .map_err(|e| format!("the certificate's position does not parse: {e}"))?;
    if pos != *root {
        return Err("the certificate is for a different position".into());
    }
    let need = required_blocks(cert.value, G::HAS_DRAWS);
    for (goal, claim) in &need {
        let b = cert
            .blocks
            .iter()
            .find(|b| b.goal == *goal && b.claim == *claim)
            .ok_or_else(|| {
                format!(
                    "a '{}' needs a block '{} {}'",
                    cert.value,
                    goal.name(),
                    claim.name()
                )
            })?;
        verify_block(root, b)
            .map_err(|e| format!("block '{} {}': {e}", goal.name(), claim.name()))?;
    }
    Ok(cert.value)
}
