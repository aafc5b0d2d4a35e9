//! Parallel df-pn in one search: several agents run df-pn from the same
//! root on one shared table (Kaneko 2010, "Parallel Depth First Proof
//! Number Search", AAAI-10).
//!
//! Each agent is an ordinary df-pn search (`super::Dfpn`) on a copy of the
//! problem. They cooperate only through the table, where each one's
//! results are the others' to read, and through two things held here:
//!
//! * **Virtual proof numbers** (Kaneko §3): an agent marks every node on its
//!   current path; when an agent chooses a child, a child that `k` other
//!   agents are working below looks worse than it is, as if their work were
//!   about to raise its numbers. So agents spread over the most-proving
//!   *candidates* instead of all queuing on the single most-proving node. We
//!   raise the child's selection number (its δ in the parent's view) by a
//!   factor `1 + k`: a child twice as promising as its sibling still draws a
//!   second agent. Only the choice uses the virtual number: what a node
//!   stores and returns is its real (φ, δ), so the table never holds a
//!   value that depends on where the agents happened to be.
//! * **Cut-off**: the first agent that solves the root tells the others to
//!   stop; an agent whose subtree another agent solved sees it when it
//!   re-reads its children from the table, which it does at each iteration
//!   of a marked node that another agent is at or below (the node's mark
//!   counts more than this agent), and returns at once. At a node no other
//!   agent is in, and below the marked plies, a sibling's newer entry shows
//!   when the agent descends into it (it returns at once, over its
//!   threshold or solved), as in serial df-pn with transpositions;
//!   re-reading there too cost 6 % more
//!   instructions per visit (one agent on Connect Four L1_R2, the same
//!   visits either way).
//! * **Choosing cheaply**: the virtual numbers are weighed only when the
//!   best or second-best child by real numbers is busy; otherwise they give
//!   the same choice and second number, and the agent reads two marks, not
//!   one per child.
//!
//! Marks live in a small array of counters indexed by key, apart from the
//! table: a collision only makes a node look busier than it is (a worse
//! choice, never a wrong value). Only the nodes of the top `MARK_DEPTH`
//! plies are marked and weighed: there the agents' paths part, while
//! below it each mark and each look at a child's mark touches a counter
//! whose cache line the other agents keep writing (two agents on Connect
//! Four L1_R2 spent about 9 % more CPU per visit marking every node than
//! marking the top 12 plies, for about the same visits;
//! docs/PERFORMANCE.md). Deeper, the agents' subtrees are
//! apart already, and where transpositions join them the table shows each
//! one the other's results. Nothing here is locked: the counters are
//! atomics and the table is lock-free ([`crate::tt`]), so the hot path has
//! no global lock and the scheme is meant for 16-64 agents; what limits it
//! is the shared table's memory bandwidth and the search overhead
//! (agents re-searching what another one proved a moment later).
//!
//! Values are those of the one-agent search: every solved entry any agent
//! stores is a real (dis)proof of its node, whoever stored it. Only games
//! without repetitions run in parallel (a path-dependent GHI result is
//! not shared this way); [`search`] runs one agent for the others.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering::Relaxed};

use crate::limits::Limits;
use crate::problem::Problem;
use crate::result::SearchResult;
use crate::tt::Table;

use super::expand::{line_kind, Search};
use super::ghi::NoLine;
use super::policy::DfpnPolicy;
use super::{Dfpn, PathOptions};

/// Counters of marks (log2 of their number): 64 Ki counters, 256 KiB,
/// enough that agents on different nodes rarely share one.
const MARK_BITS: u32 = 16;

/// Plies from the root whose nodes an agent marks (and, choosing a child
/// there, weighs by the marks); see the module documentation.
pub(crate) const MARK_DEPTH: u32 = 8;

/// Stack of an agent's thread: recursion depth follows the game's length
/// (the same as the command line gives its search threads).
const AGENT_STACK_BYTES: usize = 256 << 20;

/// What the agents of one search share besides the table.
pub(crate) struct Shared {
    marks: Box<[AtomicU32]>,
    /// Set by the first agent that solves the root.
    pub done: AtomicBool,
}

