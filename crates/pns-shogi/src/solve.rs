//! Solving a tsume problem: df-pn (or another algorithm of the engine that
//! follows the line) proves or disproves the mate on the whole game, GHI-
//! safe under the first-player-loss rule; a proven mate is then given its
//! tsume answer ([`crate::answer`]): the length and the main line.

use pns_core::game::Goal;
use pns_core::{Algo, GoalProblem, Limits, SearchResult, Status, Table};

use crate::answer::{proof_line, MateLength, MateLine};
use crate::proof::{table_proof, TableProof, WalkLimits};
use crate::tsume::Tsume;

/// Positions the exact length search visits before the proof is read
/// ([`AnswerLimits::first_budget`]): the 72 antma problems' answers take
/// at most a few thousand.
pub const FIRST_BUDGET: u64 = 2_000_000;

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

impl TsumeOptions {
    /// The limits of the answer to a mate whose search began at `start`:
    /// what is left of these options' limits ([`AnswerLimits::after_search`]).
    pub fn answer_limits(&self, start: std::time::Instant) -> AnswerLimits {
        AnswerLimits::after_search(
            &self.algo,
            &self.limits,
            start,
            self.length_budget,
            self.max_length,
        )
    }
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

/// What bounds the answer to a proven mate ([`mate_answer`]).
#[derive(Clone, Debug)]
pub struct AnswerLimits {
    /// The search that proves again the checks the proof reading needs.
    pub algo: Algo,
    /// Positions the exact length search may visit in all.
    pub length_budget: u64,
    /// Of those, the positions it may visit before the proof is read.
    pub first_budget: u64,
    /// The longest mate the length search deepens to.
    pub max_length: u32,
    /// Give up at this instant.
    pub deadline: Option<std::time::Instant>,
    /// Give up when this is set (a caller's `stop`).
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl AnswerLimits {
    /// The limits of an answer that follows a search begun at `start`
    /// under `limits`: the same deadline and stop flag, `FIRST_BUDGET`
    /// positions before the proof is read.
    pub fn after_search(
        algo: &Algo,
        limits: &Limits,
        start: std::time::Instant,
        length_budget: u64,
        max_length: u32,
    ) -> Self {
        AnswerLimits {
            algo: algo.clone(),
            length_budget,
            first_budget: FIRST_BUDGET,
            max_length,
            deadline: limits.time.map(|d| start + d),
            stop: limits.stop.clone(),
        }
    }
}

/// The longest line read from the proof whose length the exact search
/// still tries to confirm: its cost grows exponentially with the length,
/// and a longer one spends the whole budget in vain (Microcosmos' 1525
/// plies took ten minutes of it).
pub const CONFIRM_PLIES: u32 = 63;

/// The tsume answer to a proven mate, and how it was found.
#[derive(Debug, Default)]
pub struct MateAnswer {
    /// The length and the main line.
    pub line: Option<MateLine>,
    /// Whether the length is proven the shortest.
    pub exact: bool,
    /// Positions the exact length search visited.
    pub length_nodes: u64,
    /// Why the length is not exact, or why there is no answer.
    pub error: Option<String>,
    /// The proof read from the table, where it was read (a certificate of
    /// the mate; none when the exact search answered first).
    pub proof: Option<TableProof>,
    /// Milliseconds spent reading the proof (0 when it was not read).
    pub proof_ms: f64,
}

/// The answer to `root`, a mate proven in `tt`:
///
/// 1. the exact length search ([`MateLength`]) with `first_budget`
///    positions: short mates end here, with an exact answer;
/// 2. else the proof read from the table ([`table_proof`]): a mate of
///    `L` plies, the shortest that proof holds;
/// 3. then, for `L` ≤ [`CONFIRM_PLIES`], the exact search resumed (its
///    table kept) with the rest of the budget, deepening only to `L − 2`:
///    no mate within `L − 2` proves `L` the shortest (lengths are odd); a
///    shorter mate is the exact answer.
pub fn mate_answer(root: &Tsume, tt: &Table, lim: &AnswerLimits) -> MateAnswer {
    let mut ml = MateLength::new(lim.first_budget.min(lim.length_budget))
        .with_deadline(lim.deadline)
        .with_stop(lim.stop.clone());
    let mut a = MateAnswer::default();
    let first = ml.solve(root, lim.max_length);
    if let Ok(Some(line)) = first {
        a.line = Some(line);
        a.exact = true;
        a.length_nodes = ml.nodes;
        return a;
    }
    let late = || crate::answer::expired(lim.deadline, lim.stop.as_ref());
    let walk = WalkLimits {
        algo: lim.algo.clone(),
        deadline: lim.deadline,
        stop: lim.stop.clone(),
        ..WalkLimits::default()
    };
    let t0 = std::time::Instant::now();
    let read = table_proof(root, tt, &walk).and_then(|p| {
        let line = proof_line(root, &p.block)?;
        Ok((p, line))
    });
    a.proof_ms = t0.elapsed().as_secs_f64() * 1e3;
    let (proof, line) = match read {
        Ok(x) => x,
        Err(e) => {
            a.length_nodes = ml.nodes;
            a.error = Some(format!("reading the proof: {e}"));
            return a;
        }
    };
    let len = line.length;
    a.proof = Some(proof);
    a.line = Some(line);
    a.error = Some(if first == Ok(None) {
        format!(
            "the mate is longer than {} plies (length search limit)",
            lim.max_length
        )
    } else if len > CONFIRM_PLIES {
        format!(
            "the length search gave up after {} positions; {len} plies are beyond its reach \
             (it confirms lines of at most {CONFIRM_PLIES})",
            ml.nodes
        )
    } else {
        ml.allow(lim.length_budget.saturating_sub(ml.nodes));
        match ml.solve(root, len.saturating_sub(2).min(lim.max_length)) {
            Ok(None) => {
                a.exact = true;
                a.length_nodes = ml.nodes;
                return a;
            }
            Ok(Some(shorter)) => {
                a.line = Some(shorter);
                a.exact = true;
                a.length_nodes = ml.nodes;
                return a;
            }
            Err(_) if late() => format!(
                "the length search reached the time limit (or was stopped) after {} positions",
                ml.nodes
            ),
            Err(_) => format!(
                "the length search passed its budget of {} positions",
                lim.length_budget
            ),
        }
    });
    a.length_nodes = ml.nodes;
    a
}

/// Solves `root` with `tt` (a new or cleared table: shared through `&`, so
/// that a caller may watch it while the search runs), then gives a proven
/// mate its answer ([`mate_answer`]).
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
        let a = mate_answer(root, tt, &opts.answer_limits(start));
        report.answer = a.line;
        report.answer_exact = a.exact;
        report.length_nodes = a.length_nodes;
        report.answer_error = a.error;
        report.proof_nodes = a.proof.map(|p| p.block.nodes.len());
    }
    report
}
