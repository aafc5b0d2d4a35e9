//! The analysis behind the search hooks: one [`Verdict`] per position,
//! from threats, virtual connections ([`super::hsearch`]) and inferior
//! cells, cached per thread.
//!
//! With M the side to move and O the opponent:
//!
//! 1. M has a winning cell: a win; the winning cells are the moves.
//! 2. O has two or more winning cells: a loss (one stone blocks one).
//!    O has exactly one: it is M's only move.
//! 3. H-search for M finds an SC or a VC between M's edges: a win (M plays
//!    the key; see [`super::hsearch`] for why the connection is real).
//! 4. H-search for O. Every O connection between O's edges (a VC, or an SC
//!    whose key O would play next) is a win for O unless M's move lands in
//!    its carrier, so M's moves worth searching are the intersection of all
//!    their carriers: Benzene's *must-play region* (Henderson, Arneson,
//!    Hayward, "Solving 8x8 Hex", IJCAI 2009). If O has a VC, M has lost:
//!    a known loss. If only the region is empty, M has lost too, but
//!    that is not reported as known (see below).
//! 5. Dead cells are dropped from the moves: a stone there changes
//!    nothing, so the move is a pass, and in Hex any other move is at least
//!    as good as a pass (an extra stone never hurts). (Hayward, Björnsson,
//!    Johanson, Kan, Po, van Rijswijck, "Solving 7x7 Hex: virtual
//!    connections and game-state reduction", ACG 2003.) So are vulnerable
//!    cells, each dominated by its killer ([`inferior::drop_vulnerable`]).
//!
//! # Losses and certificates
//!
//! A position lost by the opponent's VC (rule 4) is a known loss: a
//! certificate ends it with the VC as a claim, as it ends a win by the
//! mover's connection. Reporting it halved the nodes searched on the 6x6
//! and 7x7 openings: before, such a position was only given the numbers
//! of a near-certain loss and the search refuted each move of the
//! must-play region, one H-search analysis apiece. A position whose
//! region is empty but whose opponent has no VC still gets those numbers
//! (`(LOST, n)`, see `heuristic` on [`super::Hex`]): its loss rests on
//! several SCs together, which no single claim writes out.
//!
//! A win declared by H-search is far from a finished game: playing it out
//! against every defence made certificates exponential (5x5 `c3`: 3.3M
//! nodes). So certificates do not trust this analysis but end such lines
//! with a connection *claim* that the rules check link by link (modules
//! `claim` and `claim_build`: H-search's derivation written out), after
//! conceding the cells that cannot matter ([`Hex::concessions_for`]) and
//! filling the prover's captured pairs ([`Hex::fill_for`]): 5x5 `c3` is
//! then a one-node certificate, and no 6x6 opening needs more than 10k
//! nodes.
//!
//! # Cache
//!
//! The engine asks `known_outcome` and `heuristic` for every child at every
//! visit of a node, and `search_moves` at the node, so the same position is
//! analysed many times. One direct-mapped table of verdicts serves all
//! threads, keyed by the Zobrist key and checked against the full
//! position, so a hit is exact and the analysis stays a pure function of
//! the position (search results do not depend on what was solved before).
//! A generated child gets a *partial* verdict, without rule 3
//! ([`Hex::child_verdict`]), kept under a key of its own: most children
//! are never expanded, and rule 3's H-search is half the work.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::OnceLock;

use pns_core::zeroed::ZeroedBlock;
use pns_core::{Outcome, Side};

#[cfg(test)]
use super::geometry::bits;
use super::geometry::Bits;
use super::hsearch::{fits, EdgeConns, HSearch, Params};
use super::inferior::{self, FillIn};
use super::position::{Hex, BLACK};

/// The analysis of one position (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Verdict {
    /// The exact result for the side to move, when known.
    pub known: Option<Outcome>,
    /// The moves worth searching (never empty while the game is on).
    pub moves: Bits,
    /// The side to move provably loses (`known` is `Some(Loss)` too unless
    /// the loss rests on an empty must-play region alone; see the module
    /// documentation).
    pub lost: bool,
    /// The side to move provably wins (then `known` is `Some(Win)`).
    pub won: bool,
}

