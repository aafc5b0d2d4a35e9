//! Paths and repetitions: the line the search owns, and the GHI-safe use
//! of the transposition table (Kishimoto and Müller, "A solution to the GHI
//! problem for depth-first proof-number search", 2005 — the GHI paper).
//!
//! * The **line** is the sequence of positions from the first position of
//!   the game history (a prefix the caller may give) to the node being
//!   searched. A child whose [`Problem::history_key`](crate::problem::Problem::history_key) is on the line is a
//!   *repetition*: it is not searched, and the problem's rule
//!   ([`Repetition`], §1.2) decides who won.
//! * The **path signature** hashes the line, position by position and
//!   depth by depth (§3.2: a Zobrist-like code in which the order counts).
//!   We hash the positions rather than the moves, so no game needs a move
//!   numbering; a position and its depth stand for the move that led there.
//! * A solved result is **path-dependent** when its proof (or disproof)
//!   tree has a repetition leaf or a path-dependent child. Such a result
//!   goes into a *twin* entry with the path signature (§3.1, DUP), and the
//!   base entry keeps unsolved numbers. With NOCYCLE (§3.4) a
//!   path-independent result goes into the base entry and is reused from
//!   any path; without it every result is a twin.
//! * Reached by a new path, a node's twins are checked by **simulation**
//!   (§3.3, after Kawano): the twin's proof is replayed along the new line,
//!   borrowing the winning moves stored in the table, with every repetition
//!   judged on the new line. A proof that survives is stored as a twin for
//!   the new path too.
//!
//! Dependence is judged on the proof tree, not on what the search met: a
//! proven OR node depends on the path only if its proving child does (the
//! search prefers a path-independent one), an AND node if any child does;
//! disproofs are the dual. A proof tree with no repetition leaf and no
//! dependent child is valid from any path, or else a position of the new
//! path appears in it and that ancestor is itself proven by the subtree
//! (the argument of the paper's Theorems 3.1-3.2), so the root's answer is
//! right either way.

use crate::game::Repetition;
use crate::problem::Status;
use crate::rng::splitmix64;
use crate::stats::Stats;
use crate::tt::{Hit, Table};

/// Which GHI treatment a df-pn search uses (the GHI paper's Table 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum GhiMode {
    /// IGNORE-GHI: repetitions on the line are judged by the rule, but
    /// every result is stored as if it held from any path. Fast, and
    /// sometimes wrong (kept for the comparison).
    Ignore,
    /// DUP: every (dis)proof is a twin entry, reused only on the same path.
    Dup,
    /// DUP + SIM: twins are checked for a new path by simulation.
    Sim,
    /// DUP + SIM + NOCYCLE: results that do not depend on the path go into
    /// the base entry and are reused directly (the default).
    #[default]
    NoCycle,
}

impl GhiMode {
    pub fn name(self) -> &'static str {
        match self {
            GhiMode::Ignore => "ignore",
            GhiMode::Dup => "dup",
            GhiMode::Sim => "sim",
            GhiMode::NoCycle => "nocycle",
        }
    }

    pub fn from_name(s: &str) -> Option<GhiMode> {
        Some(match s {
            "ignore" => GhiMode::Ignore,
            "dup" => GhiMode::Dup,
            "sim" => GhiMode::Sim,
            "nocycle" => GhiMode::NoCycle,
            _ => return None,
        })
    }

    /// Whether a solved result with dependence `dep` goes into a twin entry.
    #[inline]
    pub(crate) fn twin(self, dep: bool) -> bool {
        match self {
            GhiMode::Ignore => false,
            GhiMode::Dup | GhiMode::Sim => true,
            GhiMode::NoCycle => dep,
        }
    }
}

/// The value of a repeated position for the attacker under `rule`, when
/// the player to move there is the attacker (`is_or`) or not.
#[inline]
pub fn repetition_status(rule: Repetition, is_or: bool) -> Status {
    match rule {
        // The attacker fails, whoever repeated.
        Repetition::FirstPlayerLoss | Repetition::Impossible => Status::Disproven,
        // The question's other side fails.
        Repetition::SecondPlayerLoss => Status::Proven,
        // The player who moved into the repetition loses: the player to
        // move at it wins.
        Repetition::CurrentPlayerLoss => {
            if is_or {
                Status::Proven
            } else {
                Status::Disproven
            }
        }
    }
}

