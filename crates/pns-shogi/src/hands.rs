//! Proof and disproof pieces: solved tsume positions shared across the
//! attacker's hands. Proof pieces come from Seo's tsume-shogi program
//! (M. Seo, "The C* algorithm for AND/OR tree search and its application
//! to a tsume-shogi program", master's thesis, University of Tokyo, 1995),
//! disproof pieces and their use with df-pn from Nagai's (A. Nagai,
//! "Df-pn algorithm for searching AND/OR trees and its applications", PhD
//! thesis, University of Tokyo, 2002); both are refs. \[56\] and \[42\] of the
//! DeepPN thesis in `../shared/papers`, neither text is there. The rules
//! below are written out in our own terms.
//!
//! Within one problem the pieces in play never change, so two positions
//! with the same board and side to move differ only in how the pieces off
//! the board are split between the hands: one more piece for the attacker
//! is one fewer for the defender. Such a piece never hurts the attacker
//! (its checks are a superset, the defender's replies a subset), so:
//!
//! * a position proven with the attacker holding `P` (its *proof hand*) is
//!   proven whenever the attacker holds at least `P`;
//! * a position disproven with the attacker holding `D` (its *disproof
//!   hand*) is disproven whenever the attacker holds at most `D`.
//!
//! A solved position is stored under a key of the board, the side to move
//! and the pieces off the board (not the split), with its hand in the
//! entry; a lookup matches a stored hand by that order (superiority for
//! proofs, inferiority for disproofs). The hands stored are not the
//! position's own hand but the smallest (largest) one the proof (disproof)
//! needs, computed bottom-up from the children's as the search solves them:
//!
//! * attacker to move, proven by a move: the child's proof hand, plus the
//!   piece the move drops, minus the piece it captures;
//! * defender to move, proven: the union (per kind, the most) of the
//!   children's proof hands; and where the defender could interpose by a
//!   drop, every piece of a kind the defender does not hold (the attacker
//!   must keep them all, or the defender would have one to drop: Seo's
//!   adjustment);
//! * defender to move, disproven by a move: the child's disproof hand (a
//!   defender's move leaves the attacker's hand as it is);
//! * attacker to move, disproven: the intersection (per kind, the fewest)
//!   of the children's disproof hands, taken back over each move (plus the
//!   dropped piece, minus the captured one); a kind the attacker does not
//!   hold stays at none when a drop of it could give check (such a piece
//!   would bring checks that were never searched).
//!
//! A child whose own shared entry is gone from the table counts with the
//! hand it has (always a valid, if larger, proof hand or smaller disproof
//! hand).
//!
//! Only results that hold on every path reach here (the engine passes no
//! result that depends on the line, GHI paper §3.1), and repetitions only
//! ever count against the attacker, so a disproof replayed with fewer
//! pieces stays one; a proof replayed with more pieces can meet a
//! position of the line only where that position is itself proven.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use pns_core::game::{GoalContext, Rules, Side};
use pns_core::tt::{Hit, Table, FLAG_EXPANDED};
use pns_core::{SharedProbe, Status};

use crate::position::{any_between, kind, piece_kind, Color, Move, Position, HAND_KINDS};
use crate::tsume::Tsume;

/// Pieces of each hand kind (pawn .. rook).
pub type Hand = [u8; HAND_KINDS];

/// Entry flag of a shared tsume entry (the engine's own flags are 1, 2, 4;
/// an entry has four flag bits).
pub const FLAG_HAND: u8 = 8;

const PROVEN: u64 = 1;
const DISPROVEN: u64 = 2;

/// The code a shared entry stores for a solved `st`.
#[inline]
fn code(st: Status) -> u64 {
    if st == Status::Proven {
        PROVEN
    } else {
        DISPROVEN
    }
}

/// The hand's counts, one byte per kind.
#[inline]
pub fn pack(h: &Hand) -> u64 {
    h.iter()
        .enumerate()
        .fold(0, |w, (k, &n)| w | (n as u64) << (8 * k))
}

#[inline]
pub fn unpack(w: u64) -> Hand {
    let mut h = [0u8; HAND_KINDS];
    for (k, n) in h.iter_mut().enumerate() {
        *n = (w >> (8 * k)) as u8;
    }
    h
}

