//! Solving a tsume problem: df-pn (or another algorithm of the engine that
//! follows the line) proves or disproves the mate on the whole game, GHI-
//! safe under the first-player-loss rule; a proven mate is then given its
//! tsume answer ([`crate::answer`]): the length and the main line.

use pns_core::game::Goal;
use pns_core::{Algo, GoalProblem, Limits, SearchResult, Status, Table};

use crate::answer::{MateLength, MateLine};
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
}

impl Default for TsumeOptions {
    fn default() -> Self {
        TsumeOptions {
            algo: Algo::default(),
            limits: Limits::default(),
            length_budget: 20_000_000,
            max_length: 255,
        }
    }
}

/// The outcome of a solve.
#[derive(Clone, Debug)]
pub struct TsumeReport {
    /// Proven: a mate; disproven: no mate; unknown: a limit ended it.
    pub result: SearchResult,
    /// The tsume answer of a proven mate, when the length search finished.
    pub answer: Option<MateLine>,
    /// Positions the length search visited.
    pub length_nodes: u64,
    /// Why a proven mate has no answer (the length search's budget).
    pub answer_error: Option<String>,
}

impl TsumeReport {
    pub fn status(&self) -> Status {
        self.result.status
    }
}

/// Solves `root` with `tt` (cleared first).
pub fn solve(root: &Tsume, opts: &TsumeOptions, tt: &mut Table) -> TsumeReport {
    tt.clear();
    let mut p = GoalProblem::new(root.clone(), Goal::Win);
    let result = opts.algo.run(&mut p, tt, &opts.limits);
    let mut report = TsumeReport {
        result,
        answer: None,
        length_nodes: 0,
        answer_error: None,
    };
    if report.result.status == Status::Proven {
        let mut ml = MateLength::new(opts.length_budget);
        match ml.solve(root, opts.max_length) {
            Ok(Some(line)) => report.answer = Some(line),
            Ok(None) => {
                report.answer_error = Some(format!(
                    "the mate is longer than {} plies (length search limit)",
                    opts.max_length
                ))
            }
            Err(_) => {
                report.answer_error = Some(format!(
                    "the length search passed its budget of {} positions",
                    opts.length_budget
                ))
            }
        }
        report.length_nodes = ml.nodes;
    }
    report
}
