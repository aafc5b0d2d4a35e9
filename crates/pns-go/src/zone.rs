//! Relevance zones for capturing problems: df-pn where the side that plays
//! every legal point (the *complete* side, [`Capture::with_complete`]) is
//! searched only where it can matter.
//!
//! A sound `attack`/`defend` answer needs one side to play every legal
//! point (a capture is proven against every defender move, an escape
//! against every attacker move), and on 19x19 that is some 250 moves at
//! each of that side's nodes. Most of them are far from the fight. The
//! relevance-zone idea (Thomsen's λ-search threats, 2000; the zones that
//! travel up a proof in Wu and Lin's Connect6 search, IEEE TCIAIG 2010;
//! the null-move zones of this toolkit's Connect6 crate) removes them
//! soundly: let X be the complete side and Y the other, at a node where X
//! is to move.
//!
//! 1. X may pass. The position after X's pass is searched first (a nested
//!    search on the same table and in the same key space, so its entries
//!    are the outer search's pass child). If Y wins it, the proof P₀ is
//!    read back from the table and its *zone* Z₀ computed: every point
//!    whose content any rule applied in P₀ reads (the moves, the blocks
//!    next to them and their liberties, the target and its liberties).
//! 2. An X move that changes no point of Z₀ (its point outside Z₀, and no
//!    stone of Z₀ captured) is refuted by P₀ itself: Y plays P₀'s moves,
//!    and every rule gives the same answer as after the pass. Such moves
//!    are not generated. The moves kept are X's legal points in Z₀, the
//!    captures of Y blocks that meet Z₀, and the pass.
//!
//! # Why it is sound
//!
//! * *Reads.* A move's legality, captures and ko point depend only on the
//!   point, its neighbours, the blocks next to it in atari there with
//!   their liberties, and one other liberty of each other block next to
//!   it ([`move_reads`]); the outcome only on the target block and
//!   its liberties, and where the target lives by Benson's rule
//!   ([`crate::benson`]) on the blocks and regions of that life. (Along a
//!   capture proof that rule never applies: the defender's passes are
//!   among the moves the proof answers, and a target it keeps alive could
//!   not be captured after them.) Under GNU Go's snapback rule
//!   ([`Capture::with_snapback`]), whether the capture of a one-stone
//!   target in atari is a proper snapback reads the capturing stones and
//!   their neighbours, where two of them touch the target's point
//!   (`target_reads`). Where one does, only an attacker stone joining
//!   another block to them could make it two, turning a capture into a
//!   failure: the defender's stones off a capture proof's zone join no
//!   attacker block, and an escape proof leaves the attacker no capture
//!   that works. The zone of a node is the union of these over every
//!   node of its proof, so a position that agrees with it on the zone has
//!   the same legal moves *in the zone*, the same captures and the same
//!   outcomes along the proof's lines.
//! * *X's nodes inside P₀.* Their kept moves are decided from the zone of
//!   their own pass child, plus the liberties of the Y blocks that meet it
//!   (so a capture of such a block is kept alike); these reads go into the
//!   node's zone too, and every kept move's child is walked. A moved-out
//!   X stone (one outside the zone) is never adjacent to a block the
//!   proof reads, so Y never captures it and it stays for the whole line.
//! * *Repetition.* A repetition is a loss for the attacker. The lines
//!   after an X move q outside Z₀ are P₀'s lines with q's stone added: the
//!   same repetitions among themselves. They could repeat a position
//!   before the node only if that position held a stone of X on q, and q
//!   is empty now, so it would have been captured on the way. Hence a
//!   point where stones were captured on the path from the search's root
//!   ([`ZNode::vacated`], part of the node's key) is always kept. (A
//!   search below a line of positions before its root must count the
//!   points emptied since them too: λ-df-pn's
//!   `LambdaProblem::on_line`. This search takes no line.)
//!
//! # Two passes
//!
//! Two passes in a row end the problem, the attacker failing
//! ([`Capture::ended`]; the first pass counts only where its player had
//! no ko ban). Before that rule the same end was a repetition, whose value
//! depends on the line and which no walk reads, so a target that lives in
//! seki, or whose fight ends with the defender passing, never had a zone
//! in an escape proof: every attacker move was searched, and tempo moves
//! far away multiplied the search. Now the end is a terminal, and its
//! zone is what the outcome reads. But it *loops*: where the pass
//! position at X's node `n` is won by Y's pass at once (or X's pass
//! itself ends the problem), Y answers any X move off the zone by passing
//! too, which brings the play back to `n` with one more X stone. The
//! argument above (P₀'s lines never come back) does not hold, and the
//! zone of the pass position alone is not enough: an X move off it might
//! prepare one of X's kept moves. So at such a node the kept moves are
//! closed under their own disproofs (`close_kept`): each kept move's
//! child is settled (a nested search where the table does not hold it)
//! and its zone read; any legal X move that meets the union, or what the
//! legality of the moves on it reads ([`move_reads`]: a suicide there
//! becomes a capture once X fills the witness liberty of a block next to
//! it, and Y's pass gives X the move), is kept too, until no zone grows.
//! Then a left-out move q changes no point that the whole disproof of
//! `n` reads, and Y's strategy is: at a node of the disproof, answer a
//! kept move as the disproof does, and a move off the node's zone by
//! passing. Each move off a zone adds an X
//! stone or removes a Y stone off every zone the line will read (Y never
//! plays there, and X never captures its own), so there are finitely many
//! of them; between them the play follows the disproof with those stones
//! added, and ends in its outcomes or in a repetition, which the attacker
//! loses. A walk checks the same closure on what the table holds, and
//! gives up where a kept move is not disproven there. Without the closure
//! (tried) the GNU Go cases had 15 wrong answers; the tests
//! `zone_search_agrees_with_the_tree_method_on_small_boards`,
//! `zoned_ko_results_agree_with_the_tree_method` and λ-df-pn's
//! `attacker_zones_cut_only_losing_moves` fail without it.
//!
//! Where the nested search does not prove the pass position within its
//! budget, or the proof cannot be read back whole (an entry replaced, the
//! walk's steps spent), every move is generated: the zone can only make
//! the search smaller, never its answer different. The tests compare the
//! answers with the exact tree method on small boards and with plain df-pn
//! on GNU Go's tactical cases.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use pns_core::dfpn::{self, Plain};
use pns_core::numbers::Pn;
use pns_core::prelude::*;
use pns_core::{Limits, Outcome, Problem, Repetition, SearchResult, Stats, Status, Table};

