//! Microcosmos from the shared data, for the tests that replay it.

/// The problem's SFEN, its stated length and its published main line
/// (`../shared/data/shogi/long-problems.tsv`, `microcosmos-answer.usi`),
/// read with `shared` (the shared-data reader of the calling test).
pub fn microcosmos(shared: fn(&str) -> String) -> (String, String, Vec<String>) {
    let problems = shared("shogi/long-problems.tsv");
    let line = problems
        .lines()
        .find(|l| !l.starts_with('#') && l.contains("Microcosmos"))
        .expect("the Microcosmos line");
    let mut cols = line.split('\t');
    let sfen = cols.next().unwrap().to_string();
    let length = cols.next().unwrap_or("").to_string();
    let moves = shared("shogi/microcosmos-answer.usi")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    (sfen, length, moves)
}

/// The 72 antma problems (`../shared/data/shogi/antma-tsume.tsv`) as
/// positions, read with `shared`.
#[allow(dead_code)]
pub fn antma_roots(shared: fn(&str) -> String) -> Vec<pns_shogi::Tsume> {
    shared("shogi/antma-tsume.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| pns_shogi::Tsume::parse(l.split('\t').next().unwrap()).unwrap())
        .collect()
}

/// Random walks from each of the 72 antma problems, seeded with `seed`:
/// `walks` walks of at most `plies` positions each. `visit` checks a
/// position and returns the moves to walk on, one of which is played at
/// random (none: the walk ends).
#[allow(dead_code)]
pub fn antma_walks(
    shared: fn(&str) -> String,
    seed: u64,
    walks: usize,
    plies: usize,
    mut visit: impl FnMut(&pns_shogi::Tsume) -> Vec<pns_shogi::Move>,
) {
    use pns_core::prelude::*;
    let mut rng = pns_core::Rng::new(seed);
    for root in antma_roots(shared) {
        for _walk in 0..walks {
            let mut t = root.clone();
            for _ply in 0..plies {
                let v = visit(&t);
                if v.is_empty() {
                    break;
                }
                t.play(v[rng.below(v.len() as u64) as usize]);
            }
        }
    }
}