/// H-search limits for the side to move (looking for a win: stop at the
/// first connection between its edges). Carriers up to 49 cells: every
/// carrier on 7x7 and smaller boards (a cap of 24 or 30 searched more
/// nodes on the 7x7 openings; the work budget bounds larger boards).
const MINE: Params = Params {
    max_carrier: 49,
    max_or: 4,
    stop_on_semi: true,
    stop_on_full: true,
    max_work: 4000,
    record: false,
};

/// H-search limits for the opponent (all its connections: they give the
/// must-play region).
const THEIRS: Params = Params {
    max_carrier: 49,
    max_or: 4,
    stop_on_semi: false,
    stop_on_full: false,
    max_work: 4000,
    record: false,
};

/// H-search limits for a side that is not to move and needs a VC between
/// its edges ([`Hex::concessions_for`]).
const FULL: Params = Params {
    max_carrier: 49,
    max_or: 4,
    stop_on_semi: false,
    stop_on_full: true,
    max_work: 4000,
    record: false,
};

/// Verdicts cached (log2 of the slots): 2^20 slots of 64 bytes, 64 MiB,
/// allocated once for the process and touched only as used. A 7x7
/// opening evaluates about 200,000 positions a minute; 2^18 slots made
/// the 36-second `7 b4` 11 % slower (verdicts evicted and computed again).
const CACHE_BITS: u32 = 20;

/// One slot of the verdict cache: eight words (key, black, white, moves,
/// meta), the first stored XORed with the other seven. Every thread reads
/// and writes the one cache without locks (lockless hashing, as in the
/// transposition table, [`pns_core::Table`]): a slot torn by two writers
/// fails the check and reads as a miss. One cache for all threads, not
/// one per thread, because the agents of a parallel search (and the
/// searches of one `bench` worker after another) meet the same positions:
/// a cold per-thread cache made each new agent recompute what the others
/// had, about 1.5 times the CPU per visit on Hex 6x6.
#[repr(C, align(64))]
struct Slot([AtomicU64; 8]);

static CACHE: OnceLock<ZeroedBlock<Slot>> = OnceLock::new();

/// The verdict cache, zero-filled lazily by the system (an all-zero slot is
/// empty: its meta word's `known` is 0), made once and kept for the
/// process.
fn cache() -> &'static [Slot] {
    CACHE
        .get_or_init(|| {
            // SAFETY: all-zero bytes are valid atomics.
            unsafe { ZeroedBlock::new(1 << CACHE_BITS) }
                .unwrap_or_else(|e| panic!("the Hex verdict cache: {e:?}"))
        })
        .as_slice()
}

/// XORed into a position's key for its partial verdict's slot
/// ([`Hex::child_verdict`]).
const PARTIAL_SALT: u64 = 0x9e37_79b9_7f4a_7c15;

/// The meta word: shape (bits 0-15), known (16-23: 0 empty, 1 unknown,
/// 2 win, 3 loss), lost (24), won (25), Black to move (26). (Whether a
/// verdict is partial is in the key its slot checks: [`PARTIAL_SALT`].)
fn meta_word(shape: u16, known: u8, lost: bool, won: bool, black: bool) -> u64 {
    shape as u64
        | (known as u64) << 16
        | (lost as u64) << 24
        | (won as u64) << 25
        | (black as u64) << 26
}

fn split(b: Bits) -> [u64; 2] {
    [b as u64, (b >> 64) as u64]
}

fn join(lo: u64, hi: u64) -> Bits {
    lo as Bits | (hi as Bits) << 64
}

thread_local! {
    static HS: RefCell<HSearch> = RefCell::new(HSearch::default());
    /// For boards of at most 62 cells (7x7 and smaller).
    static HS64: RefCell<HSearch<u64>> = RefCell::new(HSearch::default());
}

impl Hex {
    #[inline]
    fn shape_code(&self) -> u16 {
        (self.geom.width as u16) << 8 | self.geom.height as u16
    }