use crate::bits::Bits;
use crate::board::{Board, Color, Move};
use crate::capture::{Capture, Effort};

/// Keeps this search's entries apart from plain df-pn's on one table.
const ZONE_SALT: u64 = 0x7a6f_6e65_5a4f_4e45;
/// Hashed with the set of vacated points into the key.
const VACATED_SALT: u64 = 0x7661_6361_7465_6421;
/// The most memoised zones before the memo is cleared.
const MEMO_MAX: usize = 1 << 17;
/// The walk's depth limit (a proof deeper than this is not read back).
const WALK_DEPTH: usize = 400;
/// Node steps of one walk.
const WALK_STEPS: u64 = 200_000;

/// The parameters of the zone search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZoneParams {
    /// Visits of each nested search of a pass position.
    pub nested_visits: u64,
    /// Nested searches inside nested searches, at most this deep.
    pub max_nesting: u8,
    /// The complete side's moves are zoned only where it has more than
    /// this many (with fewer, the nested search costs more than it saves).
    pub min_moves: usize,
    /// The nested searches' visits in all, as a multiple of the outer
    /// search's visit limit.
    pub budget_factor: u64,
    /// The ladder rule of λ-df-pn ([`crate::lambda`]): a defender whose
    /// target is in atari plays only the moves that can lift it.
    pub ladder: bool,
}

impl Default for ZoneParams {
    fn default() -> Self {
        ZoneParams {
            nested_visits: 1_000,
            max_nesting: 3,
            min_moves: 6,
            budget_factor: 4,
            ladder: true,
        }
    }
}

