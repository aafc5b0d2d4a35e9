//! Certificates from the zone search ([`crate::zone`]) that the
//! rules-only verifier ([`pns_core::verify`]) checks.
//!
//! A proof block lists, at the defender's nodes, *every* legal stone (the
//! verifier asks for it); the zone is what keeps this cheap: at a defender
//! node the null-move VCDT proof P and its zone Z are derived once, and a
//! defender turn with every stone outside Z ends at a *claim* holding P
//! itself (P still wins there: [`crate::vcdt::zone_of`]), which the
//! verifier re-checks from the rules ([`crate::claim`]). A defender stone
//! in Z leads to the position the search solved, or to a claim of a fresh
//! VCDT. At the attacker's nodes a VCDT claim ends the line when one is
//! found; otherwise the search's table (or a sub-search) names a proven
//! move. Disproof blocks are built by the engine's extractor.

use std::collections::HashMap;

use pns_core::certificate::{required_blocks, Block, Certificate, Extractor, Node};
use pns_core::dfpn::status_of;
use pns_core::prelude::*;
use pns_core::problem::{goal_key, goal_status};
use pns_core::Stats;
use pns_core::{Goal, GoalContext, Limits, Status, Table};

use crate::geometry::CellSet;
use crate::position::Connect6;
use crate::zone::{self, Variant, ZoneOptions, ZoneSearch};
use crate::{claim, vcdt};

struct Builder<'a> {
    ctx: GoalContext,
    tt: &'a Table,
    opts: ZoneOptions,
    limits: Limits,
    memo: HashMap<Connect6, u32>,
    nodes: Vec<Node>,
    stats: Stats,
}

impl Builder<'_> {
    fn push(&mut self, g: &Connect6, n: Node) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(n);
        self.memo.insert(g.clone(), id);
        id
    }

    fn vcdt_claim(&mut self, g: &Connect6) -> Option<String> {
        let t = vcdt::prove(
            g,
            self.ctx.attacker,
            self.tt,
            self.opts.vcdt_visits.max(vcdt::CLAIM_BUDGET),
            vcdt::space(),
            &mut self.stats,
        )?;
        let w = vcdt::witness(g, self.ctx.attacker, &t);
        claim::check(g, self.ctx.attacker, &w).ok().map(|_| w)
    }

    fn status(&mut self, g: &Connect6) -> Status {
        if let Some(o) = g.known() {
            return goal_status(g, o, self.ctx);
        }
        if let Some(h) = self.tt.probe(goal_key(g, self.ctx)) {
            let s = status_of(h.pn, h.dn);
            if s.is_solved() {
                return s;
            }
        }
        let opts = ZoneOptions {
            top: None,
            ..self.opts
        };
        let mut p =
            ZoneSearch::with_attacker(g.clone(), self.ctx.goal, self.ctx.attacker, self.tt, opts);
        pns_core::dfpn::search(
            &mut p,
            pns_core::dfpn::Plain { heuristic: false },
            self.tt,
            &self.limits,
        )
        .status
    }

    /// The node for `g`; `outside` is a zone and its proof that hold for
    /// the defender stones still to come in this turn (all outside it).
    fn node(&mut self, g: &Connect6, outside: Option<&(CellSet, String)>) -> Result<u32, String> {
        if let Some(&id) = self.memo.get(g) {
            return Ok(id);
        }
        if let Some(o) = g.outcome() {
            if goal_status(g, o, self.ctx) != Status::Proven {
                return Err(format!("a finished game that is not proven: {g:?}"));
            }
            return Ok(self.push(g, Node::Moves(Vec::new())));
        }
        let x = self.ctx.attacker;
        if g.side_to_move() == x {
            if let Some((_, w)) = outside {
                return Ok(self.push(g, Node::Claim(w.clone())));
            }
            if let Some(w) = self.vcdt_claim(g) {
                return Ok(self.push(g, Node::Claim(w)));
            }
            let mut order = Vec::new();
            g.search_moves(&mut order);
            let mut pick = None;
            for &m in &order {
                let mut c = g.clone();
                c.play(m);
                let s = match c.known() {
                    Some(o) => goal_status(&c, o, self.ctx),
                    None => match self.tt.probe(goal_key(&c, self.ctx)) {
                        Some(h) => status_of(h.pn, h.dn),
                        None => Status::Unknown,
                    },
                };
                if s == Status::Proven {
                    pick = Some(m);
                    break;
                }
            }
            if pick.is_none() {
                for &m in &order {
                    let mut c = g.clone();
                    c.play(m);
                    if self.status(&c) == Status::Proven {
                        pick = Some(m);
                        break;
                    }
                }
            }
            let m = pick
                .ok_or_else(|| format!("no proven attacker move at {g:?} (limits too small?)"))?;
            let id = self.push(g, Node::Moves(Vec::new()));
            let mut c = g.clone();
            c.play(m);
            let child = self.node(&c, None)?;
            self.nodes[id as usize] = Node::Moves(vec![(g.format_move(m), child)]);
            return Ok(id);
        }
        // The defender's node: every legal move.
        let id = self.push(g, Node::Moves(Vec::new()));
        let own = if outside.is_none() {
            let p = ZoneSearch::with_attacker(g.clone(), self.ctx.goal, x, self.tt, self.opts);
            p.derive_zone(g).map(|(z, t)| {
                let mut null = g.clone();
                null.pass_turn();
                (z, vcdt::witness(&null, x, &t))
            })
        } else {
            None
        };
        let zone = outside.or(own.as_ref());
        let mut legal = Vec::new();
        g.legal_moves(&mut legal);
        legal.sort();
        let mut edges = Vec::new();
        for m in legal {
            let mut c = g.clone();
            c.play(m);
            let out_of_zone = zone.filter(|(z, _)| !m.cells().any(|s| z.contains(s)));
            let child = if out_of_zone.is_some() && !c.is_over() {
                self.node(&c, out_of_zone)?
            } else {
                self.node(&c, None)?
            };
            edges.push((g.format_move(m), child));
        }
        self.nodes[id as usize] = Node::Moves(edges);
        Ok(id)
    }
}

