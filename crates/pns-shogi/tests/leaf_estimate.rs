//! A new node whose count of moves is zero is solved when it is generated
//! (`SearchHooks::heuristic_or_no_move`, `Problem::leaf_estimate`): a check
//! that leaves the defender no evasion is a mate, and a position where the
//! attacker has no check is lost for it, without the visit that would have
//! found out.

use pns_core::game::{Goal, GoalContext, Rules, SearchHooks, Side};
use pns_core::{Algo, GoalProblem, Limits, Status, Table};
use pns_shogi::position::Move;
use pns_shogi::Tsume;

fn ctx() -> GoalContext {
    GoalContext {
        attacker: Side::First,
        goal: Goal::Win,
    }
}

fn after(sfen: &str, usi: &str) -> Tsume {
    let mut t = Tsume::parse(sfen).unwrap();
    let m = Move::parse_usi(usi).unwrap();
    t.play(m);
    t
}

/// The mate in 1 of antma's first line: the mating move leaves a position
/// with no evasion, which the estimate reports; the root is then proven on
/// its first visit, with the mate as its best move.
#[test]
fn a_mate_in_one_is_proven_on_the_first_visit() {
    let sfen = "k8/9/PK7/9/9/9/9/9/9 b 2r2b4g4s4n4l17p 1";
    // 9c9b+ (the pawn promotes in front of the king, guarded by the
    // attacker's king) mates; 9c9b unpromoted leaves 8a free, a check that
    // is no mate and is counted as usual.
    let mate = after(sfen, "9c9b+");
    assert_eq!(mate.heuristic_or_no_move(ctx()), None);
    let check = after(sfen, "9c9b");
    assert!(matches!(check.heuristic_or_no_move(ctx()), Some((n, 1)) if n >= 1));

    let mut p = GoalProblem::new(Tsume::parse(sfen).unwrap(), Goal::Win);
    let r = Algo::default().run(&mut p, &Table::with_mb(4), &Limits::default());
    assert_eq!(r.status, Status::Proven);
    // One visit: the root's expansion finds the mate among its children.
    // (Before the estimate could solve a node, the mated child took a
    // second visit.)
    assert_eq!(r.stats.visits, 1);
}

/// A position where the attacker has no check is lost for it as soon as
/// it is generated.
#[test]
fn no_check_is_reported_as_no_move() {
    // The defender's king alone in the corner, the attacker with nothing
    // in hand and no piece that can reach a checking square.
    let t = Tsume::parse("k8/9/9/9/9/9/9/9/8K b 2r2b4g4s4n4l18p 1").unwrap();
    assert_eq!(t.heuristic_or_no_move(ctx()), None);
    // And the plain heuristic still gives a leaf value of at least 1.
    assert_eq!(t.heuristic(ctx()), (1, 1));
}