impl ZoneParams {
    /// `nested=N,depth=D,min=M,budget=F,ladder=on|off`, each optional,
    /// over `self`.
    pub fn parse(mut self, s: &str) -> Result<Self, String> {
        for kv in s.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| format!("'{kv}' is not name=value"))?;
            let num = || {
                v.parse::<u64>()
                    .map_err(|_| format!("{k}: '{v}' is not a number"))
            };
            match k {
                "nested" => self.nested_visits = num()?,
                "depth" => self.max_nesting = num()?.min(16) as u8,
                "min" => self.min_moves = num()?.min(1000) as usize,
                "budget" => self.budget_factor = num()?.min(1000),
                "ladder" => {
                    self.ladder = match v {
                        "on" | "true" | "1" => true,
                        "off" | "false" | "0" => false,
                        _ => return Err(format!("ladder: '{v}' is not on or off")),
                    }
                }
                _ => {
                    return Err(format!(
                        "unknown option '{k}' (nested, depth, min, budget, ladder)"
                    ))
                }
            }
        }
        Ok(self)
    }

    /// The form `parse` reads.
    pub fn describe(&self) -> String {
        format!(
            "nested={},depth={},min={},budget={},ladder={}",
            self.nested_visits,
            self.max_nesting,
            self.min_moves,
            self.budget_factor,
            if self.ladder { "on" } else { "off" }
        )
    }
}

/// How often the zones cut, summed over a search and its nested ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ZoneCounts {
    /// Nested searches of pass positions run.
    pub nested: u64,
    /// Of those, the ones that proved the pass position for the other side.
    pub nested_proven: u64,
    /// Complete-side nodes generated with a zone.
    pub zoned: u64,
    /// Moves those nodes kept, and moves they left out.
    pub kept: u64,
    pub pruned: u64,
    /// Zones read back from the table (walks that succeeded).
    pub walks: u64,
}

/// A node: the capture position and the points where stones were captured
/// on the path from the search's root (see the module's documentation,
/// "Repetition").
#[derive(Clone, Copy)]
pub struct ZNode {
    pub g: Capture,
    pub vacated: Bits,
    key: u64,
}

impl ZNode {
    fn new(g: Capture, vacated: Bits) -> ZNode {
        let mut n = ZNode { g, vacated, key: 0 };
        n.key = n.compute_key();
        n
    }

    #[inline]
    fn key(&self) -> u64 {
        self.key
    }

    fn compute_key(&self) -> u64 {
        self.g.key() ^ ZONE_SALT ^ vacated_key(&self.vacated)
    }

    fn child(&self, m: Move) -> ZNode {
        let mut g = self.g;
        let captured = g.play_capturing(m);
        ZNode::new(g, self.vacated | captured)
    }
}

/// The key of a set of vacated points (0 for none), XORed into a node's.
pub(crate) fn vacated_key(v: &Bits) -> u64 {
    let mut k = 0;
    if !v.is_empty() {
        for (i, w) in v.0.iter().enumerate() {
            k ^= pns_core::rng::splitmix64(VACATED_SALT ^ w.rotate_left(i as u32 * 11) ^ i as u64);
        }
    }
    k
}

/// What the search and its nested searches share.
struct Shared {
    memo: RefCell<HashMap<u64, (Bits, bool)>>,
    /// Nested visits left.
    budget: Cell<u64>,
    walk_left: Cell<u64>,
    counts: RefCell<ZoneCounts>,
    /// Pass positions whose nested search ended unknown (not run again:
    /// a node is generated on every visit).
    tried: RefCell<HashSet<u64>>,
    /// Ends the search and every nested one once set (a time limit, the
    /// other half of a question answered, Ctrl-C).
    stop: Option<Arc<AtomicBool>>,
}

/// "The attacker captures the target" with the complete side zoned.
pub struct ZoneProblem<'t> {
    stack: Vec<ZNode>,
    tt: &'t Table,
    params: ZoneParams,
    nesting: u8,
    shared: Rc<Shared>,
    nested: RefCell<Stats>,
}

