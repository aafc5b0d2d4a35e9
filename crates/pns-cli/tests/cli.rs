//! The `pns` command as a user sees it: exit statuses, one-line errors,
//! limits that end in `unknown`, certificates that verify and tampered ones
//! that do not.

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

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("pns-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

fn assert_usage_error(o: &Output, needle: &str) {
    assert_eq!(o.status.code(), Some(2), "stderr: {}", stderr(o));
    let e = stderr(o);
    assert!(e.contains(needle), "expected '{needle}' in: {e}");
    assert!(!e.contains("panicked"), "{e}");
}

#[test]
fn bad_input_is_a_one_line_error_with_status_2() {
    let o = pns(&["solve", "chess", "e4"]);
    assert_usage_error(&o, "unknown game 'chess'");
    assert_eq!(stderr(&o).lines().count(), 1);
    let o = pns(&["solve", "connect4", "4458"]);
    assert_usage_error(&o, "invalid connect4 position");
    assert_eq!(stderr(&o).lines().count(), 1);
    assert_usage_error(&pns(&["solve", "connect4", "1111111"]), "column 1 is full");
    assert_usage_error(
        &pns(&["solve", "connect4", "44", "--algo", "minimax"]),
        "unknown algorithm",
    );
    assert_usage_error(
        &pns(&["solve", "connect4", "44", "--algo", "deeppn:r=7"]),
        "r must be in",
    );
    assert_usage_error(&pns(&["solve", "connect4", "44", "--hash", "0"]), "--hash");
    assert_usage_error(&pns(&["solve", "connect4", "44", "--time=-1"]), "--time");
    assert_usage_error(&pns(&["solve", "tictactoe", "55"]), "already taken");
    assert_usage_error(
        &pns(&["solve", "connect4", "", "--shuffle", "3"]),
        "hex only",
    );
    // Unknown options and missing arguments: one line too.
    let o = pns(&["solve", "connect4", "44", "--frobnicate"]);
    assert_usage_error(&o, "--frobnicate");
    assert_eq!(stderr(&o).lines().count(), 1);
    let o = pns(&["verify", "connect4"]);
    assert_usage_error(&o, "required");
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(pns(&["--help"]).status.success());
    let o = pns(&["bench", "connect4", "/nonexistent/file"]);
    assert_usage_error(&o, "cannot read");
    let o = pns(&["verify", "connect4", "44", "/nonexistent/file"]);
    assert_usage_error(&o, "cannot read");
}

#[test]
fn limits_end_the_search_with_unknown_and_statistics() {
    for args in [
        vec!["--nodes", "50"],
        vec!["--time", "0"],
        vec!["--algo", "pns", "--memory", "1"],
    ] {
        let mut a = vec!["solve", "connect4", "", "--json"];
        a.extend(args.iter());
        let o = pns(&a);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["value"], "unknown", "{args:?}");
        assert!(v["stop"].is_string(), "{v}");
        assert!(v["stats"]["visits"].as_u64().unwrap() > 0);
    }
}

