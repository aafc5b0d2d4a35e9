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