/// The points whose content decides what playing on `p` does (legality,
/// captures, the ko point), whoever plays it: `p` and its neighbours; a
/// block next to it whose only liberty is `p`, with its liberties and
/// their neighbours; and of every other block next to it one liberty
/// besides `p`, a *witness*.
///
/// Why a witness is enough: such a block is not captured by the move, and
/// the mover's own blocks give the stone a liberty (no suicide), as long
/// as the witness stays empty and next to the block. Off the zone, another
/// stone of the complete side cannot fill it, and cannot take the block
/// off the board: a block of the other side would need its last liberty,
/// and the complete side never captures its own. So the block keeps the
/// witness, whatever else it joins. A block in atari on `p` is read
/// whole, as before: its extent is what the move removes, and a stone or
/// a capture next to it would give it a liberty (the captures of blocks
/// that meet a zone are kept, `kept_moves`). Reading every liberty of
/// every block next to a move (earlier) put the outside liberties of the
/// attacker blocks around a target into every escape proof's zone.
pub fn move_reads(b: &Board, p: usize) -> Bits {
    let mask = b.mask();
    let mut z = Bits::single(p).dilate(mask);
    let near = b.neighbours(p) & !b.empty();
    let at = Bits::single(p);
    let mut left = near;
    while let Some(q) = left.first() {
        let blk = b.block(q);
        left = left.minus(&blk);
        let libs = b.liberties(&blk).minus(&at);
        if libs.is_empty() {
            z |= blk.dilate(mask);
        } else {
            let known = libs & z;
            z.set(known.first().or(libs.first()).expect("a liberty"));
        }
    }
    z
}

/// What the outcome and the atari shortcut read: the target point, its
/// block and the block's liberties, with one liberty what playing there
/// reads (and under the snapback rule, where the capture there could be a
/// proper snapback, the capturing stones and their neighbours), and where
/// the target lives unconditionally below the threshold, the blocks and
/// regions that life rests on ([`Capture::alive_area`]).
pub(crate) fn target_reads(g: &Capture) -> Bits {
    let b = g.board();
    let mut z = g.target_block().dilate(b.mask());
    z.set(g.target());
    let libs = g.target_libs();
    if libs.count() == 1 {
        z |= move_reads(b, libs.first().expect("one liberty"));
        // Whether the capture there is a proper snapback: the capturing
        // stones' liberties and who touches them (another stone next to
        // them gives them one, or fills one).
        if let Some(s) = g.snap_shape().filter(|s| s.twice) {
            z |= s.stones.dilate(b.mask());
        }
    }
    if libs.count() >= 2 && libs.count() < g.threshold() && g.escaped() {
        if let Some(a) = g.alive_area() {
            z |= a.dilate(b.mask());
        }
    }
    z
}

/// The moves of the player to move at `g` on the points of `lift`, and
/// the pass (the ladder rule's moves).
pub(crate) fn lifted_moves(g: &Capture, lift: &Bits) -> Vec<Move> {
    let mut ms = Vec::new();
    g.search_moves_within(lift, &mut ms);
    ms
}

/// With the defender to move and the target in atari: the points where a
/// defender move can lift the atari (see [`crate::lambda`]'s ladder rule),
/// and what deciding that reads (the target, its liberty, the attacker
/// blocks next to it and their liberties). Under the snapback rule
/// ([`Capture::with_snapback`]) a one-stone target's capture may fail: the
/// capturing stones' last other liberty is then a lift too, and where they
/// have none already, nothing is cut (`None`).
pub(crate) fn atari_lifts(g: &Capture) -> Option<(Bits, Bits)> {
    let b = g.board();
    let mask = b.mask();
    let blk = g.target_block();
    let libs = g.target_libs();
    if libs.count() != 1 {
        return None;
    }
    if g.ko_exempt() == Some(g.defender()) && blk.count() == 1 {
        // An exempt defender may take a ko capture of its one stone back,
        // and many of its moves can turn the capture at the liberty into
        // one (a stone next to it, a liberty for another block taken with
        // the target): no cut. (Keeping only the moves next to the liberty
        // was tried and proved wrong captures in the ko test.)
        return None;
    }
    let mut lift = libs;
    let mut reads = blk.dilate(mask);
    if let Some(s) = g.snap_shape().filter(|s| s.twice) {
        // GNU Go's snapback rule: with no other liberty for the capturing
        // stones the capture fails, and no move of the defender's loses
        // to it; with one, the defender's stone there makes it fail.
        match s.others.count() {
            0 => return None,
            1 => lift |= s.others,
            _ => {}
        }
        reads |= s.stones.dilate(mask);
    }
    for a in b.adjacent_blocks(&blk) {
        reads |= a.dilate(mask);
        let al = b.liberties(&a);
        if al.count() == 1 {
            lift |= al;
        }
    }
    Some((lift, reads))
}

