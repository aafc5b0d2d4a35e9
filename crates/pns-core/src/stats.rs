//! The statistics record every search returns, whatever the algorithm.
//!
//! Definitions (the same for every algorithm; where an algorithm has no
//! such notion the field stays 0):
//!
//! * `iterations` — most-proving-node expansions (thesis §3.2.2: "the
//!   number of times for expanding a most-proving node"). In df-pn, a visit
//!   to a node that had not been expanded before.
//! * `expanded` — distinct nodes expanded. Equal to `iterations` except that
//!   df-pn counts a node again if its table entry was replaced and it had
//!   to be expanded anew, and best-first algorithms never re-expand.
//! * `visits` — node visits including re-traversals: the Deep df-pn
//!   paper's "node number" (§6.1). df-pn: calls of MID. Best-first search:
//!   every node on every selection path, the expanded node included.
//! * `nodes` — nodes generated (the thesis' "number of nodes", §3.2.2):
//!   tree nodes created by best-first search; in df-pn, children met for
//!   the first time when their parent was expanded.
//! * `seesaw_revisits` — the Deep df-pn paper's seesaw effect number
//!   (§6.1): visits to a node that had been expanded before.
//! * `seesaw_root_switches` — the thesis' estimate of the seesaw effect
//!   (§3.2.6): changes of the root's chosen child between consecutive
//!   descents.
//! * `max_root_pn/dn`, `max_pn/dn` — largest finite proof and disproof
//!   numbers seen at the root and at any node (thesis ch. 4). PPNS has no
//!   proof numbers (0); MCPNS's fractional numbers are rounded up.
//! * `playouts` — random playouts run to value leaves (PPNS, MCPNS).
//! * `mpn_depth_sum` — sum of the depths of the expanded most-proving
//!   nodes; `avg_mpn_depth` divides it by `iterations` (thesis §3.2.5).
//! * `tt_*` — transposition-table probes, hits, stores, replacements of a
//!   live entry, garbage collections and entries they removed.
//! * `repetitions` — children found to repeat a position of the line
//!   (games with a repetition rule; GHI paper §1.2).
//! * `twin_hits`, `sim_calls`, `sim_failed`, `sim_nodes` — GHI-safe df-pn
//!   (GHI paper §3.1-3.3, Table 1): twin entries reused on their own path,
//!   simulations run to check a twin on a new path, those that failed, and
//!   the nodes simulation visited (not counted in `visits`).
//! * `kawano_calls`, `kawano_proven`, `kawano_nodes` — Kawano's simulation
//!   (df-pn with `kawano`, [`crate::dfpn::kawano`]): siblings of a proven
//!   child of an AND node that a replay of its proof tried, those it
//!   proved, and the nodes it read and replayed (not counted in `visits`).
//! * `nested_searches`, `nested_visits`, `nested_nodes` — searches a
//!   problem's hooks ran inside this one (a ladder, a threat check), and
//!   their visits and nodes; `visits`, `nodes`, `iterations` and the
//!   table counters include them.
//! * `time_ms`, `nodes_per_sec` (visits per second), `peak_memory_bytes`
//!   (table plus tree plus search stacks).

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Stats {
    pub iterations: u64,
    pub expanded: u64,
    pub visits: u64,
    pub nodes: u64,
    pub seesaw_revisits: u64,
    pub seesaw_root_switches: u64,
    pub max_root_pn: u64,
    pub max_root_dn: u64,
    pub max_pn: u64,
    pub max_dn: u64,
    pub max_depth: u32,
    pub mpn_depth_sum: u64,
    pub avg_mpn_depth: f64,
    pub playouts: u64,
    pub tt_probes: u64,
    pub tt_hits: u64,
    pub tt_stores: u64,
    pub tt_replacements: u64,
    pub tt_collections: u64,
    pub tt_collected: u64,
    pub repetitions: u64,
    pub twin_hits: u64,
    pub sim_calls: u64,
    pub sim_failed: u64,
    pub sim_nodes: u64,
    pub kawano_calls: u64,
    pub kawano_proven: u64,
    pub kawano_nodes: u64,
    pub nested_searches: u64,
    pub nested_visits: u64,
    pub nested_nodes: u64,
    pub time_ms: f64,
    pub nodes_per_sec: f64,
    pub peak_memory_bytes: u64,
}

