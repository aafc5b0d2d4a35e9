//! Microcosmos (1525 plies, ../shared/data/shogi/long-problems.tsv) as a
//! test of the rules: its published main line
//! (microcosmos-answer.usi) replays from the SFEN with every attacker's
//! move a legal check and every defender's move a legal evasion, and ends
//! in mate. (Solving it is not done: see docs/PERFORMANCE.md.)

#[allow(dead_code)]
#[path = "../../pns-games/tests/common/shared_data.rs"]
mod shared_data;

use shared_data::read_shared as shared;

use pns_core::prelude::*;
use pns_core::Outcome;
use pns_shogi::Tsume;

#[test]
fn microcosmos_main_line_is_legal_and_ends_in_mate() {
    let problems = shared("shogi/long-problems.tsv");
    let line = problems
        .lines()
        .find(|l| !l.starts_with('#') && l.contains("Microcosmos"))
        .expect("the Microcosmos line");
    let cols: Vec<&str> = line.split('\t').collect();
    assert_eq!(cols[1], "1525");
    let mut t = Tsume::parse(cols[0]).unwrap();
    let moves: Vec<String> = shared("shogi/microcosmos-answer.usi")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    assert_eq!(moves.len(), 1525);
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(t.attacker_to_move(), i % 2 == 0);
        let mv = t
            .parse_move(m)
            .unwrap_or_else(|e| panic!("ply {}: {m}: {e} in {t:?}", i + 1));
        t.play(mv);
    }
    assert_eq!(
        t.outcome(),
        Some(Outcome::Loss),
        "not mate at the end: {t:?}"
    );
    // One ply short is not mate: the attacker still has to check.
    let mut short = Tsume::parse(cols[0]).unwrap();
    for m in &moves[..1524] {
        let mv = short.parse_move(m).unwrap();
        short.play(mv);
    }
    assert!(short.attacker_to_move());
    assert_eq!(short.outcome(), None);
}