/// The complete side's moves at `g` (stones captured on the path at
/// `vacated`) that a proof with zone `z0` of the pass position does not
/// answer, the pass among them, and what choosing them read.
pub(crate) fn kept_moves(g: &Capture, vacated: &Bits, z0: &Bits) -> (Vec<Move>, Bits) {
    let b = g.board();
    let mask = b.mask();
    let y = b.to_move().opponent();
    let mut pts = *z0 | *vacated;
    let mut reads = Bits::EMPTY;
    for q in (pts & b.empty()).iter() {
        reads |= move_reads(b, q);
    }
    // Captures of Y blocks that meet the zone change it.
    let mut left = *z0 & b.stones(y);
    while let Some(s) = left.first() {
        let blk = b.block(s);
        left = left.minus(&blk);
        reads |= blk.dilate(mask);
        let libs = b.liberties(&blk);
        if libs.count() == 1 {
            pts |= libs;
        }
    }
    let mut all = Vec::new();
    g.search_moves_within(&pts, &mut all);
    (all, reads)
}

/// X's kept moves at a node whose pass position loops (two passes, the
/// module's "Two passes"), and the zone that keeps them: the least zone
/// holding `z0`, what choosing the kept moves reads (the legality of the
/// moves on it, legal or not, [`kept_moves`]) and the zone of each kept
/// move's child (`zone_of`, `None` where that child is not Y's or its zone
/// cannot be read), with the kept moves every legal move that meets it.
/// The reads count: an X move off the zone of the pass position alone can
/// make an X move on it legal (a stone on the witness liberty of a block
/// next to it, [`move_reads`], puts that block in atari, and the move
/// there, a suicide before, captures it), and Y's answer to it is a pass
/// that brings the play back.
pub(crate) fn close_kept(
    g: &Capture,
    vacated: &Bits,
    z0: Bits,
    mut zone_of: impl FnMut(Move) -> Option<Bits>,
) -> Option<(Vec<Move>, Bits)> {
    let b = g.board();
    let mut z = z0;
    let mut done = vec![Move::Pass];
    loop {
        let (kept, reads) = kept_moves(g, vacated, &z);
        let mut grown = z | reads;
        for &m in &kept {
            if done.contains(&m) {
                continue;
            }
            grown |= zone_of(m)?;
            if let Move::Play(p) = m {
                grown |= move_reads(b, p as usize);
            }
            done.push(m);
        }
        if grown == z {
            return Some((kept, z));
        }
        z = grown;
    }
}

impl<'t> ZoneProblem<'t> {
    /// The question from `g` (either side to move) on `tt`; nested searches
    /// may spend `budget` visits in all.
    pub fn new(g: Capture, params: ZoneParams, tt: &'t Table, budget: u64) -> Self {
        Self::stopping(g, params, tt, budget, None)
    }

    /// [`ZoneProblem::new`], its searches ended once `stop` is set.
    fn stopping(
        g: Capture,
        params: ZoneParams,
        tt: &'t Table,
        budget: u64,
        stop: Option<Arc<AtomicBool>>,
    ) -> Self {
        ZoneProblem {
            stack: vec![ZNode::new(g, Bits::EMPTY)],
            tt,
            params,
            nesting: 0,
            shared: Rc::new(Shared {
                memo: RefCell::new(HashMap::new()),
                budget: Cell::new(budget),
                walk_left: Cell::new(WALK_STEPS),
                counts: RefCell::new(ZoneCounts::default()),
                tried: RefCell::new(HashSet::new()),
                stop,
            }),
            nested: RefCell::new(Stats::default()),
        }
    }

    #[inline]
    fn cur(&self) -> &ZNode {
        self.stack.last().expect("the root")
    }

    /// The capture position at the current node.
    pub fn position(&self) -> &Capture {
        &self.cur().g
    }

    pub fn counts(&self) -> ZoneCounts {
        *self.shared.counts.borrow()
    }

    /// The complete side, when the question has one.
    fn complete(&self) -> Option<Color> {
        self.cur().g.complete()
    }