    /// The verdict of this position (see the module documentation).
    pub(crate) fn verdict(&self) -> Verdict {
        if let Some(v) = self.quick_verdict() {
            return v;
        }
        self.cached_verdict(true)
    }

    /// The verdict of a position the search has generated but not yet
    /// expanded (its known outcome and its heuristic): rules 4 and 5 only
    /// (the opponent's connections), without the mover's own H-search
    /// (rule 3). Its `known` is a loss or nothing (a win only when the
    /// filled stones already join the mover's edges); its moves are the
    /// must-play region. It has a cache slot of its own, apart from the
    /// full verdict's. Most generated positions are never expanded (on
    /// `7 b4`, 14,165 expanded of some 85,000 analysed), and a position
    /// the mover has won by a connection is then found one ply later,
    /// when the search expands it: its moves are the winning connection's,
    /// and the reply that loses to it is a known loss. This took 19-23 %
    /// off the 7x7 search times.
    pub(crate) fn child_verdict(&self) -> Verdict {
        if let Some(v) = self.quick_verdict() {
            return v;
        }
        self.cached_verdict(false)
    }

    /// The verdict without the cache (for tests of the cache).
    #[cfg(test)]
    fn uncached_verdict(&self) -> Verdict {
        self.quick_verdict()
            .unwrap_or_else(|| self.compute_verdict(true, false))
    }

    /// The verdict when the game is over or a side has a winning cell
    /// (rules 1 and 2): cheap, so never cached.
    fn quick_verdict(&self) -> Option<Verdict> {
        if self.winner.is_some() {
            return Some(Verdict {
                known: pns_core::Rules::outcome(self),
                moves: 0,
                lost: false,
                won: false,
            });
        }
        let me = self.to_move();
        let wins = self.winning_cells(me);
        if wins != 0 {
            return Some(Verdict {
                known: Some(Outcome::Win),
                moves: wins,
                lost: false,
                won: true,
            });
        }
        let threats = self.winning_cells(me.opponent());
        match threats.count_ones() {
            0 => None,
            1 => Some(Verdict {
                known: None,
                moves: threats,
                lost: false,
                won: false,
            }),
            _ => Some(Verdict {
                known: Some(Outcome::Loss),
                moves: self.empty_cells(),
                lost: true,
                won: false,
            }),
        }
    }

    /// The verdict from the shared cache, computed and stored on a miss.
    fn cached_verdict(&self, full: bool) -> Verdict {
        let me = self.to_move();
        // Full and partial verdicts live under different keys, so that
        // each is a function of the position alone.
        let ck = if full {
            self.key
        } else {
            self.key ^ PARTIAL_SALT
        };
        let slot = &cache()[(ck >> (64 - CACHE_BITS)) as usize];
        let black_to_move = me == BLACK;
        let shape = self.shape_code();
        let w: [u64; 8] = std::array::from_fn(|i| slot.0[i].load(Relaxed));
        let key = w.iter().fold(0, |x, y| x ^ y);
        let m = w[7];
        let known = (m >> 16) as u8;
        if known != 0
            && key == ck
            && join(w[1], w[2]) == self.black
            && join(w[3], w[4]) == self.white
            && m as u16 == shape
            && (m >> 26) & 1 == black_to_move as u64
        {
            return Verdict {
                known: match known {
                    2 => Some(Outcome::Win),
                    3 => Some(Outcome::Loss),
                    _ => None,
                },
                moves: join(w[5], w[6]),
                lost: (m >> 24) & 1 != 0,
                won: (m >> 25) & 1 != 0,
            };
        }
        let v = self.compute_verdict(full, true);
        let known = match v.known {
            None => 1,
            Some(Outcome::Win) => 2,
            Some(_) => 3,
        };
        let [b0, b1] = split(self.black);
        let [w0, w1] = split(self.white);
        let [m0, m1] = split(v.moves);
        let rest = [
            b0,
            b1,
            w0,
            w1,
            m0,
            m1,
            meta_word(shape, known, v.lost, v.won, black_to_move),
        ];
        for (i, &x) in rest.iter().enumerate() {
            slot.0[i + 1].store(x, Relaxed);
        }
        slot.0[0].store(rest.iter().fold(ck, |x, y| x ^ y), Relaxed);
        v
    }