impl Shared {
    fn new() -> Self {
        Shared {
            marks: (0..1usize << MARK_BITS)
                .map(|_| AtomicU32::new(0))
                .collect(),
            done: AtomicBool::new(false),
        }
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> &AtomicU32 {
        // The key's high bits: the table's cluster index uses the high bits
        // too, but the counters are a separate, much smaller array.
        &self.marks[(key >> (64 - MARK_BITS)) as usize]
    }

    /// An agent enters the node `key`.
    #[inline(always)]
    pub fn mark(&self, key: u64) {
        self.slot(key).fetch_add(1, Relaxed);
    }

    /// An agent leaves the node `key`.
    #[inline(always)]
    pub fn unmark(&self, key: u64) {
        self.slot(key).fetch_sub(1, Relaxed);
    }

    /// Agents working at or below the node `key` (possibly counting a
    /// node that shares its counter).
    #[inline(always)]
    pub fn agents(&self, key: u64) -> u32 {
        self.slot(key).load(Relaxed)
    }

    /// Whether some agent has solved the root.
    #[inline(always)]
    pub fn done(&self) -> bool {
        self.done.load(Relaxed)
    }
}

/// Runs df-pn with `pol` on `problem` with `threads` agents on `tt`
/// (Kaneko 2010); `threads` ≤ 1, a game with repetitions or a search with
/// a key space of its own runs the one-agent search with `path`. A node or visit limit is shared out evenly among the
/// agents; a time limit and an interruption stop them all. The statistics
/// are the agents' sums (maxima maxed), with the search's wall time.
pub fn search<P, Pol>(
    problem: &mut P,
    pol: Pol,
    tt: &Table,
    limits: &Limits,
    threads: usize,
    path: &PathOptions,
) -> SearchResult
where
    P: Problem + Clone + Send,
    Pol: DfpnPolicy,
{
    if threads <= 1 || line_kind(problem).is_some() || path.space != 0 {
        return super::search_with(problem, pol, tt, limits, path);
    }
    assert!(
        tt.is_shared(),
        "parallel df-pn needs a table shared between threads (Table::set_shared(true))"
    );
    let shared = Shared::new();
    let mut agent_limits = limits.clone();
    let share = |v: u64| v.div_ceil(threads as u64);
    agent_limits.visits = limits.visits.map(share);
    agent_limits.nodes = limits.nodes.map(share);
    let start = std::time::Instant::now();
    tt.batch_counts(true);
    let results: Vec<SearchResult> = std::thread::scope(|scope| {
        let handles: Vec<_> = (1..threads)
            .map(|_| {
                let mut p = problem.clone();
                let pol = pol.clone();
                let (shared, lim) = (&shared, agent_limits.clone());
                std::thread::Builder::new()
                    .stack_size(AGENT_STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        let mut s = Search::new(tt, pol, NoLine, &lim, 0);
                        s.par = Some(shared);
                        let r = Dfpn::run(s, &mut p);
                        tt.flush_counts();
                        r
                    })
                    .expect("cannot start a search thread")
            })
            .collect();
        let mut s = Search::new(tt, pol.clone(), NoLine, &agent_limits, 0);
        s.par = Some(&shared);
        let mut out = vec![Dfpn::run(s, problem)];
        tt.flush_counts();
        out.extend(handles.into_iter().map(|h| match h.join() {
            Ok(r) => r,
            Err(e) => std::panic::resume_unwind(e),
        }));
        out
    });
    tt.batch_counts(false);
    combine(results, start.elapsed())
}

/// One result from the agents': the solved status if any agent found one
/// (they agree: each is a real (dis)proof of the root), else unknown with
/// the first agent's stop reason; statistics summed.
fn combine(results: Vec<SearchResult>, wall: std::time::Duration) -> SearchResult {
    let solved = results.iter().find(|r| r.status.is_solved());
    let status = solved.map_or(results[0].status, |r| r.status);
    let stop = if solved.is_some() {
        None
    } else {
        results[0].stop
    };
    let mut stats = results[0].stats.clone();
    for r in &results[1..] {
        stats.accumulate(&r.stats);
    }
    // The agents' table sizes are one table's, and time is wall time.
    stats.peak_memory_bytes = results
        .iter()
        .map(|r| r.stats.peak_memory_bytes)
        .max()
        .unwrap_or(0);
    stats.time_ms = wall.as_secs_f64() * 1000.0;
    stats.finish_derived();
    SearchResult {
        status,
        stats,
        stop,
    }
}
