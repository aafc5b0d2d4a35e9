//! `pns tune` as a user sees it: one-line usage errors with status 2, the
//! path printed step by step, and the documented JSON object.

use std::process::{Command, Output};

fn pns(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pns"))
        .args(args)
        .output()
        .expect("run pns")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn assert_usage_error(o: &Output, needle: &str) {
    assert_eq!(o.status.code(), Some(2), "stderr: {}", stderr(o));
    let e = stderr(o);
    assert!(e.contains(needle), "expected '{needle}' in: {e}");
    assert_eq!(e.lines().count(), 1, "{e}");
}

const TREE: &str = "shape=unbalanced,depth=12,branching=4,seed=3,pool=300";

#[test]
fn bad_input_is_a_one_line_error_with_status_2() {
    assert_usage_error(&pns(&["tune", "chess"]), "unknown game 'chess'");
    assert_usage_error(
        &pns(&["tune", "connect4", "4458"]),
        "invalid connect4 position",
    );
    assert_usage_error(
        &pns(&["tune", "connect4", "44", "--method", "simplex"]),
        "--method 'simplex'",
    );
    assert_usage_error(
        &pns(&["tune", "connect4", "44", "--goal", "draw"]),
        "--goal 'draw'",
    );
    assert_usage_error(
        &pns(&["tune", "connect4", "44", "--cutoff", "0"]),
        "--cutoff",
    );
    assert_usage_error(
        &pns(&["tune", "connect4", "44", "--e-max", "1"]),
        "at least 2",
    );
    assert_usage_error(&pns(&["tune", "connect4", "44", "--hash", "0"]), "--hash");
}

#[test]
fn human_output_shows_the_path_and_table_3() {
    let o = pns(&[
        "tune",
        "synthetic",
        TREE,
        "--method",
        "both",
        "--e-max",
        "6",
        "--d-max",
        "5",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for needle in [
        "hill-climbing (Deep df-pn §6.4, Algorithm 1) from (E, D) = (2, 2)",
        "step 1: node(3, 2) = ",
        "ended: ",
        "result     E = ",
        "grid       E 1..6 x D 1..5",
        "best       E = ",
        "Table 3",
    ] {
        assert!(out.contains(needle), "expected '{needle}' in:\n{out}");
    }
}

#[test]
fn json_has_the_path_and_the_result() {
    let o = pns(&[
        "tune",
        "synthetic",
        TREE,
        "--method",
        "both",
        "--e-max",
        "6",
        "--d-max",
        "5",
        "--json",
        "--goal",
        "not-lose",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("one JSON object");
    let r = &v["report"];
    assert_eq!(v["game"], "synthetic");
    assert_eq!(r["goal"], "not-lose");
    assert_eq!(r["method"], "both");
    let path = r["hill"]["path"].as_array().unwrap();
    assert_eq!(
        (path[0]["e"].as_u64(), path[0]["d"].as_u64()),
        (Some(2), Some(2))
    );
    assert!(r["hill"]["steps"].as_array().is_some());
    assert!(["local-optimum", "flat", "boundary"].contains(&r["hill"]["end"].as_str().unwrap()));
    assert_eq!(r["grid"]["cells"].as_array().unwrap().len(), 30);
    let diff = r["comparison"]["nodes_difference"].as_i64().unwrap();
    assert!(diff >= 0, "hill-climbing beat the whole grid: {diff}");
    let hill = r["hill"]["result"]["nodes"].as_i64().unwrap();
    let best = r["grid"]["best"]["nodes"].as_i64().unwrap();
    assert_eq!(hill - best, diff);
    assert!(r["runs"].as_array().unwrap().len() >= 30);
}