    /// The filled position seen by `side` (see [`super::inferior`]): its
    /// stones with the cells it captured and the dead cells, and the
    /// opponent's stones with the cells the opponent captured.
    fn filled_for(&self, side: Side, f: &FillIn) -> (Bits, Bits) {
        let (mine, theirs) = if side == BLACK {
            (self.black | f.black, self.white | f.white)
        } else {
            (self.white | f.white, self.black | f.black)
        };
        (mine | f.dead, theirs)
    }

    /// H-search for `side` with stones `own` against `opp`; `None` when
    /// `own` already joins the side's edges.
    fn connections_with(&self, side: Side, own: Bits, opp: Bits, p: Params) -> Option<EdgeConns> {
        if p.record || !fits::<u64>(self.geom.board.count_ones()) {
            return self.hsearch(side, own, opp, p, |_, conns| *conns);
        }
        // The same search on one-word point sets: the same connections,
        // found faster.
        let edges = self.open_edges(side, own)?;
        Some(HS64.with(|h| h.borrow_mut().run(self.geom, own, opp, edges, p)))
    }

    /// `side`'s two edges, unless its stones `own` already join them.
    fn open_edges(&self, side: Side, own: Bits) -> Option<(Bits, Bits)> {
        let edges = self.geom.edges(side == BLACK);
        (!self.geom.joins(own, edges)).then_some(edges)
    }

    /// Runs this thread's H-search for `side` with stones `own` against
    /// `opp` and returns `then` of the search and its edge connections;
    /// `None` when `own` already joins the side's edges.
    fn hsearch<T>(
        &self,
        side: Side,
        own: Bits,
        opp: Bits,
        p: Params,
        then: impl FnOnce(&HSearch, &EdgeConns) -> T,
    ) -> Option<T> {
        let edges = self.open_edges(side, own)?;
        Some(HS.with(|h| {
            let mut h = h.borrow_mut();
            let conns = h.run(self.geom, own, opp, edges, p);
            then(&h, &conns)
        }))
    }

    /// The limits for a connection of `side`'s that wins from here: an SC
    /// or a VC when `side` is to move, else a VC.
    fn winning_params(&self, side: Side) -> Params {
        if side == self.to_move() {
            MINE
        } else {
            FULL
        }
    }

    /// H-search for `side` with stones `own` against `opp` that records
    /// how it found each connection ([`Params::record`]), stopping at a
    /// connection between the edges that wins from here; `then` reads the
    /// record. `None` when `own` already joins the side's edges.
    pub(crate) fn recorded_hsearch<T>(
        &self,
        side: Side,
        own: Bits,
        opp: Bits,
        then: impl FnOnce(&HSearch, &EdgeConns) -> T,
    ) -> Option<T> {
        let p = Params {
            record: true,
            ..self.winning_params(side)
        };
        self.hsearch(side, own, opp, p, then)
    }

