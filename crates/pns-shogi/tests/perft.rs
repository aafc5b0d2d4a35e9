//! Perft from the start position against the public figures (30, 900,
//! 25 470, 719 731, 19 861 490 at depths 1-5; ../shared/data/README.md).

use pns_shogi::Position;

#[test]
fn perft_start_depth_4() {
    assert_eq!(Position::startpos().perft(4), 719_731);
}

#[test]
fn perft_start_depth_5() {
    let t = std::time::Instant::now();
    assert_eq!(Position::startpos().perft(5), 19_861_490);
    eprintln!("perft 5: {:.2} s", t.elapsed().as_secs_f64());
}
