//! Solving a tsume problem: df-pn (or another algorithm of the engine that
//! follows the line) proves or disproves the mate on the whole game, GHI-
//! safe under the first-player-loss rule; a proven mate is then given its
//! tsume answer ([`crate::answer`]): the length and the main line.

use pns_core::game::Goal;
use pns_core::{Algo, GoalProblem, Limits, SearchResult, Status, Table};

use crate::answer::{proof_line, MateLength, MateLine};
use crate::proof::{table_proof, WalkLimits};
use crate::tsume::Tsume;

/// How to solve a problem.
#[derive(Clone, Debug)]
pub struct TsumeOptions {
    pub algo: Algo,
    pub limits: Limits,
    /// Positions the length search may visit.
    pub length_budget: u64,
    /// The longest mate the length search deepens to.
    pub max_length: u32,
    /// Whether a proven mate gets its answer (length and main line).
    pub answer: bool,
}

impl Default for TsumeOptions {
    fn default() -> Self {
        TsumeOptions {
            algo: Algo::default(),
            limits: Limits::default(),
            length_budget: 20_000_000,
            max_length: 255,
            answer: true,
        }
    }
}

/// The outcome of a solve.
#[derive(Clone, Debug)]
pub struct TsumeReport {
    /// Proven: a mate; disproven: no mate; unknown: a limit ended it.
    pub result: SearchResult,
    /// The tsume answer of a proven mate: from the exact length search, or
    /// when that passes its budget, the main line of the proof read from
    /// the table ([`crate::proof`]).
    pub answer: Option<MateLine>,
    /// Whether `answer` is the exact length search's (the shortest mate
    /// proven shortest) rather than the shortest in the proof read back.
    pub answer_exact: bool,
    /// Positions the length search visited.
    pub length_nodes: u64,
    /// Why a proven mate has no exact answer (the length search's budget);
    /// `answer` then holds the proof's main line, if it could be read.
    pub answer_error: Option<String>,
    /// Positions of the proof read from the table, when it was read.
    pub proof_nodes: Option<usize>,
}

impl TsumeReport {
    pub fn status(&self) -> Status {
        self.result.status
    }
}

/// Solves `root` with `tt` (a new or cleared table: shared through `&`, so
/// that a caller may watch it while the search runs). A proven mate whose
/// exact length search passes its budget gets the main line of the proof
/// read from the table instead ([`crate::proof::table_proof`]): a mate,
/// the shortest the proof holds, but not proven the shortest
/// (`answer_exact` false).
pub fn solve(root: &Tsume, opts: &TsumeOptions, tt: &Table) -> TsumeReport {
    let start = std::time::Instant::now();
    let mut p = GoalProblem::new(root.clone(), Goal::Win);
    let result = opts.algo.run(&mut p, tt, &opts.limits);
    let mut report = TsumeReport {
        result,
        answer: None,
        answer_exact: false,
        length_nodes: 0,
        answer_error: None,
        proof_nodes: None,
    };
    if report.result.status == Status::Proven && opts.answer {
        // The time limit bounds the length search too.
        let deadline = opts.limits.time.map(|d| start + d);
        let mut ml = MateLength::new(opts.length_budget).with_deadline(deadline);
        match ml.solve(root, opts.max_length) {
            Ok(Some(line)) => {
                report.answer = Some(line);
                report.answer_exact = true;
            }
            other => {
                report.answer_error = Some(match other {
                    Ok(_) => format!(
                        "the mate is longer than {} plies (length search limit)",
                        opts.max_length
                    ),
                    Err(_) => format!(
                        "the length search passed its budget of {} positions",
                        opts.length_budget
                    ),
                });
                let lim = WalkLimits {
                    algo: opts.algo.clone(),
                    deadline,
                    ..WalkLimits::default()
                };
                match table_proof(root, tt, &lim).and_then(|p| {
                    report.proof_nodes = Some(p.block.nodes.len());
                    proof_line(root, &p.block)
                }) {
                    Ok(line) => report.answer = Some(line),
                    Err(e) => {
                        let why = report.answer_error.take().unwrap_or_default();
                        report.answer_error = Some(format!("{why}; reading the proof: {e}"));
                    }
                }
            }
        }
        report.length_nodes = ml.nodes;
    }
    report
}