    /// Rules 3 to 5 of the module documentation (1 and 2 are done), on the
    /// filled position.
    /// `full`: with rule 3 (else the partial verdict,
    /// [`Hex::child_verdict`]); `reuse`: after rule 3, take rules 4 and 5
    /// from the partial verdict's cache slot (computed there if missing),
    /// which is exactly what they would give here.
    fn compute_verdict(&self, full: bool, reuse: bool) -> Verdict {
        let me = self.to_move();
        let g = self.geom;
        let f = inferior::fill_in(g, self.black, self.white);
        let (own, opp) = self.filled_for(me, &f);
        let won = |moves: Bits| Verdict {
            known: Some(Outcome::Win),
            moves: if moves == 0 {
                self.empty_cells()
            } else {
                moves
            },
            lost: false,
            won: true,
        };
        // Without rule 3 (a partial verdict), still the cheap part of it:
        // the filled stones may already join the mover's edges.
        match if full {
            self.connections_with(me, own, opp, MINE)
        } else if g.joins(own, g.edges(me == BLACK)) {
            None
        } else {
            Some(EdgeConns::default())
        } {
            None => return won(own & self.empty_cells()),
            Some(c) if c.any() => {
                let mut moves = 0;
                for j in 0..c.nsc {
                    moves |= 1 << c.key[j];
                }
                for j in 0..c.nvc {
                    moves |= c.vc[j];
                }
                return won(moves & self.empty_cells());
            }
            Some(_) => {}
        }
        if full && reuse {
            return self.cached_verdict(false);
        }
        let empty = self.empty_cells() & !f.all();
        let (own, opp) = self.filled_for(me.opponent(), &f);
        let (must, lost, proven) = match self.connections_with(me.opponent(), own, opp, THEIRS) {
            None => (0, true, true),
            Some(t) => {
                let must = t.must_play(empty);
                (must, t.nvc > 0 || must == 0, t.nvc > 0)
            }
        };
        let moves = if must != 0 {
            // Dead cells count as White, as in `inferior::fill_in`.
            let (b, w) = (self.black | f.black, self.white | f.white | f.dead);
            inferior::drop_vulnerable(g, b, w, me == BLACK, empty, must)
        } else if empty != 0 {
            self.first_in_order(empty)
        } else {
            self.first_in_order(self.empty_cells())
        };
        Verdict {
            known: proven.then_some(Outcome::Loss),
            moves,
            lost,
            won: false,
        }
    }

    /// The empty cells `prover` can concede here (see
    /// [`pns_core::Shortcuts::concessions`]): the opponent's captured cells and
    /// the dead cells (filling them with the opponent's stones keeps the
    /// value: the fill-in argument, see [`super::inferior`]), and, when
    /// H-search finds `prover` a connection between its edges that wins
    /// from here (a VC, or an SC when `prover` is to move), every empty
    /// cell outside the smallest such carrier and outside the fill-in. The
    /// opponent's stones there cannot break the connection, whose defence
    /// stays inside its carrier (see [`super::hsearch`]); the prover's
    /// captured cells are kept because the analysis counted them as
    /// stones.
    pub(crate) fn concessions_for(&self, prover: Side) -> Bits {
        if self.winner.is_some() {
            return 0;
        }
        let f = inferior::fill_in(self.geom, self.black, self.white);
        let theirs = if prover == BLACK { f.white } else { f.black };
        let filled = theirs | f.dead;
        let (own, opp) = self.filled_for(prover, &f);
        let to_move = prover == self.to_move();
        let keep = match self.connections_with(prover, own, opp, self.winning_params(prover)) {
            // The filled position is joined already: keep the fill-in.
            None => return filled,
            Some(c) => {
                let semis = if to_move { &c.sc[..c.nsc] } else { &[] };
                match c.vc[..c.nvc]
                    .iter()
                    .chain(semis)
                    .min_by_key(|b| b.count_ones())
                {
                    Some(&carrier) => carrier,
                    None => return filled,
                }
            }
        };
        filled | (self.empty_cells() & !(keep | f.all()))
    }