    /// The status that means "the other side (Y) wins".
    fn y_status(g: &Capture) -> Option<Status> {
        let x = g.complete()?;
        Some(if x == g.defender() {
            Status::Proven
        } else {
            Status::Disproven
        })
    }

    fn rule_status(g: &Capture) -> Status {
        match g.known_outcome() {
            Some(o) => {
                let attacker_to_move = g.board().to_move() == g.attacker();
                if (o == Outcome::Win) == attacker_to_move {
                    Status::Proven
                } else {
                    Status::Disproven
                }
            }
            None => Status::Unknown,
        }
    }

    /// The node's value by the rules or the table's entry.
    fn status(&self, n: &ZNode) -> Status {
        let s = Self::rule_status(&n.g);
        if s != Status::Unknown {
            return s;
        }
        match self.tt.probe(n.key()) {
            Some(h) if h.pn == 0 => Status::Proven,
            Some(h) if h.dn == 0 => Status::Disproven,
            _ => Status::Unknown,
        }
    }

    /// Whether Y wins at `c` by the table or the rules, running a nested
    /// search there first when neither says (not where it ran before and
    /// ended unknown, nor on the path, nor past the nesting limit or the
    /// budget).
    fn settle(&self, c: &ZNode) -> bool {
        let Some(y_status) = Self::y_status(&c.g) else {
            return false;
        };
        let mut st = self.status(c);
        if st == Status::Unknown {
            let key = c.key();
            let on_path = self.stack.iter().any(|s| s.key() == key);
            let left = self.shared.budget.get();
            if on_path
                || self.nesting >= self.params.max_nesting
                || left == 0
                || self.shared.tried.borrow().contains(&key)
            {
                return false;
            }
            let visits = self.params.nested_visits.min(left);
            let mut sub = ZoneProblem {
                stack: vec![*c],
                tt: self.tt,
                params: self.params,
                nesting: self.nesting + 1,
                shared: self.shared.clone(),
                nested: RefCell::new(Stats::default()),
            };
            let r = run(&mut sub, visits);
            self.shared
                .budget
                .set(left.saturating_sub(r.stats.visits.max(1)));
            self.nested.borrow_mut().note_nested(&r.stats);
            let mut counts = self.shared.counts.borrow_mut();
            counts.nested += 1;
            if r.status == y_status {
                counts.nested_proven += 1;
            }
            st = r.status;
            if st == Status::Unknown {
                let mut tried = self.shared.tried.borrow_mut();
                if tried.len() >= MEMO_MAX {
                    tried.clear();
                }
                tried.insert(key);
            }
        }
        st == y_status
    }

    /// The moves X keeps at its node `n` and the zone that keeps them:
    /// from the zone `z0` of the pass position's proof, and where that
    /// proof is Y's pass at once (two passes: `looping`), closed under
    /// the proofs of the kept moves and what their legality reads
    /// ([`close_kept`]; the module's documentation, "Two passes"). `walk`: `None` in the search, which runs nested
    /// searches for kept moves the table does not hold; in a walk its
    /// depth, the walk's own steps and depth bounding the reads.
    fn kept_closed(
        &self,
        n: &ZNode,
        z0: Bits,
        looping: bool,
        walk: Option<usize>,
    ) -> Option<(Vec<Move>, Bits)> {
        if !looping {
            let (kept, reads) = kept_moves(&n.g, &n.vacated, &z0);
            return Some((kept, z0 | reads));
        }
        let y_status = Self::y_status(&n.g)?;
        close_kept(&n.g, &n.vacated, z0, |m| {
            let c = n.child(m);
            let won = match walk {
                None => self.settle(&c),
                Some(_) => self.status(&c) == y_status,
            };
            if !won {
                return None;
            }
            let depth = match walk {
                None => {
                    self.shared.walk_left.set(WALK_STEPS);
                    0
                }
                Some(d) => d + 1,
            };
            self.zone(&c, depth)
        })
    }

    /// The zone of the pass position's proof at X's node `n`, running a
    /// nested search there first when the table does not hold it, and
    /// whether that proof is Y's pass at once (the two passes end the
    /// problem, [`Capture::ended`]).
    fn pass_zone(&self, n: &ZNode) -> Option<(Bits, bool)> {
        let c = n.child(Move::Pass);
        if !self.settle(&c) {
            return None;
        }
        self.shared.walk_left.set(WALK_STEPS);
        // X's pass that ends the problem at once loops as well: Y answers
        // any other X move by passing.
        self.zone_looping(&c, 0).map(|(z, l)| (z, l || c.g.ended()))
    }

