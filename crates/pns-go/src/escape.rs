//! The escape rule: the escape side's mirror of λ-df-pn's ladder rule.
//!
//! The ladder rule ([`crate::lambda`]) cuts the *defender's* moves when the
//! attacker could capture at once. This rule cuts the *attacker's* moves
//! when the defender could escape at once, which is what an escape proof
//! (the attacker playing every point, about 250 moves a node on 19x19)
//! spends its visits on:
//!
//! * With the defender to move, a move `e` after which the target block has
//!   the escape threshold's liberties ([`Capture::threshold`]) ends the
//!   problem: [`escape_now`].
//! * With the attacker to move, suppose it passed and the defender then
//!   escaped with `e`. An attacker move `p` leaves that escape standing
//!   unless it is `e` itself, a liberty the target would have after `e`, or
//!   (when `e` captures attacker blocks, whose points then count as
//!   liberties) the capture of a defender block next to one of those
//!   blocks, which would give it liberties back. Where `e` leaves more
//!   liberties than the threshold, a liberty spoils it only by capturing
//!   a defender block `e` joins: a stone takes one liberty, and the one to
//!   spare keeps the escape. A block next to `e` has `e` as a liberty, and
//!   the target in atari with `e` elsewhere is next to what `e` captures,
//!   so the third kind above keeps its last liberty. Any other `p` is answered
//!   by `e`, with at least as many liberties as after the pass, so it loses
//!   for the attacker; [`spoilers`] returns the points that are left, the
//!   intersection over every such `e` (the pass goes too: `e` answers it).
//!   An empty set means the attacker has already lost.
//!
//! Why `p` cannot spoil `e` otherwise: a stone on `p` takes no liberty of
//! the enlarged block (it is not one), cannot join an attacker block that
//! `e` captures (that block's only liberty is `e`, and `p` next to it would
//! be another), and does not make `e` illegal (the block after `e` keeps
//! liberties, and a ko ban after `p` falls on a stone `p` captured, not on
//! the empty `e`). A capture by `p` of a defender block inside the enlarged
//! block would make `p` one of its liberties; a capture elsewhere only
//! vacates points, which can matter only through an attacker block `e`
//! was to capture, hence the third kind of spoiler. `e` is always a move
//! the defender may play: a liberty of the target or of an attacker block
//! in atari next to it, which every generator allows (and the ladder rule
//! keeps).
//!
//! Only the attacker's losing moves are cut, so no value changes; the
//! certificates list every move anyway (their extractor works on the
//! capture positions with all of a side's moves). Tests
//! (`tests/capture.rs`): `escape_rule_cuts_only_losing_attacker_moves`
//! plays every cut move on random small boards and finds, by the rules,
//! a defender move that escapes at once; and
//! `lambda_dfpn_agrees_with_the_tree_method_on_small_boards` runs λ-df-pn
//! with the rule (the default) and without it against the exact tree
//! method.

use crate::bits::Bits;
use crate::board::Move;
use crate::capture::Capture;
use crate::zone::move_reads;

/// The defender's moves that could escape at once: the target's liberties
/// and the liberties of attacker blocks in atari next to it.
fn escape_candidates(g: &Capture) -> Bits {
    let b = g.board();
    let mask = b.mask();
    let mut cand = g.target_libs();
    // A stone with two empty neighbours is in a block with two liberties:
    // only the blocks of the other attacker stones next to the target can
    // be in atari, and only those are flooded.
    let mut near = g.target_block().border(mask) & b.stones(g.attacker());
    near = near.minus(&b.empty().adjacent_twice(mask));
    while let Some(q) = near.first() {
        let a = b.block(q);
        near = near.minus(&a);
        let l = b.liberties(&a);
        if l.count() == 1 {
            cand |= l;
        }
    }
    cand
}

/// Calls `f(e, libs, captured)` for each defender move `e` at `g` (the
/// defender to move) after which the target has escaped, with the target's
/// liberties after `e` and the stones `e` captures; stops when `f` returns
/// false.
fn for_each_escape(g: &Capture, mut f: impl FnMut(usize, Bits, Bits) -> bool) {
    if g.captured() || g.pending_retake() || g.board().to_move() != g.defender() {
        return;
    }
    let b = g.board();
    let blk = g.target_block();
    let libs = g.target_libs();
    let own = b.stones(g.defender());
    let opp = b.stones(g.attacker());
    // The threshold of the position after `e`.
    let need = g.threshold_after(1);
    for e in escape_candidates(g).iter() {
        let nb = b.neighbours(e);
        let (after, captured) =
            if libs.get(e) && (nb & own).minus(&blk).is_empty() && !nb.intersects(&opp) {
                // The usual case, read off the board: a stone that joins only
                // the target and captures nothing adds its empty neighbours.
                let after = (libs | (nb & b.empty())).minus(&Bits::single(e));
                if after.count() < need || !b.is_legal_point(e, true) {
                    continue;
                }
                (after, Bits::EMPTY)
            } else {
                if !b.is_legal_point(e, true) {
                    continue;
                }
                let mut next = *g;
                let captured = next.play_capturing(Move::Play(e as u16));
                let after = next.target_libs();
                if next.captured() || after.count() < need {
                    continue;
                }
                (after, captured)
            };
        if !f(e, after, captured) {
            return;
        }
    }
}

