//! Solving a position: win, draw or loss for the side to move, from one or
//! two AND/OR searches (the issue's `solve`).
//!
//! First "the side to move wins": proven is a win. Otherwise, in a game
//! with draws, "the side to move does not lose": proven is a draw,
//! disproven a loss. In a game without draws the first search decides. Each
//! search starts with an empty table; the certificate blocks and the best
//! move are extracted right after the search that establishes them, while
//! the table still holds its proof.

use std::time::Duration;

use crate::algo::Algo;
use crate::certificate::{required_blocks, Block, Certificate, Extractor};
use crate::game::{Game, Goal, Outcome};
use crate::limits::{Limits, StopReason};
use crate::problem::{GoalProblem, Status};
use crate::result::SearchResult;
use crate::stats::Stats;
use crate::tt::Table;

/// How to solve.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    pub algo: Algo,
    /// Limits on the whole solve (both searches together).
    pub limits: Limits,
    /// Extract a certificate.
    pub proof: bool,
    /// Find the first move of the proof (the best move) when there is one.
    pub best_move: bool,
    /// Ask "the side to move does not lose" before "the side to move wins"
    /// (one search for a loss instead of one for a win).
    pub not_lose_first: bool,
    /// Agents in each search (parallel df-pn on the one table,
    /// [`Algo::run_threads`]); 0 and 1 mean one.
    pub threads: usize,
}

/// One goal search of a solve.
#[derive(Clone, Debug)]
pub struct GoalSearch {
    pub goal: Goal,
    pub result: SearchResult,
}

/// The result of solving a position.
#[derive(Clone, Debug)]
pub struct SolveReport<G: Game> {
    /// The value for the side to move, or `None` (unknown) when a limit
    /// ended a search.
    pub value: Option<Outcome>,
    pub searches: Vec<GoalSearch>,
    /// The statistics of all searches together.
    pub stats: Stats,
    /// The first move of the proof: a winning move for a win, a drawing move
    /// for a draw; none for a loss or a finished game.
    pub best_move: Option<G::Move>,
    /// The certificate, when asked for and extracted.
    pub certificate: Option<Certificate>,
    /// Why the certificate could not be extracted, if it could not.
    pub proof_error: Option<String>,
    /// Which limit ended the solve, if one did.
    pub stop: Option<StopReason>,
    /// Wall time of the whole solve in ms, extraction included
    /// (`stats.time_ms` counts the searches only).
    pub total_ms: f64,
}

fn remaining(limits: &Limits, used: &Stats, elapsed: Duration) -> Limits {
    let mut l = limits.clone();
    l.visits = limits.visits.map(|v| v.saturating_sub(used.visits));
    l.nodes = limits.nodes.map(|v| v.saturating_sub(used.nodes));
    l.time = limits.time.map(|t| t.saturating_sub(elapsed));
    l
}

/// An extractor whose sub-searches get as many visits in all as the
/// search was allowed (`limits.visits`), as well as the time limit again: a
/// proof whose lines all end in repetitions can need exponentially many.
fn budgeted<'t, G: Game>(ex: Extractor<'t, G>, limits: &Limits) -> Extractor<'t, G> {
    match limits.visits {
        Some(v) => ex.with_visit_budget(v),
        None => ex,
    }
}

/// Solves `root` (written `position` in the game's notation, for the
/// certificate header) with the table `tt`.
pub fn solve<G: Game>(
    root: &G,
    position: &str,
    opts: &SolveOptions,
    tt: &mut Table,
) -> SolveReport<G> {
    let start = std::time::Instant::now();
    let mut report = SolveReport {
        value: None,
        searches: Vec::new(),
        stats: Stats::default(),
        best_move: None,
        certificate: None,
        proof_error: None,
        stop: None,
        total_ms: 0.0,
    };
    let mut blocks: Vec<Block> = Vec::new();
    let goals: &[Goal] = if !G::HAS_DRAWS {
        &[Goal::Win]
    } else if opts.not_lose_first {
        &[Goal::NotLose, Goal::Win]
    } else {
        &[Goal::Win, Goal::NotLose]
    };
    let extract_limits = Limits {
        stop: opts.limits.stop.clone(),
        time: opts.limits.time,
        ..Limits::default()
    };
    tt.clear();
    for (i, &goal) in goals.iter().enumerate() {
        let limits = remaining(&opts.limits, &report.stats, start.elapsed());
        let mut p = GoalProblem::new(root.clone(), goal);
        // The second search reads the first one's answers that settle its
        // own question (the table keeps both: their keys differ).
        p.set_reuse_other_goal(i > 0);
        let r = opts.algo.run_threads(&mut p, tt, &limits, opts.threads);
        report.stats.accumulate(&r.stats);
        let status = r.status;
        report.stop = r.stop;
        report.searches.push(GoalSearch { goal, result: r });
        let value = match (goal, status) {
            (_, Status::Unknown) => break,
            (Goal::Win, Status::Proven) => Some(Outcome::Win),
            (Goal::Win, Status::Disproven) if !G::HAS_DRAWS => Some(Outcome::Loss),
            (Goal::Win, Status::Disproven) if i == 0 => None,
            (Goal::Win, Status::Disproven) => Some(Outcome::Draw),
            (Goal::NotLose, Status::Proven) if i == 0 => None,
            (Goal::NotLose, Status::Proven) => Some(Outcome::Draw),
            (Goal::NotLose, Status::Disproven) => Some(Outcome::Loss),
        };
        if opts.proof {
            let ex = Extractor::new(root, goal, status, tt, extract_limits.clone());
            match budgeted(ex, &opts.limits).extract(root) {
                Ok(b) => blocks.push(b),
                Err(e) => report.proof_error = Some(e),
            }
        }
        if opts.best_move && status == Status::Proven && root.outcome().is_none() {
            let ex = Extractor::new(root, goal, status, tt, extract_limits.clone());
            report.best_move = budgeted(ex, &opts.limits).choose(root);
        }
        if value.is_some() {
            report.value = value;
            break;
        }
    }
    if let Some(v) = report.value {
        // Keep the blocks the value needs (the first search's block is
        // superfluous when the second one settles the value alone).
        let need = required_blocks(v, G::HAS_DRAWS);
        blocks.retain(|b| need.contains(&(b.goal, b.claim)));
        if opts.proof && report.proof_error.is_none() {
            report.certificate = Some(Certificate {
                game: G::NAME.to_string(),
                position: position.to_string(),
                value: v,
                blocks,
            });
        }
    }
    report.total_ms = start.elapsed().as_secs_f64() * 1000.0;
    report
}