impl Stats {
    /// Adds the counters of `other` (a later search on the same question,
    /// e.g. the second search of a win/draw/loss solve). Maxima are maxed.
    pub fn accumulate(&mut self, o: &Stats) {
        self.iterations += o.iterations;
        self.expanded += o.expanded;
        self.visits += o.visits;
        self.nodes += o.nodes;
        self.seesaw_revisits += o.seesaw_revisits;
        self.seesaw_root_switches += o.seesaw_root_switches;
        self.max_root_pn = self.max_root_pn.max(o.max_root_pn);
        self.max_root_dn = self.max_root_dn.max(o.max_root_dn);
        self.max_pn = self.max_pn.max(o.max_pn);
        self.max_dn = self.max_dn.max(o.max_dn);
        self.max_depth = self.max_depth.max(o.max_depth);
        self.mpn_depth_sum += o.mpn_depth_sum;
        self.playouts += o.playouts;
        self.tt_probes += o.tt_probes;
        self.tt_hits += o.tt_hits;
        self.tt_stores += o.tt_stores;
        self.tt_replacements += o.tt_replacements;
        self.tt_collections += o.tt_collections;
        self.tt_collected += o.tt_collected;
        self.repetitions += o.repetitions;
        self.twin_hits += o.twin_hits;
        self.sim_calls += o.sim_calls;
        self.sim_failed += o.sim_failed;
        self.sim_nodes += o.sim_nodes;
        self.kawano_calls += o.kawano_calls;
        self.kawano_proven += o.kawano_proven;
        self.kawano_nodes += o.kawano_nodes;
        self.nested_searches += o.nested_searches;
        self.nested_visits += o.nested_visits;
        self.nested_nodes += o.nested_nodes;
        self.time_ms += o.time_ms;
        self.peak_memory_bytes = self.peak_memory_bytes.max(o.peak_memory_bytes);
        self.finish_derived();
    }

    /// Records one nested search's statistics `r` in a problem's running
    /// sum of them (see [`crate::Problem::nested_stats`]).
    pub fn note_nested(&mut self, r: &Stats) {
        self.accumulate(r);
        self.nested_searches += 1;
    }

    /// Adds the sum `n` of nested searches' statistics (made with
    /// [`Stats::note_nested`]): counted apart (`nested_*`) and in the
    /// totals. Their time is not added: it passed inside this search.
    pub fn add_nested(&mut self, n: &Stats) {
        let (t, visits, nodes, searches) = (
            self.time_ms,
            self.nested_visits,
            self.nested_nodes,
            self.nested_searches,
        );
        self.accumulate(n);
        self.time_ms = t;
        self.nested_visits = visits + n.visits;
        self.nested_nodes = nodes + n.nodes;
        self.nested_searches = searches + n.nested_searches;
        self.finish_derived();
    }

    /// Recomputes the derived fields (`avg_mpn_depth`, `nodes_per_sec`).
    pub fn finish_derived(&mut self) {
        self.avg_mpn_depth = if self.iterations > 0 {
            self.mpn_depth_sum as f64 / self.iterations as f64
        } else {
            0.0
        };
        self.nodes_per_sec = if self.time_ms > 0.0 {
            self.visits as f64 * 1000.0 / self.time_ms
        } else {
            0.0
        };
    }

    /// Records a node's finite proof and disproof numbers in the maxima.
    #[inline(always)]
    pub fn see_numbers(&mut self, pn: u64, dn: u64) {
        if pn != crate::numbers::INF && pn > self.max_pn {
            self.max_pn = pn;
        }
        if dn != crate::numbers::INF && dn > self.max_dn {
            self.max_dn = dn;
        }
    }

    /// Records the root's finite proof and disproof numbers.
    #[inline]
    pub fn see_root(&mut self, pn: u64, dn: u64) {
        if pn != crate::numbers::INF && pn > self.max_root_pn {
            self.max_root_pn = pn;
        }
        if dn != crate::numbers::INF && dn > self.max_root_dn {
            self.max_root_dn = dn;
        }
        self.see_numbers(pn, dn);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accumulate_sums_counters_and_maxes_maxima() {
        let mut a = Stats {
            visits: 10,
            max_pn: 3,
            iterations: 2,
            mpn_depth_sum: 6,
            time_ms: 1.0,
            ..Stats::default()
        };
        let b = Stats {
            visits: 5,
            max_pn: 7,
            iterations: 1,
            mpn_depth_sum: 3,
            time_ms: 2.0,
            ..Stats::default()
        };
        a.accumulate(&b);
        assert_eq!(a.visits, 15);
        assert_eq!(a.max_pn, 7);
        assert_eq!(a.avg_mpn_depth, 3.0);
        assert_eq!(a.nodes_per_sec, 5000.0);
        a.see_numbers(crate::numbers::INF, 9);
        assert_eq!(a.max_pn, 7);
        assert_eq!(a.max_dn, 9);
    }
}
