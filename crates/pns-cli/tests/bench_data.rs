//! The CI checks, run as the user would: `pns bench` on the
//! external test data with `--verify`.

use std::process::Command;

// The one helper that finds ../shared/data (and names it when missing).
use crate::shared_data;

fn data(rel: &str) -> String {
    shared_data::shared_data(rel).display().to_string()
}

/// Runs `pns bench GAME FILE --verify --json [extra]` and returns the rows.
fn bench(game: &str, file: &str, extra: &[&str]) -> Vec<serde_json::Value> {
    let o = Command::new(env!("CARGO_BIN_EXE_pns"))
        .args(["bench", game, file, "--verify", "--json"])
        .args(extra)
        .output()
        .expect("run pns");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "pns bench {game} {file}: {err}");
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn othello_fforum_1_19_is_19_of_19_correct_and_verified() {
    let rows = bench("othello", &data("othello/fforum-1-19.obf"), &[]);
    assert_eq!(rows.len(), 19);
    for r in &rows {
        assert_eq!(r["correct"], true, "{r}");
        assert_eq!(r["verified"], true, "{r}");
    }
}

/// Runs `pns bench hex openings-winner.txt --json [extra]` (the file as it
/// is, all sizes) and checks every row is correct.
fn hex_openings(extra: &[&str], expected_rows: usize) -> Vec<serde_json::Value> {
    let o = Command::new(env!("CARGO_BIN_EXE_pns"))
        .args(["bench", "hex", &data("hex/openings-winner.txt"), "--json"])
        .args(extra)
        .output()
        .expect("run pns");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows: Vec<serde_json::Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(rows.len(), expected_rows);
    for r in &rows {
        assert_eq!(r["correct"], true, "{r}");
    }
    rows
}

#[test]
fn hex_openings_4x4_to_6x6_are_correct_and_verified() {
    // The file lists 16 4x4 openings, then 25 5x5, 36 6x6, 49 7x7 (the
    // 7x7 lines are benchmarks, docs/PERFORMANCE.md). Every certificate is
    // checked by the rules-only verifier.
    let rows = hex_openings(&["--limit", "77", "--verify"], 77);
    let sizes = ["4 ", "5 ", "6 "];
    for (k, r) in rows.iter().enumerate() {
        assert_eq!(r["verified"], true, "{r}");
        let size = if k < 16 {
            0
        } else if k < 41 {
            1
        } else {
            2
        };
        assert!(
            r["position"].as_str().unwrap().starts_with(sizes[size]),
            "{r}"
        );
    }
    // The 6x6 certificates end lines with claims and fills instead of
    // playing every defence out: none needs more than 100k nodes.
    for r in &rows[41..] {
        let n = r["proof_nodes"].as_u64().unwrap();
        assert!(n > 0 && n < 100_000, "{r}");
    }
}