#[test]
fn solve_json_has_the_documented_fields() {
    let o = pns(&["solve", "tictactoe", "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["value"], "draw");
    assert_eq!(v["game"], "tictactoe");
    assert_eq!(v["side_to_move"], "first");
    assert!(v["best_move"].is_string());
    assert_eq!(v["searches"].as_array().unwrap().len(), 2);
    for k in [
        "iterations",
        "visits",
        "nodes",
        "seesaw_revisits",
        "max_pn",
        "time_ms",
        "tt_hits",
    ] {
        assert!(v["stats"][k].is_number(), "stats.{k}");
    }
}

#[test]
fn certificates_verify_and_tampering_is_caught() {
    let pos = "4455"; // X to move threatens a double open three: a win.
    let f = tmp("cert.txt");
    let o = pns(&["solve", "connect4", pos, "--proof", f.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("value      win"));
    let o = pns(&["verify", "connect4", pos, f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("valid: win"));

    let text = std::fs::read_to_string(&f).unwrap();
    let check_bad = |bad: String, needle: &str| {
        let g = tmp("bad.txt");
        std::fs::write(&g, bad).unwrap();
        let o = pns(&["verify", "connect4", pos, g.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
        assert!(
            stdout(&o).contains(needle),
            "'{needle}' not in {}",
            stdout(&o)
        );
    };
    // Claim a different value.
    check_bad(text.replace("value win", "value loss"), "invalid");
    // Replace the root's winning move by another legal move.
    let lines: Vec<&str> = text.lines().collect();
    let first_node = lines.iter().position(|l| l.starts_with("block ")).unwrap() + 1;
    let root = first_node;
    assert!(lines[root].starts_with("0 "));
    let mut moved = lines.clone();
    let other = if moved[root].starts_with("0 1:") {
        "0 2:"
    } else {
        "0 1:"
    };
    let rest = moved[root].split_once(':').unwrap().1.to_string();
    let new_root = format!("{other}{rest}");
    moved[root] = &new_root;
    check_bad(moved.join("\n") + "\n", "invalid");
    // Drop one defender move from an AND node (a line with several moves).
    let and = first_node
        + lines[first_node..]
            .iter()
            .position(|l| l.split_whitespace().count() > 2)
            .unwrap();
    let mut dropped = lines.clone();
    let mut toks: Vec<&str> = dropped[and].split_whitespace().collect();
    toks.remove(1);
    let short = toks.join(" ");
    dropped[and] = &short;
    check_bad(dropped.join("\n") + "\n", "missing");
    // Another position.
    let o = pns(&["verify", "connect4", "44", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("different position"));
    // Garbage.
    check_bad("hello\n".into(), "not a pns certificate");
}

#[test]
fn bench_reads_pons_format_and_prints_json_lines() {
    let f = tmp("set.txt");
    // Three end-game positions of Test_L3_R1; the third label is made wrong
    // (it is a draw, labelled as a win).
    std::fs::write(
        &f,
        "2252576253462244111563365343671351441 -1\n7422341735647741166133573473242566 1\n\n23163416124767223154467471272416755633 5\n",
    )
    .unwrap();
    let o = pns(&[
        "bench",
        "connect4",
        f.to_str().unwrap(),
        "--verify",
        "--json",
        "--threads",
        "2",
    ]);
    let out = stdout(&o);
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["position"], "2252576253462244111563365343671351441");
    assert_eq!(rows[0]["expected"], "loss");
    for r in &rows {
        for k in ["value", "correct", "verified", "nodes", "time_ms"] {
            assert!(!r[k].is_null(), "{k} in {r}");
        }
        assert_eq!(r["verified"], true);
    }
    assert!(stderr(&o).contains("verified"));
    assert_eq!(rows[0]["correct"], true);
    assert_eq!(rows[1]["correct"], true);
    // The wrong label is reported and makes the status 1.
    assert_eq!(rows[2]["correct"], false);
    assert_eq!(rows[2]["value"], "draw");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("WRONG"));
}

#[cfg(unix)]
#[test]
fn a_closed_output_pipe_ends_the_program_without_a_panic() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    // `pns ... | head`: the reader goes away before the output is written
    // (the solve takes a tenth of a second).
    let mut child = Command::new(env!("CARGO_BIN_EXE_pns"))
        .args(["solve", "hex", "6 a1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run pns");
    drop(child.stdout.take());
    let o = child.wait_with_output().expect("wait for pns");
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    // Ended by SIGPIPE (13), as other Unix tools are.
    assert_eq!(o.status.signal(), Some(13), "{:?} {err}", o.status);
}

#[test]
fn hex_certificates_report_their_node_kinds_and_verify() {
    // 6x6 b2: Black wins through claims, concessions and fills.
    let f = tmp("hex-cert.txt");
    let o = pns(&[
        "solve",
        "hex",
        "6 b2",
        "--proof",
        f.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let p = &v["proof"];
    let n = |k: &str| p[k].as_u64().unwrap_or_else(|| panic!("proof.{k}: {p}"));
    assert!(
        n("claims") > 0 && n("concessions") > 0 && n("fills") > 0,
        "{p}"
    );
    assert!(
        n("claims") + n("concessions") + n("fills") < n("nodes"),
        "{p}"
    );
    let o = pns(&["verify", "hex", "6 b2", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("valid: loss"));
}

// The one helper that finds ../shared/data (and names it when missing).
use crate::shared_data;

/// The position of line `n` (from 1) of an .obf file: board and side.
fn obf_position(file: &str, n: usize) -> String {
    let text = shared_data::read_shared(file);
    let line = text.lines().nth(n - 1).expect("the line exists");
    line.split(';').next().unwrap().trim().to_string()
}

#[test]
fn impossible_table_sizes_are_usage_errors() {
    for mb in ["18446744073709551615", "100000000"] {
        for cmd in [
            vec!["solve", "tictactoe", "--hash", mb],
            vec!["tune", "tictactoe", "--hash", mb],
        ] {
            let o = pns(&cmd);
            assert_usage_error(&o, "--hash");
            assert_eq!(stderr(&o).lines().count(), 1, "{cmd:?}: {}", stderr(&o));
        }
    }
    // bench: one table per thread, all made before the first search.
    let f = tmp("hash-set.txt");
    std::fs::write(&f, "4455 1\n").unwrap();
    let o = pns(&[
        "bench",
        "connect4",
        f.to_str().unwrap(),
        "--hash",
        "100000000",
    ]);
    assert_usage_error(&o, "--hash 100000000");
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
}

#[test]
fn huge_times_are_no_limit_and_nan_is_an_error() {
    for t in ["1e30", "9.3e18", "inf"] {
        let o = pns(&["solve", "tictactoe", "--time", t, "--json"]);
        assert_eq!(o.status.code(), Some(0), "--time {t}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["value"], "draw", "--time {t}");
    }
    assert_usage_error(&pns(&["solve", "tictactoe", "--time", "NaN"]), "--time");
}

#[test]
fn saturating_deep_dfpn_parameters_end_and_huge_costs_are_refused() {
    // These spun for ever: leaf values past 2^62 saturate, and a saturated
    // second-best child gave the best one a threshold it already met.
    let t0 = std::time::Instant::now();
    for (game, algo, value) in [
        ("tictactoe", "deep-dfpn:e=20,d=15", "draw"),
        ("tictactoe", "deep-dfpn:e=20,d=16", "draw"),
        ("tictactoe", "deep-dfpn:e=2,d=62", "draw"),
        ("tictactoe", "deep-dfpn:e=3,d=99999", "draw"),
        ("connect4", "deep-dfpn:e=20,d=16", "win"),
        ("connect4", "deep-dfpn:e=2,d=62", "win"),
        ("connect4", "deep-dfpn:e=3,d=99999", "win"),
    ] {
        // The time limit only keeps a regression from hanging the test.
        let o = pns(&["solve", game, "--algo", algo, "--time", "20", "--json"]);
        assert_eq!(o.status.code(), Some(0), "{algo}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["value"], value, "{game} {algo}: {v}");
    }
    assert!(t0.elapsed() < std::time::Duration::from_secs(30));
    for algo in [
        "dfpn-plus:cost-phi=9223372036854775807",
        "dfpn-plus:cost-delta=-4611686018427387904",
    ] {
        assert_usage_error(
            &pns(&["solve", "tictactoe", "--algo", algo]),
            "must be between -1000000 and 1000000",
        );
    }
    assert_usage_error(
        &pns(&["solve", "tictactoe", "--algo", "dfpn:h=1,h=0"]),
        "parameter h given twice",
    );
}

/// Runs `pns ARGS --json`, which must stop at its time limit: returns the
/// wall time and checks the value is `unknown`, stopped by the time limit.
fn timed_unknown(args: &[&str]) -> std::time::Duration {
    let t0 = std::time::Instant::now();
    let mut a = args.to_vec();
    a.push("--json");
    let o = pns(&a);
    let wall = t0.elapsed();
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["value"], "unknown", "{args:?}");
    assert_eq!(v["stop"], "time-limit", "{args:?}");
    wall
}

#[test]
fn the_time_limit_is_honoured_on_slow_and_fast_games() {
    // A Hex 11x11 node takes about 0.1 s (over 100 children, each with
    // H-search); the clock used to be read every 4096 units of work, which
    // made --time 0.5 take 2 to 7 s. The slack covers start-up and one node,
    // with the other tests sharing the two cores (CI runs them at once).
    let slack = std::time::Duration::from_millis(1500);
    for algo in ["dfpn", "pns"] {
        let wall = timed_unknown(&["solve", "hex", "11", "--time", "0.5", "--algo", algo]);
        assert!(wall < slack, "hex 11 --algo {algo}: {wall:?}");
    }
    // Fast games and the other loops: Connect Four and Othello from the
    // start, a deep synthetic tree.
    for args in [
        vec!["solve", "connect4", "", "--time", "0.5"],
        vec!["solve", "connect4", "", "--time", "0.5", "--algo", "pds"],
        vec!["solve", "othello", "", "--time", "0.5", "--algo", "pnstar"],
        vec!["solve", "othello", "", "--time", "0.5", "--algo", "mcpns"],
        vec![
            "solve",
            "synthetic",
            "shape=balanced,depth=40,branching=3,seed=1",
            "--time",
            "0.5",
            "--algo",
            "ppns",
        ],
    ] {
        let wall = timed_unknown(&args);
        assert!(wall < slack, "{args:?}: {wall:?}");
    }
}

#[test]
fn positions_beginning_with_a_dash_work_as_typed() {
    // Line 2 of fforum-1-19.obf: "-XXXXXX---XOOOO-..." (a win, 15 empties).
    let pos = obf_position("othello/fforum-1-19.obf", 2);
    assert!(pos.starts_with('-'), "{pos}");
    let f = tmp("othello cert's.txt");
    let o = pns(&["solve", "othello", &pos, "--proof", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("value      win"), "{out}");
    // The verify hint, pasted into a shell, checks the certificate.
    let hint = out
        .lines()
        .find_map(|l| l.split_once("check it with: pns "))
        .map(|(_, cmd)| cmd.to_string())
        .expect("a verify hint");
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!("\"$PNS\" {hint}"))
        .env("PNS", env!("CARGO_BIN_EXE_pns"))
        .output()
        .expect("run sh");
    assert_eq!(o.status.code(), Some(0), "{hint}: {}", stderr(&o));
    assert!(stdout(&o).contains("valid: win"), "{}", stdout(&o));
    // verify and tune take the position as typed too.
    let o = pns(&["verify", "othello", &pos, f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = pns(&["tune", "othello", &pos, "--cutoff", "2000", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The default position (printed by `pns list`) begins with '-' too.
    let list = stdout(&pns(&["list"]));
    let default = list
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("othello"))
        .find_map(|l| l.trim().strip_prefix("default position: "))
        .expect("othello's default")
        .to_string();
    let o = pns(&["solve", "othello", &default, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // A real unknown option is still an error, before or after the position.
    for args in [
        vec!["solve", "othello", "--bogus"],
        vec!["solve", "othello", &pos, "--bogus"],
        vec!["verify", "othello", "--bogus", "file"],
        vec!["solve", "connect4", "--bogus"],
    ] {
        let o = pns(&args);
        assert_usage_error(&o, "'--bogus'");
        assert!(stderr(&o).contains("unexpected argument"), "{}", stderr(&o));
        assert_eq!(stderr(&o).lines().count(), 1);
    }
}

#[test]
fn bench_limits_and_threads_are_sane() {
    let f = tmp("threads-set.txt");
    // Two end-game positions of Test_L3_R1 with their labels.
    std::fs::write(
        &f,
        "2252576253462244111563365343671351441 -1\n7422341735647741166133573473242566 1\n",
    )
    .unwrap();
    let file = f.to_str().unwrap();
    assert_usage_error(
        &pns(&["bench", "connect4", file, "--limit", "0"]),
        "--limit must be at least 1",
    );
    assert_usage_error(
        &pns(&["bench", "connect4", file, "--threads", "0"]),
        "--threads must be at least 1",
    );
    // Two positions: two threads at most, however many are asked for.
    let o = pns(&["bench", "connect4", file, "--threads", "100000"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("2 positions, algorithm dfpn, 2 thread(s)"),
        "{}",
        stdout(&o)
    );
    let o = pns(&["bench", "connect4", file, "--limit", "1"]);
    assert!(stdout(&o).contains("1 positions"), "{}", stdout(&o));
}

#[test]
fn a_certificate_that_is_not_text_is_invalid_not_a_usage_error() {
    let f = tmp("binary.txt");
    std::fs::write(&f, b"pns-certificate \xff\xfe\n").unwrap();
    let o = pns(&["verify", "connect4", "44", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("invalid: "), "{}", stdout(&o));
    assert!(stdout(&o).contains("not UTF-8"), "{}", stdout(&o));
    let o = pns(&["verify", "connect4", "44", f.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["valid"], false);
}

#[test]
fn an_unwritable_proof_file_keeps_the_result_and_fails() {
    let bad = "/nonexistent-pns-dir/p.txt";
    let o = pns(&["solve", "connect4", "4455", "--proof", bad]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("value      win"), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("cannot write the certificate"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("panicked"));
    let o = pns(&["solve", "connect4", "4455", "--proof", bad, "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["value"], "win");
    assert!(v["proof_error"].as_str().unwrap().contains(bad), "{v}");
}

#[test]
fn games_that_repeat_are_solved_along_the_line() {
    // A graph where the path-blind search is wrong: the side to move wins.
    let pos = "rule=cpl,nodes=12,degree=3,seed=13,terminal=15";
    let value = |algo: &str| {
        let o = pns(&["solve", "cyclic", pos, "--algo", algo, "--json"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        v["value"].as_str().unwrap().to_string()
    };
    for algo in [
        "dfpn",
        "dfpn:ghi=sim",
        "dfpn:ghi=dup",
        "wpns",
        "deep-dfpn:e=2,d=3",
    ] {
        assert_eq!(value(algo), "win", "{algo}");
    }
    assert_eq!(value("dfpn:ghi=ignore"), "loss");
    // The certificate verifies with the line followed.
    let proof = tmp("cyclic.txt");
    let o = pns(&["solve", "cyclic", pos, "--proof", proof.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = pns(&["verify", "cyclic", pos, proof.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Algorithms that do not follow the line are refused, not run.
    for algo in ["pns", "pds", "pnstar", "deeppn", "mcpns"] {
        let o = pns(&["solve", "cyclic", pos, "--algo", algo]);
        assert_usage_error(&o, "follows the line");
    }
}