    /// The zone of the proof of `n` for Y (the side that is not complete),
    /// read back from the table; `None` when it cannot be read whole.
    fn zone(&self, n: &ZNode, depth: usize) -> Option<Bits> {
        self.zone_looping(n, depth).map(|(z, _)| z)
    }

    /// [`Self::zone`], and at Y's node whether the proof read is Y's pass
    /// ending the problem at once (two passes).
    fn zone_looping(&self, n: &ZNode, depth: usize) -> Option<(Bits, bool)> {
        let left = self.shared.walk_left.get();
        if depth > WALK_DEPTH || left == 0 {
            return None;
        }
        self.shared.walk_left.set(left - 1);
        let key = n.key();
        if let Some(z) = self.shared.memo.borrow().get(&key) {
            return Some(*z);
        }
        let z = self.walk(n, depth)?;
        let mut memo = self.shared.memo.borrow_mut();
        if memo.len() >= MEMO_MAX {
            memo.clear();
        }
        memo.insert(key, z);
        self.shared.counts.borrow_mut().walks += 1;
        Some(z)
    }

    fn walk(&self, n: &ZNode, depth: usize) -> Option<(Bits, bool)> {
        let g = &n.g;
        let y_status = Self::y_status(g)?;
        let x = g.complete()?;
        let b = g.board();
        let mut z = target_reads(g);
        match Self::rule_status(g) {
            s if s == y_status => return Some((z, false)),
            Status::Unknown => {}
            _ => return None,
        }
        if b.to_move() != x {
            // Y's node: one proven move.
            let mut ms = Vec::new();
            g.search_moves(&mut ms);
            for m in ms {
                let c = n.child(m);
                if self.status(&c) != y_status {
                    continue;
                }
                if let Some(cz) = self.zone(&c, depth + 1) {
                    z |= cz;
                    if let Move::Play(p) = m {
                        z |= move_reads(b, p as usize);
                    }
                    return Some((z, m == Move::Pass && c.g.ended()));
                }
            }
            return None;
        }
        // X's node: the moves the search keeps there, each proven.
        let kept = match self.ladder_lifts(g) {
            Some((lift, reads)) => {
                z |= reads;
                lifted_moves(g, &lift)
            }
            None => {
                let c = n.child(Move::Pass);
                if self.status(&c) != y_status {
                    return None;
                }
                let (z0, looping) = self.zone_looping(&c, depth + 1)?;
                let looping = looping || c.g.ended();
                let (ms, zk) = self.kept_closed(n, z0, looping, Some(depth))?;
                z |= zk;
                ms
            }
        };
        for m in kept {
            let c = n.child(m);
            if self.status(&c) != y_status {
                return None;
            }
            z |= self.zone(&c, depth + 1)?;
            if let Move::Play(p) = m {
                z |= move_reads(b, p as usize);
            }
        }
        Some((z, false))
    }

    /// The ladder rule's lifts where it applies (the defender complete and
    /// to move, the target in atari).
    fn ladder_lifts(&self, g: &Capture) -> Option<(Bits, Bits)> {
        if !self.params.ladder || g.board().to_move() != g.defender() {
            return None;
        }
        atari_lifts(g)
    }
}