/// A proof block for "the side to move at `root` achieves `goal`", which
/// the zone search proved on `tt`.
pub fn proof_block(
    root: &Connect6,
    goal: Goal,
    tt: &Table,
    opts: ZoneOptions,
    limits: &Limits,
) -> Result<Block, String> {
    let mut b = Builder {
        ctx: GoalContext {
            attacker: root.side_to_move(),
            goal,
        },
        tt,
        opts,
        limits: limits.clone(),
        memo: HashMap::new(),
        nodes: Vec::new(),
        stats: Stats::default(),
    };
    b.node(root, None)?;
    Ok(Block {
        goal,
        claim: Status::Proven,
        nodes: b.nodes,
    })
}

/// Solves `root` with the zone search and builds its certificate: proof
/// blocks by [`proof_block`], disproof blocks by the engine's extractor
/// (which lists the attacker's every move; zones play no part there).
pub fn certify(
    root: &Connect6,
    position: &str,
    tt: &Table,
    opts: ZoneOptions,
    limits: &Limits,
) -> Result<Certificate, String> {
    let opts = ZoneOptions { top: None, ..opts };
    let (value, _) = zone::solve(root, Variant::Dfpn, tt, limits, opts);
    let value = value.ok_or("the position was not solved within the limits")?;
    let mut blocks = Vec::new();
    for (goal, claim) in required_blocks(value, <Connect6 as Rules>::HAS_DRAWS) {
        if claim == Status::Proven {
            blocks.push(proof_block(root, goal, tt, opts, limits)?);
        } else {
            // Make sure the table holds this question's answer.
            let s = zone::search(root, goal, Variant::Dfpn, tt, limits, opts)
                .result
                .status;
            if s != Status::Disproven {
                return Err(format!("{} was not disproven", goal.name()));
            }
            blocks.push(Extractor::new(root, goal, claim, tt, limits.clone()).extract(root)?);
        }
    }
    Ok(Certificate {
        game: <Connect6 as Rules>::NAME.to_string(),
        position: position.to_string(),
        value,
        blocks,
    })
}
