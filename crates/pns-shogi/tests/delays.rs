//! Tsume's delayed moves (`SearchHooks::delays`): the search's move list
//! holds every tsume move once, keeps each group together (the defender's
//! drops on one square; a pawn's, bishop's or rook's promotion and then
//! its non-promotion), and `delays` says so for exactly the pairs inside
//! a group. Checked on the 72 problems of
//! ../shared/data/shogi/antma-tsume.tsv, Microcosmos' main line and random
//! walks from them.

use crate::shared_data;

use crate::common;
use shared_data::read_shared as shared;

use pns_core::prelude::*;
use pns_shogi::position::{kind, piece_kind, Move};
use pns_shogi::Tsume;

fn same_board_move(a: Move, b: Move) -> bool {
    !a.is_drop() && !b.is_drop() && a.from() == b.from() && a.to() == b.to()
}

/// Checks `t`'s search list and returns the tsume moves to walk on.
fn check(t: &Tsume) -> Vec<Move> {
    let mut all = Vec::new();
    t.legal_moves(&mut all);
    let mut list = Vec::new();
    t.search_moves(&mut list);
    let (mut a, mut b) = (all.clone(), list.clone());
    a.sort_by_key(|m| m.0);
    b.sort_by_key(|m| m.0);
    assert_eq!(a, b, "the search's list is not the tsume moves in {t:?}");
    let attacker = t.attacker_to_move();
    for (i, &m) in list.iter().enumerate() {
        if i > 0 {
            let prev = list[i - 1];
            let want = if attacker {
                prev.promotes()
                    && !m.promotes()
                    && same_board_move(prev, m)
                    && matches!(
                        piece_kind(t.position().piece_at(m.from())),
                        kind::PAWN | kind::BISHOP | kind::ROOK
                    )
            } else {
                prev.is_drop() && m.is_drop() && prev.to() == m.to()
            };
            assert_eq!(t.delays(prev, m), want, "{prev:?} then {m:?} in {t:?}");
        }
        if attacker {
            // A promotion's non-promotion comes right after it.
            if m.promotes() {
                if let Some(j) = list
                    .iter()
                    .position(|&n| !n.promotes() && same_board_move(m, n))
                {
                    assert_eq!(j, i + 1, "{m:?}'s non-promotion apart in {t:?}");
                }
            }
        } else if m.is_drop() {
            // The drops on one square are together.
            let last = list.iter().rposition(|n| n.is_drop() && n.to() == m.to());
            let first = list.iter().position(|n| n.is_drop() && n.to() == m.to());
            let (first, last) = (first.unwrap(), last.unwrap());
            assert!(
                list[first..=last]
                    .iter()
                    .all(|n| n.is_drop() && n.to() == m.to()),
                "drops on {} apart in {t:?}",
                m.to()
            );
        }
    }
    all
}

#[test]
fn groups_are_together_and_delayed_on_antma_problems() {
    let mut pairs = 0;
    common::antma_walks(shared, 31, 8, 16, |t| {
        let mut list = Vec::new();
        t.search_moves(&mut list);
        pairs += list.windows(2).filter(|w| t.delays(w[0], w[1])).count();
        check(t)
    });
    // Groups do occur: the checks above are not vacuous.
    assert!(pairs > 1000, "{pairs}");
}

#[test]
fn groups_are_together_on_microcosmos_and_none_without_pieces() {
    let (sfen, _, moves) = common::microcosmos(shared);
    let mut t = Tsume::parse(&sfen).unwrap();
    let mut pairs = 0;
    for m in &moves {
        check(&t);
        let mut list = Vec::new();
        t.search_moves(&mut list);
        pairs += list.windows(2).filter(|w| t.delays(w[0], w[1])).count();
        // Without proof pieces nothing is delayed.
        let mut plain = t.clone();
        plain.set_hands(false);
        assert!(list.windows(2).all(|w| !plain.delays(w[0], w[1])));
        let mv = t.parse_move(m).unwrap();
        t.play(mv);
    }
    assert!(pairs > 100, "{pairs}");
}