/// `a` ≤ `b` kind by kind.
#[inline]
pub fn subset(a: &Hand, b: &Hand) -> bool {
    a.iter().zip(b).all(|(x, y)| x <= y)
}

/// Counters of the shared entries (for measurements: lookups asked,
/// lookups answered, entries stored), over all searches of the process.
static LOOKUPS: AtomicU64 = AtomicU64::new(0);
static FOUND: AtomicU64 = AtomicU64::new(0);
static STORED: AtomicU64 = AtomicU64::new(0);

/// (lookups, lookups that settled the position, entries stored) since the
/// process began.
pub fn counters() -> (u64, u64, u64) {
    (
        LOOKUPS.load(Relaxed),
        FOUND.load(Relaxed),
        STORED.load(Relaxed),
    )
}

/// The key of the board, the side to move and the pieces off the board:
/// of the class of positions that differ only in the split of those
/// pieces between the hands.
#[inline]
fn board_and_off(pos: &Position) -> u64 {
    let (b, w) = (pos.hand(Color::Black), pos.hand(Color::White));
    let mut off = 0u64;
    for k in 0..HAND_KINDS {
        off |= ((b[k] + w[k]) as u64) << (8 * k);
    }
    pos.board_key() ^ pns_core::rng::splitmix64(off ^ 0x5052_4f4f_4648_414e)
}

/// The key of the class of positions that differ only in the split of the
/// pieces off the board between the hands.
#[inline]
fn class_key(pos: &Position, space: u64) -> u64 {
    board_and_off(pos) ^ space
}

/// The stored hand of the entry under `key` that settles `status` for the
/// attacker's hand `h`: a proof hand ⊆ `h`, or a disproof hand ⊇ `h`.
fn matching(tt: &Table, key: u64, h: &Hand, status: u64) -> Option<Hand> {
    let mut out = None;
    tt.for_each_match(key, |e: Hit| {
        if e.flags & FLAG_HAND == 0 || e.dn != status {
            return false;
        }
        let s = unpack(e.pn);
        let ok = if status == PROVEN {
            subset(&s, h)
        } else {
            subset(h, &s)
        };
        if ok {
            out = Some(s);
        }
        ok
    });
    out
}

/// Where `t`'s shared entries lie (key space `space`) and the attacker's
/// hand to compare them with.
#[inline]
pub(crate) fn probe(t: &Tsume, space: u64) -> SharedProbe {
    let pos = t.position();
    SharedProbe {
        key: class_key(pos, space),
        token: pack(pos.hand(t.attacker())),
    }
}

/// The shared entries' verdict on the position `q` describes
/// ([`probe`]).
pub(crate) fn lookup(tt: &Table, q: SharedProbe) -> Status {
    LOOKUPS.fetch_add(1, Relaxed);
    let h = unpack(q.token);
    let mut st = Status::Unknown;
    tt.for_each_match(q.key, |e: Hit| {
        if e.flags & FLAG_HAND == 0 {
            return false;
        }
        let s = unpack(e.pn);
        if e.dn == PROVEN && subset(&s, &h) {
            st = Status::Proven;
        } else if e.dn == DISPROVEN && subset(&h, &s) {
            st = Status::Disproven;
        }
        st.is_solved()
    });
    if st.is_solved() {
        FOUND.fetch_add(1, Relaxed);
    }
    st
}

/// Stores `hand` for `status` under `key` unless a stored entry implies it
/// already; a stored entry it implies gives way.
fn store(tt: &Table, key: u64, status: u64, hand: &Hand, amount: u32) {
    if matching(tt, key, hand, status).is_some() {
        return;
    }
    STORED.fetch_add(1, Relaxed);
    tt.store_matching(
        key,
        pack(hand),
        status,
        amount,
        FLAG_HAND | FLAG_EXPANDED,
        0,
        |e: &Hit| {
            e.flags & FLAG_HAND != 0
                && e.dn == status
                && if status == PROVEN {
                    subset(hand, &unpack(e.pn))
                } else {
                    subset(&unpack(e.pn), hand)
                }
        },
    );
}

