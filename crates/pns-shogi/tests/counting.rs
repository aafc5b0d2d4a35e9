//! The counting paths of the df-pn+ heuristic (`Position::count_checks`,
//! `Position::count_evasions`) against the lengths of the move lists they
//! stand for (`legal_checks`, `legal_moves`, and its board moves plus
//! distinct drop squares), and the early-exit tests beside them, on the
//! 72 problems of ../shared/data/shogi/antma-tsume.tsv, the 1525
//! positions of Microcosmos' main line, and random walks from them. A
//! count that differs would change the search's numbers, hence its visits.

use crate::shared_data;

use crate::common;
use shared_data::read_shared as shared;

use pns_core::prelude::*;
use pns_core::Rng;
use pns_shogi::position::{any_between, between, Move, Position, HAND_KINDS};
use pns_shogi::Tsume;

/// Checks every count of `t`'s position, from both sides' view where the
/// position allows it (the attacker's checks are also counted for the side
/// to move at a defender's node, so that in-check attackers are covered),
/// and returns the tsume moves to walk on.
fn check(t: &Tsume) -> Vec<Move> {
    let p = t.position();
    let mut checks = Vec::new();
    p.legal_checks(&mut checks);
    assert_eq!(p.count_checks(), checks.len() as u64, "checks of {p:?}");
    let mut all = Vec::new();
    p.legal_moves(&mut all);
    assert_eq!(
        p.count_evasions(false),
        all.len() as u64,
        "legal moves of {p:?}"
    );
    let mut squares = 0u128;
    let mut dedup = 0u64;
    for m in &all {
        if !m.is_drop() {
            dedup += 1;
        } else if squares & (1u128 << m.to()) == 0 {
            squares |= 1u128 << m.to();
            dedup += 1;
        }
    }
    assert_eq!(p.count_evasions(true), dedup, "deduplicated moves of {p:?}");
    assert_eq!(p.has_legal_move(), !all.is_empty(), "any move in {p:?}");
    // The early-exit tests of the proof-piece code.
    if let Some(ek) = p.king(p.side().flip()) {
        for k in 0..HAND_KINDS as u8 {
            let mut sqs = Vec::new();
            p.drop_check_squares(k, ek, &mut sqs);
            assert_eq!(p.any_drop_check_square(k, ek), !sqs.is_empty(), "{k} {p:?}");
        }
        for sq in 0..81u8 {
            if sq != ek {
                assert_eq!(any_between(ek, sq), !between(ek, sq).is_empty());
            }
        }
    }
    let mut tm = Vec::new();
    t.legal_moves(&mut tm);
    tm
}

/// The position with the other side to move, where that is a position
/// (the side not to move then is not in check): covers checks counted
/// by a side in check and evasions of a side not in check.
fn flipped(p: &Position) -> Option<Position> {
    let s = p.to_sfen();
    let mut parts: Vec<&str> = s.split(' ').collect();
    parts[1] = if parts[1] == "b" { "w" } else { "b" };
    Position::from_sfen(&parts.join(" ")).ok()
}

fn check_both(t: &Tsume, count: &mut usize) -> Vec<Move> {
    let v = check(t);
    *count += 1;
    if let Some(q) = flipped(t.position()) {
        let mut a = Vec::new();
        q.legal_checks(&mut a);
        assert_eq!(q.count_checks(), a.len() as u64, "checks of {q:?}");
        let mut b = Vec::new();
        q.legal_moves(&mut b);
        assert_eq!(q.count_evasions(false), b.len() as u64, "moves of {q:?}");
        *count += 1;
    }
    v
}

#[test]
fn counts_match_move_lists_on_antma_problems() {
    let mut positions = 0;
    common::antma_walks(shared, 23, 8, 16, |t| check_both(t, &mut positions));
    assert!(positions > 2000, "{positions}");
}

#[test]
fn counts_match_move_lists_on_microcosmos() {
    let (sfen, _, moves) = common::microcosmos(shared);
    let mut rng = Rng::new(29);
    let mut t = Tsume::parse(&sfen).unwrap();
    let mut positions = 0;
    for (i, m) in moves.iter().enumerate() {
        check_both(&t, &mut positions);
        if i % 5 == 0 {
            let mut w = t.clone();
            for _ in 0..10 {
                let v = check_both(&w, &mut positions);
                if v.is_empty() {
                    break;
                }
                w.play(v[rng.below(v.len() as u64) as usize]);
            }
        }
        let mv = t.parse_move(m).unwrap();
        t.play(mv);
    }
    assert!(positions > 3000, "{positions}");
}