/// What an escape by the side to move on `e` reads, where it leaves the
/// target `spare` liberties more than it needs: [`move_reads`], and where
/// `spare` is below `margin`, the mover's blocks next to `e` whole with
/// their liberties. An escape counts liberties: those of every block `e`
/// joins to the target are the target's after it. Another attacker stone
/// takes at most one of them, so with `margin` liberties to spare the count
/// cannot fall below what the rule reading it compares ([`escape_now`]:
/// the threshold, margin 1; [`spoilers`]: also whether a liberty is to
/// spare, margin 2), and a witness liberty of each block ([`move_reads`])
/// is enough; without them each liberty is read.
pub(crate) fn escape_reads(b: &crate::board::Board, e: usize, spare: u32, margin: u32) -> Bits {
    let mask = b.mask();
    let mut z = move_reads(b, e);
    if spare >= margin {
        return z;
    }
    let mut own = b.neighbours(e) & b.stones(b.to_move());
    while let Some(q) = own.first() {
        let blk = b.block(q);
        own = own.minus(&blk);
        z |= blk.dilate(mask);
    }
    z
}

/// With the defender to move: what its escapes at once read
/// ([`escape_reads`]), the escape with the fewest empty points read;
/// `None` when it has none.
pub(crate) fn escape_now_reads(g: &Capture) -> Option<Bits> {
    let need = g.threshold_after(1);
    let b = g.board();
    let mut best: Option<Bits> = None;
    for_each_escape(g, |e, after, _| {
        let r = escape_reads(b, e, after.count() - need, 1);
        if best.is_none_or(|z| (r & b.empty()).count() < (z & b.empty()).count()) {
            best = Some(r);
        }
        true
    });
    best
}

/// With the defender to move: a move that escapes at once, if any.
pub fn escape_now(g: &Capture) -> Option<usize> {
    let mut found = None;
    for_each_escape(g, |e, _, _| {
        found = Some(e);
        false
    });
    found
}

/// With the attacker to move: `None` when the defender, were the attacker
/// to pass, could not escape in one move; otherwise the points where an
/// attacker move can stop every such escape (see the module's
/// documentation), possibly none.
pub fn spoilers(g: &Capture) -> Option<Bits> {
    spoilers_reading(g, None)
}

/// [`spoilers`], adding to `reads` the points its answer depends on beyond
/// the target and its liberties (a relevance zone's reads, see
/// [`crate::zone`]): each escape's [`escape_reads`] and the defender blocks
/// next to what it captures. Another stone of the attacker off these
/// points leaves every escape found standing, so it can only add escapes
/// and shrink the answer.
pub(crate) fn spoilers_reading(g: &Capture, mut reads: Option<&mut Bits>) -> Option<Bits> {
    if g.captured() || g.board().to_move() != g.attacker() {
        return None;
    }
    let mut passed = *g;
    passed.play_capturing(Move::Pass);
    let before = passed.board();
    let mask = before.mask();
    let need = passed.threshold_after(1);
    let mut keep: Option<Bits> = None;
    for_each_escape(&passed, |e, after, captured| {
        // A stone takes one liberty: with one to spare, a liberty spoils
        // `e` only by capturing a block `e` joins. Those next to `e` have
        // `e` as a liberty; the target's last liberty, where it is in
        // atari and `e` is elsewhere, is kept below (`e` then captures a
        // block next to it).
        let mut spoil = Bits::single(e);
        if after.count() <= need {
            spoil |= after;
        }
        if let Some(r) = reads.as_deref_mut() {
            *r |= escape_reads(before, e, after.count().saturating_sub(need), 2);
        }
        if !captured.is_empty() {
            // Defender blocks in atari next to what `e` captures: taking
            // one would give those attacker stones a liberty.
            for d in before.adjacent_blocks(&captured) {
                if let Some(r) = reads.as_deref_mut() {
                    *r |= d.dilate(mask);
                }
                let l = before.liberties(&d);
                if l.count() == 1 {
                    spoil |= l;
                }
            }
        }
        let k = keep.map_or(spoil, |k| k & spoil);
        keep = Some(k);
        !k.is_empty()
    });
    keep
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Color};
    use crate::capture::Generator;

    /// The target (B6 on 7x7, in atari at B5) escapes, were White to
    /// pass, by C5, which captures five white stones and leaves it four
    /// liberties, one more than the threshold of three. A white stone on
    /// one of them would leave the escape standing, but not the one on
    /// B5: it captures the target. The spare-liberty case leaves B5 to
    /// the rule for defender blocks in atari next to what the escape
    /// captures, which must keep it (the test fails without that rule).
    #[test]
    fn a_spare_liberty_does_not_cut_the_capture_of_the_target() {
        let mut b = Board::new(7).unwrap();
        let at = |x, y| b.point(x, y).unwrap();
        let (white, black) = (
            [(0, 0), (1, 0), (2, 0), (0, 1), (2, 1)],
            [(1, 1), (0, 2), (3, 0), (3, 1)],
        );
        let (white, black): (Vec<usize>, Vec<usize>) = (
            white.iter().map(|&(x, y)| at(x, y)).collect(),
            black.iter().map(|&(x, y)| at(x, y)).collect(),
        );
        for p in white {
            b.set(p, Some(Color::White));
        }
        for &p in &black {
            b.set(p, Some(Color::Black));
        }
        b.set_to_move(Color::White);
        let (x, e) = (b.point(1, 2).unwrap(), b.point(2, 2).unwrap());
        let g = Capture::new(b, black[0], 3, Generator::Board).unwrap();
        let mut passed = g;
        passed.play_capturing(Move::Pass);
        let mut escapes = Vec::new();
        for_each_escape(&passed, |e, after, _| {
            escapes.push((e, after.count()));
            true
        });
        assert!(escapes.contains(&(e, 4)), "{escapes:?}");
        let s = spoilers(&g).expect("an escape after a pass");
        assert!(s.get(x) && s.get(e), "{s:?}");
    }
}