    /// The cells of `cand` in the order a winning side should try them,
    /// the most forcing and shortest first (this orders the winning moves
    /// when a best move is asked for). First a winning
    /// cell; then moves leaving two winning cells; then the moves after
    /// which the analysis sees the opponent lost, those leaving one winning
    /// cell (a forced reply) first, then by the connection distance left
    /// (after the forced reply), then by the number of replies worth
    /// searching; then the rest in the move order.
    pub(crate) fn winning_order(&self, cand: Bits, out: &mut Vec<u8>) {
        let me = self.to_move();
        let own = self.stones(me);
        let opp = self.stones(me.opponent());
        let mut scored: Vec<((u32, u32, u32), u8)> = Vec::new();
        let mut rest = Vec::new();
        let wins = self.winning_cells(me);
        for &i in self.order_slice() {
            if cand >> i & 1 == 0 {
                continue;
            }
            if wins >> i & 1 != 0 {
                scored.push(((0, 0, 0), i));
                continue;
            }
            let mut c = *self;
            c.place(super::position::Cell(i));
            let threats = c.winning_cells(me);
            if threats.count_ones() >= 2 {
                scored.push(((1, 0, 0), i));
                continue;
            }
            let v = c.child_verdict();
            let lost = v.known == Some(Outcome::Loss) || (v.known.is_none() && v.lost);
            if !lost {
                rest.push(i);
                continue;
            }
            let score = if threats != 0 {
                (
                    2,
                    self.distance_with(me, own | 1 << i, opp | threats),
                    v.moves.count_ones(),
                )
            } else {
                (3, c.distance(me), v.moves.count_ones())
            };
            scored.push((score, i));
        }
        scored.sort_by_key(|&(s, _)| s);
        out.extend(scored.iter().map(|&(_, i)| i));
        out.extend(rest);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use pns_core::prelude::*;
    use pns_core::Rng;

    use super::*;

    /// Whether the side to move wins, by the rules alone.
    fn wins(g: &Hex, memo: &mut HashMap<Hex, bool>) -> bool {
        if let Some(o) = g.outcome() {
            return o == Outcome::Win;
        }
        if let Some(&w) = memo.get(g) {
            return w;
        }
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let w = moves.iter().any(|&m| {
            let mut c = *g;
            c.play(m);
            !wins(&c, memo)
        });
        memo.insert(*g, w);
        w
    }

    /// Calls `f` on `count` random positions of each of the 4x4, 5x5 and
    /// 6x6 boards (3, 12 and 23 stones plus up to `spread` − 1 more),
    /// with a brute-force memo per board size.
    fn random_positions(
        seed: u64,
        count: usize,
        spread: u64,
        mut f: impl FnMut(&Hex, &mut HashMap<Hex, bool>),
    ) {
        let mut rng = Rng::new(seed);
        for (n, stones) in [(4usize, 3u64), (5, 12), (6, 23)] {
            let mut memo = HashMap::new();
            for _ in 0..count {
                let g = Hex::new(n)
                    .unwrap()
                    .random_walk(stones + rng.below(spread), &mut rng);
                f(&g, &mut memo);
            }
        }
    }

    /// A position's full and partial verdicts differ where the mover has
    /// a connection (rule 3, which the partial one skips), and the cache
    /// keeps them apart: each reads back as computed, whichever came
    /// first, so the analysis stays a function of the position.
    #[test]
    fn partial_and_full_verdicts_are_kept_apart() {
        // After Black a1 on 4x4, White holds a connection (Benzene: White
        // wins).
        let g: Hex = pns_core::Notation::parse_position("4 a1").unwrap();
        assert!(g.quick_verdict().is_none());
        let (v, pv) = (
            g.compute_verdict(true, false),
            g.compute_verdict(false, false),
        );
        assert_eq!(v.known, Some(Outcome::Win));
        assert_eq!(pv.known, None);
        assert_ne!(v, pv);
        for _ in 0..2 {
            assert_eq!(g.child_verdict(), pv);
            assert_eq!(g.verdict(), v);
        }
    }

    /// The verdict cache is shared by all threads without locks: a slot
    /// whose words do not check (as when two threads write it at once)
    /// reads as a miss, and the verdict is computed again.
    #[test]
    fn a_torn_verdict_slot_reads_as_a_miss() {
        let mut g = Hex::new(6).unwrap();
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        g.play(moves[7]);
        g.legal_moves(&mut moves);
        g.play(moves[20]);
        assert!(g.quick_verdict().is_none(), "a position the cache holds");
        let v = g.verdict();
        assert_eq!(v, g.uncached_verdict());
        let slot = &cache()[(g.key >> (64 - CACHE_BITS)) as usize];
        // Another writer's word among this one's: a moves word that, if
        // believed, would add a cell.
        slot.0[5].fetch_xor(1 << 40, Relaxed);
        assert_eq!(g.verdict(), v);

        // Threads computing and reading verdicts of the same positions at
        // once all get the computed verdicts.
        std::thread::scope(|scope| {
            for t in 0..4 {
                scope.spawn(move || {
                    let mut rng = Rng::new(99 + t);
                    let mut buf = Vec::new();
                    for _ in 0..300 {
                        let mut p = Hex::new(5).unwrap();
                        for _ in 0..rng.below(8) {
                            buf.clear();
                            p.legal_moves(&mut buf);
                            if p.outcome().is_some() || buf.is_empty() {
                                break;
                            }
                            p.play(buf[rng.below(buf.len() as u64) as usize]);
                        }
                        if p.outcome().is_none() {
                            assert_eq!(p.verdict(), p.uncached_verdict(), "{p}");
                        }
                    }
                });
            }
        });
    }

    /// The OR rule's cut (`hsearch`: a branch whose intersection meets
    /// that of all the SCs left) drops no connection: H-search finds the
    /// same connections between the edges with it and without it, for both
    /// sides of random positions, with and without stopping early.
    #[test]
    fn the_or_rule_cut_is_exact() {
        use super::super::hsearch::NO_OR_CUT;
        let mut rng = Rng::new(2718);
        let (mut compared, mut found) = (0, 0);
        for (n, stones) in [(5usize, 4u64), (6, 6), (7, 8), (7, 14)] {
            for _ in 0..40 {
                let g = Hex::new(n)
                    .unwrap()
                    .random_walk(stones + rng.below(4), &mut rng);
                for side in [BLACK, BLACK.opponent()] {
                    for p in [MINE, THEIRS] {
                        let (own, opp) = (g.stones(side), g.stones(side.opponent()));
                        let run = |off: bool| {
                            NO_OR_CUT.with(|c| c.set(off));
                            let r = g.connections_with(side, own, opp, p);
                            NO_OR_CUT.with(|c| c.set(false));
                            r.map(|c| {
                                (
                                    c.vc[..c.nvc].to_vec(),
                                    c.sc[..c.nsc].to_vec(),
                                    c.key[..c.nsc].to_vec(),
                                )
                            })
                        };
                        let with_cut = run(false);
                        assert_eq!(with_cut, run(true), "{g} {side:?} {p:?}");
                        compared += 1;
                        found +=
                            with_cut.is_some_and(|(v, s, _)| !v.is_empty() || !s.is_empty()) as u32;
                    }
                }
            }
        }
        assert!(compared > 500 && found > 100, "{compared} {found}");
    }

    /// H-search on one-word point sets (`HSearch<u64>`, which
    /// `connections_with` uses up to 7x7) finds exactly the connections,
    /// keys and must-play region of the two-word search, for both sides of
    /// random positions, with each set of limits.
    #[test]
    fn one_word_and_two_word_h_search_agree() {
        let mut rng = Rng::new(1618);
        let (mut compared, mut found) = (0, 0);
        for (n, stones) in [(3usize, 1u64), (5, 4), (6, 6), (7, 0), (7, 8), (7, 14)] {
            for _ in 0..40 {
                let g = Hex::new(n)
                    .unwrap()
                    .random_walk(stones + rng.below(4), &mut rng);
                for side in [BLACK, BLACK.opponent()] {
                    for p in [MINE, THEIRS, FULL] {
                        let (own, opp) = (g.stones(side), g.stones(side.opponent()));
                        let view = |c: EdgeConns| {
                            (
                                c.vc[..c.nvc].to_vec(),
                                c.sc[..c.nsc].to_vec(),
                                c.key[..c.nsc].to_vec(),
                                c.outside,
                            )
                        };
                        let one = g.connections_with(side, own, opp, p).map(view);
                        let two = g.hsearch(side, own, opp, p, |_, c| view(*c));
                        assert_eq!(one, two, "{g} {side:?} {p:?}");
                        compared += 1;
                        found +=
                            one.is_some_and(|(v, s, _, _)| !v.is_empty() || !s.is_empty()) as u32;
                    }
                }
            }
        }
        assert!(compared > 1000 && found > 200, "{compared} {found}");
    }

    /// Dropping vulnerable cells (`inferior::drop_vulnerable`) from all the
    /// empty cells of the filled position never drops every winning move:
    /// checked against brute force on random positions, where cells are
    /// dropped often.
    #[test]
    fn dropping_vulnerable_cells_keeps_a_winning_move() {
        let (mut positions, mut dropped, mut winning_dropped) = (0, 0, 0);
        random_positions(77, 200, 5, |g, memo| {
            if g.quick_verdict().is_some() {
                return;
            }
            let f = inferior::fill_in(g.geom, g.black, g.white);
            let empty = g.empty_cells() & !f.all();
            if empty == 0 {
                return;
            }
            let (b, w) = (g.black | f.black, g.white | f.white | f.dead);
            let kept = inferior::drop_vulnerable(g.geom, b, w, g.to_move() == BLACK, empty, empty);
            assert_ne!(kept, 0, "{g}");
            assert_eq!(kept & !empty, 0, "{g}");
            let mut wins_by = |i: usize| {
                let mut c = *g;
                c.place(super::super::position::Cell(i as u8));
                !wins(&c, memo)
            };
            let winning: Bits = bits(empty)
                .filter(|&i| wins_by(i))
                .fold(0, |m, i| m | 1 << i);
            if winning != 0 {
                assert_ne!(winning & kept, 0, "every winning move dropped at {g}");
            }
            positions += 1;
            dropped += (kept != empty) as u32;
            winning_dropped += (winning & !kept != 0) as u32;
        });
        // The rule must have had work to do, winning moves included.
        assert!(
            positions > 250 && dropped > 100 && winning_dropped > 10,
            "{positions} {dropped} {winning_dropped}"
        );
    }

    /// Every part of the verdict against brute force: `known` (a loss by
    /// the opponent's VC included) and `won` are never wrong, `lost` never claims a loss that is not one, and
    /// the moves keep a winning move whenever there is one.
    #[test]
    fn verdicts_are_exact_on_random_positions() {
        let (mut won, mut lost, mut pruned, mut vc_losses) = (0, 0, 0, 0);
        let mut partial_known = 0;
        random_positions(4242, 150, 4, |g, memo| {
            let v = g.verdict();
            let exact = wins(g, memo);
            if let Some(o) = v.known {
                assert_eq!(o == Outcome::Win, exact, "known at {g}");
            }
            assert!(!v.won || exact, "won at {g}");
            assert!(!v.lost || !exact, "lost at {g}");
            assert_ne!(v.moves, 0, "{g}");
            assert_eq!(v.moves & !g.empty_cells(), 0, "{g}");
            // The partial verdict of a generated child, uncached.
            let pv = g
                .quick_verdict()
                .unwrap_or_else(|| g.compute_verdict(false, false));
            if let Some(o) = pv.known {
                assert_eq!(o == Outcome::Win, exact, "partial known at {g}");
            }
            assert!(!pv.lost || !exact, "partial lost at {g}");
            assert_eq!(pv.moves & !g.empty_cells(), 0, "{g}");
            partial_known += pv.known.is_some() as u32;
            if exact {
                for moves in [v.moves, pv.moves] {
                    let keeps = bits(moves).any(|i| {
                        let mut c = *g;
                        c.place(super::super::position::Cell(i as u8));
                        !wins(&c, memo)
                    });
                    assert!(keeps, "every winning move cut at {g}");
                }
            }
            won += v.won as u32;
            lost += v.lost as u32;
            // Known losses by H-search (the opponent's VC), not by
            // two winning cells.
            vc_losses += (v.known == Some(Outcome::Loss) && g.quick_verdict().is_none()) as u32;
            pruned += (v.moves != g.empty_cells()) as u32;
        });
        // The analysis must have had something to say.
        assert!(
            won > 50 && lost > 50 && pruned > 100 && vc_losses > 30 && partial_known > 30,
            "{won} {lost} {pruned} {vc_losses} {partial_known}"
        );
    }
}
