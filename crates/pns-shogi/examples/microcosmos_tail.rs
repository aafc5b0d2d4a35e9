//! Proves the end of Microcosmos' published main line (from the position
//! after its first K plies), reads the proof back from the table
//! ([`pns_shogi::proof::table_proof`]), verifies it by the rules and
//! compares its main line with the published one:
//!
//! ```text
//! cargo run --release -p pns-shogi --example microcosmos_tail -- 1300 [ALGO] [TABLE_MB]
//! ```
//!
//! Reads `../shared/data/shogi/` (run from the repository root).

use pns_core::verify::verify;
use pns_core::{Algo, Limits, Table};
use pns_shogi::answer::proof_line;
use pns_shogi::proof::{table_proof, WalkLimits};
use pns_shogi::{solve, Tsume, TsumeOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: microcosmos_tail K [ALGO] [TABLE_MB]";
    let k: usize = args.get(1).and_then(|a| a.parse().ok()).expect(usage);
    let algo = Algo::parse(args.get(2).map_or("dfpn", |s| s.as_str())).expect(usage);
    let mb: usize = args
        .get(3)
        .map_or(Some(2048), |a| a.parse().ok())
        .expect(usage);
    let data = "../shared/data/shogi";
    let problems = std::fs::read_to_string(format!("{data}/long-problems.tsv")).expect(data);
    let sfen = problems
        .lines()
        .find(|l| !l.starts_with('#') && l.contains("Microcosmos"))
        .and_then(|l| l.split('\t').next())
        .expect("the Microcosmos line");
    let moves: Vec<String> = std::fs::read_to_string(format!("{data}/microcosmos-answer.usi"))
        .expect(data)
        .split_whitespace()
        .map(String::from)
        .collect();
    assert!(k < moves.len(), "K must be below {}", moves.len());
    let text = format!("{sfen} moves {}", moves[..k].join(" "));
    let root = Tsume::parse(&text).expect("the position after K plies");
    let tt = Table::with_mb(mb);
    let opts = TsumeOptions {
        algo,
        limits: Limits::default(),
        answer: false,
        ..TsumeOptions::default()
    };
    let t0 = std::time::Instant::now();
    let r = solve(&root, &opts, &tt);
    println!(
        "K = {k}: {:?} in {:.2} s, {} visits",
        r.status(),
        t0.elapsed().as_secs_f64(),
        r.result.stats.visits
    );
    let t1 = std::time::Instant::now();
    let p = match table_proof(&root, &tt, &WalkLimits::default()) {
        Ok(p) => p,
        Err(e) => {
            println!("reading the proof failed: {e}");
            std::process::exit(1);
        }
    };
    let line = proof_line(&root, &p.block).expect("the proof's line");
    println!(
        "read in {:.2} s: {}",
        t1.elapsed().as_secs_f64(),
        p.summary()
    );
    let t2 = std::time::Instant::now();
    let verdict = verify(&root, &p.certificate(&text));
    println!(
        "verified in {:.2} s: {verdict:?}",
        t2.elapsed().as_secs_f64()
    );
    let ours: Vec<String> = line.moves.iter().map(|m| m.usi()).collect();
    let same = ours
        .iter()
        .zip(&moves[k..])
        .take_while(|(a, b)| a == b)
        .count();
    println!(
        "line {} plies (published {}), the first {same} the published moves",
        line.length,
        moves.len() - k
    );
}
