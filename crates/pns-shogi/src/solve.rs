//! Solving a tsume problem: df-pn (or another algorithm of the engine that
//! follows the line) proves or disproves the mate on the whole game, GHI-
//! safe under the first-player-loss rule; a proven mate is then given its
//! tsume answer ([`crate::answer`]): the length and the main line.

use pns_core::game::Goal;
use pns_core::{Algo, GoalProblem, Limits, SearchResult, Status, Table};

use pns_core::certificate::Extractor;

use crate::answer::{proof_line, MateLength, MateLine};
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
    /// The tsume answer of a proven mate, when the length search finished.
    pub answer: Option<MateLine>,
    /// Positions the length search visited.
    pub length_nodes: u64,
    /// Why a proven mate has no exact answer (the length search's budget);
    /// `answer` then holds the proof's main line, if it could be read.
    pub answer_error: Option<String>,
}

impl TsumeReport {
    pub fn status(&self) -> Status {
        self.result.status
    }
}

/// Solves `root` with `tt` (a new or cleared table: shared through `&`, so
/// that a caller may watch it while the search runs). A proven mate whose
/// exact length search passes its budget gets the main line of the proof
/// found instead ([`crate::answer::proof_line`]), which is a mate but
/// perhaps not the shortest (`exact` false).
pub fn solve(root: &Tsume, opts: &TsumeOptions, tt: &Table) -> TsumeReport {
    let start = std::time::Instant::now();
    let mut p = GoalProblem::new(root.clone(), Goal::Win);
    let result = opts.algo.run(&mut p, tt, &opts.limits);
    let mut report = TsumeReport {
        result,
        answer: None,
        length_nodes: 0,
        answer_error: None,
    };
    if report.result.status == Status::Proven && opts.answer {
        // The time limit bounds the length search too.
        let deadline = opts.limits.time.map(|d| start + d);
        let mut ml = MateLength::new(opts.length_budget).with_deadline(deadline);
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
                ));
                let mut lim = opts.limits.clone();
                if let Some(d) = deadline {
                    lim.time = Some(d.saturating_duration_since(std::time::Instant::now()));
                }
                let ex = Extractor::new(root, Goal::Win, Status::Proven, tt, lim);
                match ex.extract(root) {
                    Ok(block) => match proof_line(root, &block) {
                        Ok(line) => report.answer = Some(line),
                        Err(e) => report.answer_error = Some(e),
                    },
                    Err(e) => report.answer_error = Some(e),
                }
            }
        }
        report.length_nodes = ml.nodes;
    }
    report
}