/// The proof (disproof) hand of the position after `m` from `t`, solved
/// with `status`: its shared entry's; else, for a position without moves
/// (mate, or no check: the search may know it from the child's count
/// alone, without a visit that would have shared it), the hand that
/// [`share`] gives such a position; else the hand it has.
fn child_hand(t: &Tsume, tt: &Table, space: u64, m: Move, st: Status) -> Hand {
    let mut c = t.clone();
    c.play(m);
    let pos = c.position();
    let h = *pos.hand(t.attacker());
    if let Some(s) = matching(tt, class_key(pos, space), &h, code(st)) {
        return s;
    }
    let terminal = if st == Status::Proven {
        !c.attacker_to_move() && pos.count_evasions(false) == 0
    } else {
        c.attacker_to_move() && pos.count_checks() == 0
    };
    if !terminal {
        return h;
    }
    solved_hand(&c, tt, space, st, &[]).unwrap_or(h)
}

/// The kind (in hand) of the piece `m` captures in `pos`, if any.
#[inline]
fn captured(pos: &Position, m: Move) -> Option<usize> {
    if m.is_drop() {
        return None;
    }
    let p = pos.piece_at(m.to());
    (p != 0).then(|| kind::unpromoted(piece_kind(p)) as usize)
}

/// Records `t`, solved with `status` on every path (children: its moves
/// with their values), as a shared entry with its proof or disproof hand.
pub(crate) fn share(
    t: &Tsume,
    tt: &Table,
    space: u64,
    ctx: GoalContext,
    status: Status,
    children: &[(Move, Status)],
    amount: u32,
) {
    // Hands are the attacker's: only the tsume question (the attacker to
    // move at the root proves a mate; there are no draws) is shared.
    if ctx.attacker != Side::First || !status.is_solved() {
        return;
    }
    if let Some(hand) = solved_hand(t, tt, space, status, children) {
        store(
            tt,
            class_key(t.position(), space),
            code(status),
            &hand,
            amount,
        );
    }
}

