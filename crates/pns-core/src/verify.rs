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
//! ([`Game::concede`]), which refuse them in a game where that would be
//! unsound; a fill node gives the prover stones that the game's rules
//! check cannot hurt it ([`Game::fill`]); a claim leaf is checked by the
//! game's rules ([`Game::check_claim`]).

use std::collections::HashSet;

use crate::certificate::{prover, required_blocks, Block, Certificate, Node};
use crate::game::{Game, GoalContext, Outcome};
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
            if !edges.is_empty() {
                return Err(format!("node {id} is a finished game but lists moves"));
            }
            let for_attacker = if g.side_to_move() == ctx.attacker {
                o
            } else {
                o.flip()
            };
            let met = ctx.goal.met_by(for_attacker);
            if met != (b.claim == Status::Proven) {
                return Err(format!(
                    "node {id} is a finished game ({} for the side to move) that does not support '{} {}'",
                    o,
                    b.goal.name(),
                    b.claim.name()
                ));
            }
            checked.leaves += 1;
            stack.push((id, g, true));
            continue;
        }
        if edges.is_empty() {
            return Err(format!("node {id} lists no moves but the game is not over"));
        }
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
        let is_or = g.side_to_move() == ctx.attacker;
        let needs_all = (b.claim == Status::Proven) != is_or;
        if needs_all {
            let mut legal = Vec::new();
            g.legal_moves(&mut legal);
            let legal: HashSet<_> = legal.into_iter().collect();
            for m in &legal {
                if !listed.contains(m) {
                    return Err(format!(
                        "node {id}: the legal move '{}' is missing (every move must be refuted here)",
                        g.format_move(*m)
                    ));
                }
            }
        }
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