impl Problem for ZoneProblem<'_> {
    type Move = Move;

    #[inline]
    fn is_or(&self) -> bool {
        let g = &self.cur().g;
        g.board().to_move() == g.attacker()
    }

    fn evaluate(&self) -> Status {
        Self::rule_status(&self.cur().g)
    }

    fn generate(&self, out: &mut Vec<Move>) {
        let n = *self.cur();
        let g = &n.g;
        let start = out.len();
        if let Some((lift, _)) = self.ladder_lifts(g) {
            // Every other defender move leaves the target to be captured
            // at once.
            out.extend(lifted_moves(g, &lift));
            return;
        }
        g.search_moves(out);
        if self.complete() != Some(g.board().to_move())
            || out.len() - start <= self.params.min_moves
        {
            return;
        }
        let Some((z0, looping)) = self.pass_zone(&n) else {
            return;
        };
        let Some((kept, _)) = self.kept_closed(&n, z0, looping, None) else {
            return;
        };
        let before = out.len() - start;
        out.truncate(start);
        // The pass first: its child is proven already.
        out.push(Move::Pass);
        out.extend(kept.into_iter().filter(|m| *m != Move::Pass));
        let mut c = self.shared.counts.borrow_mut();
        c.zoned += 1;
        c.kept += (out.len() - start) as u64;
        c.pruned += (before - (out.len() - start)) as u64;
    }

    fn play(&mut self, m: Move) {
        let c = self.cur().child(m);
        self.stack.push(c);
    }

    fn undo(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    #[inline]
    fn key(&self) -> u64 {
        self.cur().key()
    }

    /// The distance initialisation of plain df-pn ([`Capture`]'s heuristic).
    fn heuristic(&self) -> (Pn, Pn) {
        self.cur().g.distance()
    }

    fn repetition(&self) -> Repetition {
        Repetition::FirstPlayerLoss
    }

    /// The position alone: the vacated points are not part of it.
    #[inline]
    fn history_key(&self) -> u64 {
        self.cur().g.history_key()
    }

    fn nested_stats(&mut self) -> Option<Stats> {
        Some(std::mem::take(self.nested.get_mut()))
    }
}

fn run(p: &mut ZoneProblem<'_>, visits: u64) -> SearchResult {
    let limits = Limits {
        visits: Some(visits),
        stop: p.shared.stop.clone(),
        ..Default::default()
    };
    // NOCYCLE (the engine's default): path-independent results go into
    // the base entries, which the zone walk reads. (Under DUP every
    // result is a twin and no proof could be read back.)
    dfpn::search_with(p, Plain::default(), p.tt, &limits, &Default::default())
}

/// The zone search on "the attacker captures" from `g` (either side to
/// move), at most `visits` visits of its own and `budget_factor` times as
/// many in its nested searches, on `tt`; its zone counters.
pub fn search(
    g: &Capture,
    params: &ZoneParams,
    visits: u64,
    tt: &Table,
) -> (SearchResult, ZoneCounts) {
    search_until(g, params, visits, tt, None)
}

/// [`search`], ended early (unknown) once `stop` is set, its nested
/// searches too.
pub fn search_until(
    g: &Capture,
    params: &ZoneParams,
    visits: u64,
    tt: &Table,
    stop: Option<&Arc<AtomicBool>>,
) -> (SearchResult, ZoneCounts) {
    let budget = visits.saturating_mul(params.budget_factor);
    let mut p = ZoneProblem::stopping(*g, *params, tt, budget, stop.cloned());
    let r = run(&mut p, visits);
    let counts = p.counts();
    (r, counts)
}

/// [`search_until`]'s status, its effort (nested searches included) added
/// to `effort`.
pub fn attack_status(
    g: &Capture,
    params: &ZoneParams,
    visits: u64,
    tt: &Table,
    effort: &mut Effort,
    stop: Option<&Arc<AtomicBool>>,
) -> Status {
    let (r, _) = search_until(g, params, visits, tt, stop);
    effort.count(&r.stats, r.status)
}

/// After a proof from `g` (the attacker to move) on `tt`: a first move
/// that captures, read from the table, else searched again move by move
/// (`capture::read_back`: 1/20 of the limit, then all of it).
pub fn proven_move(
    g: &Capture,
    params: &ZoneParams,
    visits: u64,
    tt: &Table,
    stop: Option<&Arc<AtomicBool>>,
) -> Option<Move> {
    let root = ZNode::new(*g, Bits::EMPTY);
    let mut ms = Vec::new();
    g.search_moves(&mut ms);
    ms.retain(|m| *m != Move::Pass);
    let p = ZoneProblem::new(*g, *params, tt, 0);
    for &m in &ms {
        if p.status(&root.child(m)) == Status::Proven {
            return Some(m);
        }
    }
    crate::capture::read_back(g, &ms, visits, Status::Proven, |c, budget| {
        search_until(c, params, budget, tt, stop).0.status
    })
}
