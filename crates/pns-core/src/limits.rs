//! Search limits and the budget that enforces them.
//!
//! A limit never fails a search: it ends it cleanly with `unknown` and the
//! statistics gathered so far ([`StopReason`] says which limit).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::stats::Stats;

/// A callback shown the statistics about once a second (progress bars).
pub type ProgressFn = Arc<dyn Fn(&Stats) + Send + Sync>;

/// Limits on one search. `Default` is unlimited.
#[derive(Clone, Default)]
pub struct Limits {
    /// Maximum node visits including re-traversals (`Stats::visits`).
    pub visits: Option<u64>,
    /// Maximum nodes generated (`Stats::nodes`): best-first trees.
    pub nodes: Option<u64>,
    /// Wall-clock limit.
    pub time: Option<Duration>,
    /// Memory for explicit trees, in bytes (tables have a fixed size).
    pub memory: Option<u64>,
    /// Set from outside (Ctrl-C) to stop the search.
    pub stop: Option<Arc<AtomicBool>>,
    /// Called about once a second with the current statistics.
    pub progress: Option<ProgressFn>,
}

impl std::fmt::Debug for Limits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Limits")
            .field("visits", &self.visits)
            .field("nodes", &self.nodes)
            .field("time", &self.time)
            .field("memory", &self.memory)
            .finish()
    }
}

/// Why a search ended without a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    NodeLimit,
    TimeLimit,
    MemoryLimit,
    Interrupted,
}

impl StopReason {
    pub fn name(self) -> &'static str {
        match self {
            StopReason::NodeLimit => "node-limit",
            StopReason::TimeLimit => "time-limit",
            StopReason::MemoryLimit => "memory-limit",
            StopReason::Interrupted => "interrupted",
        }
    }
}

/// Enforces [`Limits`] cheaply from inside a search loop.
pub struct Budget {
    limits: Limits,
    start: Instant,
    deadline: Option<Instant>,
    next_check: u64,
    last_progress: Instant,
    stopped: Option<StopReason>,
}

/// Visits between clock checks: reading the clock every node costs more
/// than a node in the fastest domains.
const CHECK_INTERVAL: u64 = 4096;

impl Budget {
    pub fn new(limits: &Limits) -> Self {
        let start = Instant::now();
        Budget {
            deadline: limits.time.map(|t| start + t),
            limits: limits.clone(),
            start,
            next_check: CHECK_INTERVAL,
            last_progress: start,
            stopped: None,
        }
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The reason the search must stop, if any. Sticky once set.
    #[inline]
    pub fn check(&mut self, stats: &Stats) -> Option<StopReason> {
        if self.stopped.is_some() {
            return self.stopped;
        }
        if let Some(v) = self.limits.visits {
            if stats.visits >= v {
                self.stopped = Some(StopReason::NodeLimit);
                return self.stopped;
            }
        }
        if let Some(n) = self.limits.nodes {
            if stats.nodes >= n {
                self.stopped = Some(StopReason::NodeLimit);
                return self.stopped;
            }
        }
        // Playouts count as work too: a PPNS or MCPNS node costs dozens of
        // playouts, and without them the clock would be read only every few
        // hundred milliseconds there.
        let work = stats.visits + stats.nodes + stats.playouts;
        if work >= self.next_check {
            self.next_check = work + CHECK_INTERVAL;
            self.slow_check(stats);
        }
        self.stopped
    }

    /// Reports memory exhaustion of an explicit tree.
    pub fn memory_exceeded(&mut self) {
        self.stopped.get_or_insert(StopReason::MemoryLimit);
    }

    /// The memory limit in bytes, if any.
    pub fn memory_limit(&self) -> Option<u64> {
        self.limits.memory
    }

    #[cold]
    fn slow_check(&mut self, stats: &Stats) {
        let now = Instant::now();
        if let Some(d) = self.deadline {
            if now >= d {
                self.stopped = Some(StopReason::TimeLimit);
            }
        }
        if let Some(flag) = &self.limits.stop {
            if flag.load(Ordering::Relaxed) {
                self.stopped = Some(StopReason::Interrupted);
            }
        }
        if let Some(p) = &self.limits.progress {
            if now.duration_since(self.last_progress) >= Duration::from_millis(500) {
                self.last_progress = now;
                let mut s = stats.clone();
                s.time_ms = self.start.elapsed().as_secs_f64() * 1000.0;
                s.finish_derived();
                p(&s);
            }
        }
    }

    /// The reason recorded so far.
    pub fn stopped(&self) -> Option<StopReason> {
        self.stopped
    }

    /// Fills in time and the derived statistics at the end of a search.
    pub fn finish(&self, stats: &mut Stats) {
        stats.time_ms = self.start.elapsed().as_secs_f64() * 1000.0;
        stats.finish_derived();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visit_limit_stops_and_stays_stopped() {
        let limits = Limits {
            visits: Some(10),
            ..Limits::default()
        };
        let mut b = Budget::new(&limits);
        let at = |visits| Stats {
            visits,
            ..Stats::default()
        };
        assert_eq!(b.check(&at(9)), None);
        assert_eq!(b.check(&at(10)), Some(StopReason::NodeLimit));
        assert_eq!(b.check(&at(0)), Some(StopReason::NodeLimit));
    }

    #[test]
    fn stop_flag_interrupts_at_next_slow_check() {
        let flag = Arc::new(AtomicBool::new(true));
        let limits = Limits {
            stop: Some(flag),
            ..Limits::default()
        };
        let mut b = Budget::new(&limits);
        let s = Stats {
            visits: CHECK_INTERVAL,
            ..Stats::default()
        };
        assert_eq!(b.check(&s), Some(StopReason::Interrupted));
    }

    #[test]
    fn zero_time_limit_stops() {
        let limits = Limits {
            time: Some(Duration::ZERO),
            ..Limits::default()
        };
        let mut b = Budget::new(&limits);
        let s = Stats {
            visits: CHECK_INTERVAL,
            ..Stats::default()
        };
        assert_eq!(b.check(&s), Some(StopReason::TimeLimit));
    }
}
