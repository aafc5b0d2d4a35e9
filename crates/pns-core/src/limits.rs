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
///
/// The clock, the stop flag and the progress callback are looked at every
/// `interval` units of work (visits + nodes + playouts). Reading the clock
/// at every visit would cost several per cent in the fastest domains
/// (Connect Four visits a node in about 200 ns), while one Hex 11x11 visit
/// takes a tenth of a second; so the interval adapts to the measured speed
/// and aims at about one look per `CHECK_PERIOD` of work.
pub struct Budget {
    limits: Limits,
    start: Instant,
    deadline: Option<Instant>,
    /// Work at which the next look happens.
    next_check: u64,
    /// Work between looks.
    interval: u64,
    /// Work and time at the last look.
    last_work: u64,
    last_look: Instant,
    last_progress: Instant,
    stopped: Option<StopReason>,
}

/// Time of work between looks at the clock: short enough that a time limit
/// or Ctrl-C is honoured within a few milliseconds of the last node's end.
const CHECK_PERIOD: Duration = Duration::from_millis(1);

/// Work before the first look. Small, so that a slow search (a Hex 11x11
/// node generates over 100 children, a unit each) looks after its first
/// node, and a spent limit (the second search of a solve gets what the
/// first one left) stops it at once; not 1, so that the many searches of a
/// few visits each (a benchmark of end-game positions) read the clock
/// about once.
const FIRST_INTERVAL: u64 = 16;

/// The longest interval, in units of work. A fast search (millions of
/// visits a second) reaches it and then reads the clock about once every
/// millisecond; the cap also bounds the delay when the search suddenly
/// slows down (the interval shrinks only at the next look).
const MAX_INTERVAL: u64 = 4096;

impl Budget {
    pub fn new(limits: &Limits) -> Self {
        let start = Instant::now();
        Budget {
            // A time too large for the clock is no limit.
            deadline: limits.time.and_then(|t| start.checked_add(t)),
            limits: limits.clone(),
            start,
            next_check: FIRST_INTERVAL,
            interval: FIRST_INTERVAL,
            last_work: 0,
            last_look: start,
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
            self.slow_check(stats, work);
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
    fn slow_check(&mut self, stats: &Stats, work: u64) {
        let now = Instant::now();
        self.adapt_interval(work, now);
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

    /// Sets the work between looks from the speed since the last look:
    /// at most doubling (one fast stretch should not make the next look
    /// late), shrinking at once when the search slowed down.
    fn adapt_interval(&mut self, work: u64, now: Instant) {
        let done = work.saturating_sub(self.last_work) as u128;
        let took = now.duration_since(self.last_look).as_nanos();
        // No measurable time: the work was fast, grow as far as allowed.
        let fits = (done * CHECK_PERIOD.as_nanos())
            .checked_div(took)
            .unwrap_or(u128::MAX);
        let most = (self.interval * 2).min(MAX_INTERVAL);
        self.interval = fits.clamp(1, most as u128) as u64;
        self.last_work = work;
        self.last_look = now;
        self.next_check = work.saturating_add(self.interval);
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
        assert_eq!(b.check(&at(9)), None);
        assert_eq!(b.check(&at(10)), Some(StopReason::NodeLimit));
        assert_eq!(b.check(&at(0)), Some(StopReason::NodeLimit));
    }

    fn at(visits: u64) -> Stats {
        Stats {
            visits,
            ..Stats::default()
        }
    }

    #[test]
    fn stop_flag_interrupts_at_the_first_look() {
        let flag = Arc::new(AtomicBool::new(true));
        let limits = Limits {
            stop: Some(flag),
            ..Limits::default()
        };
        let mut b = Budget::new(&limits);
        assert_eq!(b.check(&at(FIRST_INTERVAL - 1)), None);
        assert_eq!(b.check(&at(FIRST_INTERVAL)), Some(StopReason::Interrupted));
    }

    #[test]
    fn zero_time_limit_stops_at_the_first_look() {
        let limits = Limits {
            time: Some(Duration::ZERO),
            ..Limits::default()
        };
        let mut b = Budget::new(&limits);
        assert_eq!(b.check(&at(FIRST_INTERVAL)), Some(StopReason::TimeLimit));
    }

    #[test]
    fn a_time_too_large_for_the_clock_is_no_limit() {
        let limits = Limits {
            time: Some(Duration::MAX),
            ..Limits::default()
        };
        let mut b = Budget::new(&limits);
        assert!(b.deadline.is_none());
        assert_eq!(b.check(&at(FIRST_INTERVAL)), None);
    }

    #[test]
    fn slow_work_is_checked_at_every_unit_and_stops_on_time() {
        // Each unit of work takes 2 ms, as a Hex 11x11 node takes 100 ms:
        // the clock must be read every unit, not every 4096.
        let limits = Limits {
            time: Some(Duration::from_millis(40)),
            ..Limits::default()
        };
        let t0 = Instant::now();
        let mut b = Budget::new(&limits);
        let mut work = 0;
        while b.check(&at(work)).is_none() {
            std::thread::sleep(Duration::from_millis(2));
            work += 1;
            assert!(work < 10_000, "never stopped");
        }
        assert_eq!(b.interval, 1);
        assert!(
            t0.elapsed() < Duration::from_millis(500),
            "stopped after {:?}",
            t0.elapsed()
        );
    }

    #[test]
    fn fast_work_reads_the_clock_rarely() {
        let mut b = Budget::new(&Limits::default());
        let mut widest = 0;
        for work in 0..20_000_000 {
            b.check(&at(work));
            widest = widest.max(b.interval);
        }
        assert_eq!(widest, MAX_INTERVAL);
    }
}
