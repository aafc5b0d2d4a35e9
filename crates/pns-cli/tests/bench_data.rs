//! The CI checks, run as the user would: `pns bench` on the
//! external test data with `--verify`.

use std::process::Command;

fn data(rel: &str) -> String {
    format!("{}/../../../shared/data/{rel}", env!("CARGO_MANIFEST_DIR"))
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
fn hex_openings_4x4_and_5x5_are_correct_and_verified() {
    // The file lists 16 4x4 openings, then 25 5x5, 36 6x6, 49 7x7.
    let rows = hex_openings(&["--limit", "41", "--verify"], 41);
    for r in &rows {
        assert_eq!(r["verified"], true, "{r}");
        assert!(
            r["position"].as_str().unwrap().starts_with(['4', '5']),
            "{r}"
        );
    }
}

#[test]
fn hex_openings_6x6_are_correct() {
    // All 36 against Benzene's labels; certificates for every 6x6 opening
    // take tens of minutes in all (docs/PERFORMANCE.md), so CI verifies
    // five of them below.
    let rows = hex_openings(&["--skip", "41", "--limit", "36"], 36);
    for r in &rows {
        assert!(r["position"].as_str().unwrap().starts_with("6 "), "{r}");
    }
}

#[test]
fn hex_6x6_certificates_are_verified() {
    // The openings on row 1 but f1 (White wins): certificates of 20k to
    // 90k nodes, mostly concessions and connection claims, a few seconds
    // in all.
    let cases = [
        ("41", "6 a1"),
        ("47", "6 b1"),
        ("53", "6 c1"),
        ("59", "6 d1"),
        ("65", "6 e1"),
    ];
    for (skip, cell) in cases {
        let rows = hex_openings(&["--skip", skip, "--limit", "1", "--verify"], 1);
        assert_eq!(rows[0]["position"], cell, "{}", rows[0]);
        assert_eq!(rows[0]["verified"], true, "{}", rows[0]);
        let n = rows[0]["proof_nodes"].as_u64().unwrap();
        assert!(n > 1000 && n < 200_000, "{}", rows[0]);
    }
}