/// The proof or disproof hand of `t`, solved with `status` (children: its
/// moves with their values); `None` when the children do not show it.
fn solved_hand(
    t: &Tsume,
    tt: &Table,
    space: u64,
    status: Status,
    children: &[(Move, Status)],
) -> Option<Hand> {
    let pos = t.position();
    let me = t.attacker();
    let h = *pos.hand(me);
    let dh = *pos.hand(me.flip());
    let or = t.attacker_to_move();
    match (status, or) {
        (Status::Proven, true) => {
            // The proven move whose proof needs the fewest pieces.
            let mut best: Option<Hand> = None;
            for &(m, s) in children {
                if s != Status::Proven {
                    continue;
                }
                let mut p = child_hand(t, tt, space, m, Status::Proven);
                if m.is_drop() {
                    p[m.drop_kind() as usize] += 1;
                }
                if let Some(k) = captured(pos, m) {
                    p[k] = p[k].saturating_sub(1);
                }
                for k in 0..HAND_KINDS {
                    p[k] = p[k].min(h[k]);
                }
                let n = |x: &Hand| x.iter().map(|&v| v as u32).sum::<u32>();
                if !matches!(&best, Some(b) if n(b) <= n(&p)) {
                    best = Some(p);
                }
            }
            best
        }
        (Status::Proven, false) => {
            let mut p = [0u8; HAND_KINDS];
            for &(m, s) in children {
                if s != Status::Proven {
                    return None; // not a proof after all: share nothing
                }
                let c = child_hand(t, tt, space, m, Status::Proven);
                for k in 0..HAND_KINDS {
                    p[k] = p[k].max(c[k]);
                }
            }
            // Seo's adjustment: with squares to interpose on, a kind the
            // defender lacks must stay all with the attacker.
            let ks = t.defender_king();
            let (ch, n) = pos.checkers(ks, me);
            if n == 1 && any_between(ks, ch[0]) {
                for k in 0..HAND_KINDS {
                    if dh[k] == 0 {
                        p[k] = h[k];
                    }
                }
            }
            Some(p)
        }
        (Status::Disproven, false) => {
            // The refuting move whose disproof allows the most pieces.
            let mut best: Option<Hand> = None;
            for &(m, s) in children {
                if s != Status::Disproven {
                    continue;
                }
                let d = child_hand(t, tt, space, m, Status::Disproven);
                let n = |x: &Hand| x.iter().map(|&v| v as u32).sum::<u32>();
                if !matches!(&best, Some(b) if n(b) >= n(&d)) {
                    best = Some(d);
                }
            }
            best
        }
        (Status::Disproven, true) => {
            // At most every piece off the board.
            let mut d = [0u8; HAND_KINDS];
            for k in 0..HAND_KINDS {
                d[k] = h[k] + dh[k];
            }
            for &(m, s) in children {
                if s != Status::Disproven {
                    return None;
                }
                let mut c = child_hand(t, tt, space, m, Status::Disproven);
                if m.is_drop() {
                    let k = m.drop_kind() as usize;
                    c[k] = c[k].saturating_add(1);
                }
                if let Some(k) = captured(pos, m) {
                    // The child holds one more; its disproof hand has it.
                    c[k] = c[k].saturating_sub(1);
                }
                for k in 0..HAND_KINDS {
                    d[k] = d[k].min(c[k]);
                }
            }
            // A kind the attacker lacks: none of it, if a drop of it could
            // check (those checks were not searched).
            let ks = t.defender_king();
            for k in 0..HAND_KINDS {
                if h[k] == 0 && pos.any_drop_check_square(k as u8, ks) {
                    d[k] = 0;
                }
            }
            debug_assert!(subset(&h, &d), "a disproof hand below the hand");
            Some(d)
        }
        (Status::Unknown, _) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hands_pack_and_compare_kind_by_kind() {
        let a: Hand = [18, 0, 4, 1, 0, 2, 1];
        assert_eq!(unpack(pack(&a)), a);
        let b: Hand = [3, 0, 0, 1, 0, 0, 1];
        assert!(subset(&b, &a) && !subset(&a, &b));
        assert!(subset(&a, &a));
        let c: Hand = [0, 1, 0, 0, 0, 0, 0];
        assert!(!subset(&c, &a) && !subset(&a, &c));
    }

    /// A mate in one with a gold drop: proven with the attacker holding
    /// one gold, so with two golds too (and nothing is said about none);
    /// stored as a disproof with no gold, it settles no position with one.
    #[test]
    fn lookups_match_by_superiority_and_inferiority() {
        let t = |sfen: &str| Tsume::parse(sfen).unwrap();
        let tt = Table::with_mb(1);
        let one = t("4k4/9/4P4/9/9/9/9/9/9 b G 1");
        let two = t("4k4/9/4P4/9/9/9/9/9/9 b 2G 1");
        let none = t("4k4/9/4P4/9/9/9/9/9/9 b - 1");
        let ctx = GoalContext {
            attacker: Side::First,
            goal: pns_core::game::Goal::Win,
        };
        assert_eq!(lookup(&tt, probe(&one, 0)), Status::Unknown);
        // The position after G*5b is a mate: its proof hand is empty, so
        // the root's is the one gold it drops.
        let m = Move::drop(kind::GOLD, 9 + 4);
        let mut after = one.clone();
        after.play(m);
        share(&after, &tt, 0, ctx, Status::Proven, &[], 1);
        share(&one, &tt, 0, ctx, Status::Proven, &[(m, Status::Proven)], 1);
        assert_eq!(lookup(&tt, probe(&one, 0)), Status::Proven);
        assert_eq!(lookup(&tt, probe(&two, 0)), Status::Proven);
        assert_eq!(lookup(&tt, probe(&none, 0)), Status::Unknown);
        // Another key space sees nothing.
        assert_eq!(lookup(&tt, probe(&one, 99)), Status::Unknown);
        // No check without a gold: disproven with no piece at all; a
        // gold-drop check exists, so the disproof hand holds no gold.
        share(&none, &tt, 0, ctx, Status::Disproven, &[], 1);
        assert_eq!(lookup(&tt, probe(&none, 0)), Status::Disproven);
        assert_eq!(lookup(&tt, probe(&one, 0)), Status::Proven);
    }
}