/// The path signature of a line extended by `hk` at index `index`.
#[inline]
pub fn extend_signature(sig: u64, hk: u64, index: usize) -> u64 {
    sig ^ splitmix64(hk ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// The line a search keeps. [`NoLine`] (games without repetitions) makes
/// every method a no-op that the compiler removes; [`PathLine`] tracks
/// positions and signatures.
pub(crate) trait Line {
    const ACTIVE: bool;
    fn contains(&self, hk: u64) -> bool;
    fn push(&mut self, hk: u64);
    fn pop(&mut self);
    /// Signature of the line as it is.
    fn sig(&self) -> u64;
    /// Signature of the line extended by `hk`.
    fn child_sig(&self, hk: u64) -> u64;
    fn rule(&self) -> Repetition;
    fn mode(&self) -> GhiMode;
    /// XORed into every table key of the search: searches below different
    /// histories keep apart (see [`PathLine::new`]).
    fn salt(&self) -> u64;
}

/// No line: positions never repeat.
pub(crate) struct NoLine;

impl Line for NoLine {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn contains(&self, _hk: u64) -> bool {
        false
    }
    #[inline(always)]
    fn push(&mut self, _hk: u64) {}
    #[inline(always)]
    fn pop(&mut self) {}
    #[inline(always)]
    fn sig(&self) -> u64 {
        0
    }
    #[inline(always)]
    fn child_sig(&self, _hk: u64) -> u64 {
        0
    }
    #[inline(always)]
    fn rule(&self) -> Repetition {
        Repetition::Impossible
    }
    #[inline(always)]
    fn mode(&self) -> GhiMode {
        GhiMode::Ignore
    }
    #[inline(always)]
    fn salt(&self) -> u64 {
        0
    }
}

/// Counters of the line's filter ([`PathLine::contains`]): 2^14 of them.
const FILTER_BITS: u32 = 14;

/// The filter slot of a position key (its top bits).
#[inline(always)]
fn filter_slot(hk: u64) -> usize {
    (hk >> (64 - FILTER_BITS)) as usize
}

/// The positions of the line and the signature at each of them.
pub(crate) struct PathLine {
    rule: Repetition,
    mode: GhiMode,
    salt: u64,
    keys: Vec<u64>,
    sigs: Vec<u64>,
    /// How many keys of the line fall in each slot: a key whose slot
    /// counts none is not on the line, so most children are told apart
    /// without a scan. (Lines are long: Microcosmos' run 600 plies deep
    /// on average, and every child of every node asks.)
    filter: Box<[u16]>,
}

impl PathLine {
    /// A line holding the history `prefix` (oldest first).
    ///
    /// A search with a history keeps its table entries in a key space of
    /// that history. The argument that makes NOCYCLE sound holds within one
    /// search: a result stored as path-independent may still be wrong on a
    /// line through a position of its own proof tree, but then that
    /// position, an ancestor, is proven by the tree too, so the answer at
    /// the root stands. Under another history that ancestor may lie before
    /// the root, and the answer would not stand. (A certificate's
    /// sub-searches run below such histories.)
    pub fn new(rule: Repetition, mode: GhiMode, prefix: &[u64]) -> Self {
        let mut l = PathLine {
            rule,
            mode,
            salt: 0,
            keys: Vec::with_capacity(prefix.len() + 256),
            sigs: Vec::with_capacity(prefix.len() + 256),
            filter: vec![0; 1 << FILTER_BITS].into_boxed_slice(),
        };
        for &k in prefix {
            l.push(k);
        }
        l.salt = history_salt(prefix);
        debug_assert!(prefix.is_empty() || l.salt == splitmix64(l.sig() ^ HISTORY_SALT));
        l
    }
}

/// Mixed with a history's signature into its key space's salt.
const HISTORY_SALT: u64 = 0x4849_5354_4f52_5921;

/// The salt of the key space of a search below the history `prefix`
/// ([`PathLine::new`]; 0 for none): the signature the line has once the
/// prefix is pushed, mixed.
pub(crate) fn history_salt(prefix: &[u64]) -> u64 {
    if prefix.is_empty() {
        return 0;
    }
    let sig = prefix
        .iter()
        .enumerate()
        .fold(0, |sig, (i, &hk)| extend_signature(sig, hk, i));
    splitmix64(sig ^ HISTORY_SALT)
}

impl Line for PathLine {
    const ACTIVE: bool = true;
    #[inline]
    fn contains(&self, hk: u64) -> bool {
        // The filter first; else a scan, the most recent positions (the
        // likeliest repeats) first.
        self.filter[filter_slot(hk)] != 0 && self.keys.iter().rev().any(|&k| k == hk)
    }
    #[inline]
    fn push(&mut self, hk: u64) {
        let s = self.child_sig(hk);
        self.keys.push(hk);
        self.sigs.push(s);
        let c = &mut self.filter[filter_slot(hk)];
        *c = c.wrapping_add(1);
    }
    #[inline]
    fn pop(&mut self) {
        if let Some(hk) = self.keys.pop() {
            let c = &mut self.filter[filter_slot(hk)];
            *c = c.wrapping_sub(1);
        }
        self.sigs.pop();
    }
    #[inline]
    fn sig(&self) -> u64 {
        self.sigs.last().copied().unwrap_or(0)
    }
    #[inline]
    fn child_sig(&self, hk: u64) -> u64 {
        extend_signature(self.sig(), hk, self.keys.len())
    }
    fn rule(&self) -> Repetition {
        self.rule
    }
    fn mode(&self) -> GhiMode {
        self.mode
    }
    fn salt(&self) -> u64 {
        self.salt
    }
}

/// Twin entries per position: a solved result for up to this many paths
/// (the paper finds that "more than one tree simulation happens only
/// rarely").
pub const TWIN_SLOTS: usize = 4;

/// A twin entry: the path it holds for, its result and its best move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Twin {
    pub sig: u64,
    pub status: Status,
    pub best: u16,
}

/// Entry flag of a twin entry.
pub const FLAG_TWIN: u8 = 2;
/// Entry flag of a base entry whose position has twins.
pub const FLAG_HAS_TWINS: u8 = 4;

#[inline]
fn twin_key(key: u64, slot: usize) -> u64 {
    key ^ splitmix64(0x7717_0000 + slot as u64)
}

/// A twin entry as stored: the signature in the pn word, the status in the
/// dn word (1 proven, 2 disproven).
#[inline]
fn decode(h: Hit) -> Option<Twin> {
    if h.flags & FLAG_TWIN == 0 {
        return None;
    }
    let status = match h.dn {
        1 => Status::Proven,
        2 => Status::Disproven,
        _ => return None,
    };
    Some(Twin {
        sig: h.pn,
        status,
        best: h.best,
    })
}

/// The twins the table holds for the position with base key `key`.
pub fn twins(tt: &Table, stats: &mut Stats, key: u64) -> ([Option<Twin>; TWIN_SLOTS], usize) {
    let mut out = [None; TWIN_SLOTS];
    let mut n = 0;
    for (slot, o) in out.iter_mut().enumerate() {
        stats.tt_probes += 1;
        if let Some(t) = tt.probe(twin_key(key, slot)).and_then(decode) {
            stats.tt_hits += 1;
            *o = Some(t);
            n += 1;
        }
    }
    (out, n)
}

/// Stores a twin for path `sig`: in the slot already holding that path,
/// else a free one, else the slot the signature picks.
pub fn store_twin(tt: &Table, stats: &mut Stats, key: u64, t: Twin, amount: u32) {
    let (have, _) = twins(tt, stats, key);
    let slot = have
        .iter()
        .position(|o| o.is_some_and(|x| x.sig == t.sig))
        .or_else(|| have.iter().position(Option::is_none))
        .unwrap_or((t.sig % TWIN_SLOTS as u64) as usize);
    let code = if t.status == Status::Proven { 1 } else { 2 };
    let s = tt.store(twin_key(key, slot), t.sig, code, amount, FLAG_TWIN, t.best);
    super::expand::count_store(stats, s);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_depend_on_order_and_depth() {
        let a = extend_signature(extend_signature(0, 1, 0), 2, 1);
        let b = extend_signature(extend_signature(0, 2, 0), 1, 1);
        assert_ne!(a, b);
        let mut l = PathLine::new(Repetition::CurrentPlayerLoss, GhiMode::NoCycle, &[1]);
        l.push(2);
        assert_eq!(l.sig(), a);
        assert!(l.contains(1) && l.contains(2) && !l.contains(3));
        l.pop();
        assert_eq!(l.sig(), extend_signature(0, 1, 0));
    }

    /// The line's filter answers exactly as a scan of the line would, with
    /// keys that share a filter slot, repeated keys, and keys popped again.
    #[test]
    fn the_filter_agrees_with_a_scan() {
        let mut l = PathLine::new(Repetition::CurrentPlayerLoss, GhiMode::NoCycle, &[]);
        let mut rng = crate::rng::Rng::new(7);
        // Keys from few slots (top bits), so slots are shared often.
        let key = |rng: &mut crate::rng::Rng| ((rng.next_u64() % 4) << 62) | (rng.next_u64() % 64);
        let mut model: Vec<u64> = Vec::new();
        for step in 0..20_000 {
            if model.is_empty() || !rng.next_u64().is_multiple_of(3) {
                let k = key(&mut rng);
                l.push(k);
                model.push(k);
            } else {
                l.pop();
                model.pop();
            }
            let q = key(&mut rng);
            assert_eq!(l.contains(q), model.contains(&q), "step {step}, key {q:#x}");
            for &k in model.iter().rev().take(3) {
                assert!(l.contains(k));
            }
        }
        // Everything popped: nothing is on the line, whatever the slots say.
        while let Some(k) = model.pop() {
            l.pop();
            assert_eq!(l.contains(k), model.contains(&k));
        }
        assert!(l.filter.iter().all(|&c| c == 0));
    }

    #[test]
    fn twins_round_trip_and_share_slots_by_path() {
        let tt = Table::with_mb(1);
        let st = &mut Stats::default();
        let key = 99;
        for (i, sig) in [10u64, 11, 12, 13, 14].into_iter().enumerate() {
            let status = if i % 2 == 0 {
                Status::Proven
            } else {
                Status::Disproven
            };
            store_twin(
                &tt,
                st,
                key,
                Twin {
                    sig,
                    status,
                    best: i as u16,
                },
                5,
            );
        }
        let (t, n) = twins(&tt, st, key);
        assert_eq!(n, TWIN_SLOTS);
        // The fifth path replaced the slot its signature picks (14 % 4 = 2).
        assert_eq!(t[2].unwrap().sig, 14);
        assert_eq!(t[0].unwrap().status, Status::Proven);
        assert_eq!(t[1].unwrap().status, Status::Disproven);
        // The same path again overwrites its own slot.
        store_twin(
            &tt,
            st,
            key,
            Twin {
                sig: 11,
                status: Status::Proven,
                best: 7,
            },
            5,
        );
        let (t, _) = twins(&tt, st, key);
        assert_eq!(
            t[1].unwrap(),
            Twin {
                sig: 11,
                status: Status::Proven,
                best: 7
            }
        );
        assert_eq!(twins(&tt, st, key ^ 1).1, 0);
    }

    #[test]
    fn the_rule_decides_a_repetition() {
        use Status::*;
        assert_eq!(
            repetition_status(Repetition::FirstPlayerLoss, true),
            Disproven
        );
        assert_eq!(
            repetition_status(Repetition::FirstPlayerLoss, false),
            Disproven
        );
        assert_eq!(
            repetition_status(Repetition::CurrentPlayerLoss, true),
            Proven
        );
        assert_eq!(
            repetition_status(Repetition::CurrentPlayerLoss, false),
            Disproven
        );
    }
}
