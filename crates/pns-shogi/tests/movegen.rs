//! Check and evasion generation against brute force on tsume positions:
//! the 72 problems of ../shared/data/shogi/antma-tsume.tsv and positions
//! reached from them by random tsume play (checks and evasions).
//!
//! Brute force: every board move of every piece plus every drop of every
//! piece in hand on every empty square, kept when it leaves the mover's
//! king safe and obeys the drop rules (dead squares, nifu, and no pawn
//! drop that leaves the opponent without a legal reply); the checks are
//! those of them after which the opponent's king is attacked.

use crate::shared_data;

use crate::common;
use shared_data::read_shared as shared;

use std::collections::BTreeSet;

use pns_core::prelude::*;
use pns_core::Rng;
use pns_shogi::position::{kind, Move, Position, HAND_KINDS};
use pns_shogi::Tsume;

fn brute_legal(p: &Position) -> BTreeSet<Move> {
    let mut out = BTreeSet::new();
    let mut v = Vec::new();
    p.board_moves(&mut v);
    for m in v {
        if p.leaves_king_safe(m) {
            out.insert(m);
        }
    }
    for k in 0..HAND_KINDS as u8 {
        for to in 0..81u8 {
            if !p.drop_allowed(k, to) {
                continue;
            }
            let m = Move::drop(k, to);
            if !p.leaves_king_safe(m) {
                continue;
            }
            if k == kind::PAWN {
                let mut next = p.clone();
                next.play(m);
                let them = next.side();
                let mut replies = Vec::new();
                next.board_moves(&mut replies);
                let any_board = replies.iter().any(|&r| next.leaves_king_safe(r));
                let any_drop = (0..HAND_KINDS as u8).any(|k2| {
                    (0..81u8).any(|t2| {
                        next.drop_allowed(k2, t2) && next.leaves_king_safe(Move::drop(k2, t2))
                    })
                });
                if next.in_check(them) && !any_board && !any_drop {
                    continue; // mate by a pawn drop
                }
            }
            out.insert(m);
        }
    }
    out
}

#[test]
fn checks_and_evasions_match_brute_force() {
    let mut positions = 0;
    common::antma_walks(shared, 7, 6, 12, |t| {
        let p = t.position();
        let all = brute_legal(p);
        let mut fast = Vec::new();
        p.legal_moves(&mut fast);
        let fast_set: BTreeSet<Move> = fast.iter().copied().collect();
        assert_eq!(fast.len(), fast_set.len(), "duplicates in {p:?}");
        assert_eq!(fast_set, all, "legal moves of {p:?}");
        let mut tm = Vec::new();
        t.legal_moves(&mut tm);
        let tm: BTreeSet<Move> = tm.into_iter().collect();
        if t.attacker_to_move() {
            let checks: BTreeSet<Move> =
                all.iter().copied().filter(|&m| p.gives_check(m)).collect();
            assert_eq!(tm, checks, "checks of {p:?}");
        } else {
            assert!(p.in_check(p.side()), "defender not in check: {p:?}");
            assert_eq!(tm, all, "evasions of {p:?}");
        }
        positions += 1;
        tm.into_iter().collect()
    });
    assert!(positions > 1000, "{positions}");
}

/// The same comparison on the 1525 positions of Microcosmos' main line
/// (../shared/data/shogi/microcosmos-answer.usi) and on short random walks
/// from every 25th of them: boards full of sliders, promoted pieces and
/// discovered checks, where the generators skip pieces that cannot check
/// or evade (`Position::board_move_attacks`, the evasion targets).
#[test]
fn checks_and_evasions_match_brute_force_on_microcosmos() {
    let (sfen, _, moves) = common::microcosmos(shared);
    let check = |t: &Tsume| -> Vec<Move> {
        let p = t.position();
        let all = brute_legal(p);
        let mut tm = Vec::new();
        t.legal_moves(&mut tm);
        let n = tm.len();
        let tm: BTreeSet<Move> = tm.into_iter().collect();
        assert_eq!(n, tm.len(), "duplicates in {p:?}");
        if t.attacker_to_move() {
            let checks: BTreeSet<Move> =
                all.iter().copied().filter(|&m| p.gives_check(m)).collect();
            assert_eq!(tm, checks, "checks of {p:?}");
        } else {
            assert_eq!(tm, all, "evasions of {p:?}");
        }
        tm.into_iter().collect()
    };
    let mut rng = Rng::new(11);
    let mut t = Tsume::parse(&sfen).unwrap();
    let mut positions = 0;
    for (i, m) in moves.iter().enumerate() {
        check(&t);
        positions += 1;
        if i % 25 == 0 {
            let mut w = t.clone();
            for _ in 0..8 {
                let v = check(&w);
                positions += 1;
                if v.is_empty() {
                    break;
                }
                w.play(v[rng.below(v.len() as u64) as usize]);
            }
        }
        let mv = t.parse_move(m).unwrap();
        t.play(mv);
    }
    assert!(positions > 1800, "{positions}");
}
