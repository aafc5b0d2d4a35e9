//! `pns usi` driven as a GUI drives a mate engine: a scripted session
//! through the binary's stdin and stdout; and `pns solve tsume`,
//! `pns bench tsume` and `pns verify tsume` as a user runs them.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use pns_core::prelude::*;
use pns_games::shogi::Tsume;

const MATE7: &str = "9/9/9/4k4/9/4P4/9/9/9 b 4G2r2b4s4n4l17p 1";
const NOMATE: &str = "9/4k4/9/4P4/9/9/9/9/9 b G2r2b4s4n4l17p 1";

/// Runs `pns usi` with `script` on stdin, then closes stdin (the engine
/// answers every search before it ends: a `quit` at once would stop the
/// last one); returns its stdout lines.
fn usi_session(script: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pns"))
        .arg("usi")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run pns usi");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Plays the `checkmate` line on `sfen` and checks it is a mate.
fn check_mate_line(sfen: &str, line: &str) -> usize {
    let mut t = Tsume::parse(sfen).unwrap();
    let moves: Vec<&str> = line.split_whitespace().skip(1).collect();
    for m in &moves {
        let mv = t.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        t.play(mv);
    }
    assert_eq!(t.outcome(), Some(pns_core::Outcome::Loss), "{line}");
    moves.len()
}

#[test]
fn scripted_gui_session() {
    let script = format!(
        "usi\nsetoption name USI_Hash value 32\nisready\nusinewgame\n\
         position sfen {MATE7}\ngo mate 20000\n\
         position sfen {NOMATE}\ngo mate infinite\n\
         position startpos moves 7g7f\ngo mate 5000\n"
    );
    let lines = usi_session(&script);
    assert!(lines[0].starts_with("id name "), "{lines:?}");
    assert!(lines[1].starts_with("id author "), "{lines:?}");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name USI_Hash type spin")));
    let usiok = lines.iter().position(|l| l == "usiok").unwrap();
    let readyok = lines.iter().position(|l| l == "readyok").unwrap();
    assert!(usiok < readyok);
    let answers: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("checkmate"))
        .collect();
    assert_eq!(answers.len(), 3, "{lines:?}");
    assert_eq!(check_mate_line(MATE7, answers[0]), 7);
    assert_eq!(answers[1], "checkmate nomate");
    assert_eq!(answers[2], "checkmate nomate");
    // The mate is said proven before its answer is read, once: the no-mate
    // searches say nothing of the kind.
    let proven: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("info string mate proven after "))
        .collect();
    assert_eq!(proven.len(), 1, "{lines:?}");
    assert!(proven[0] < lines.iter().position(|l| l == answers[0]).unwrap());
    // Every search reports time, nodes, nps and hashfull.
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info time"))
        .collect();
    assert!(infos.len() >= 3, "{lines:?}");
    for i in infos {
        let w: Vec<&str> = i.split_whitespace().collect();
        assert_eq!(
            [w[1], w[3], w[5], w[7]],
            ["time", "nodes", "nps", "hashfull"],
            "{i}"
        );
    }
}

/// Runs `pns usi` on `script`, then reads its output: writes what `react`
/// returns for a line, and `quit` after a `checkmate` answer. Returns the
/// answers, each with the time since the last reaction (if any).
fn usi_answers(
    script: &str,
    mut react: impl FnMut(&str) -> Option<&'static str>,
) -> Vec<(String, Option<std::time::Duration>)> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pns"))
        .arg("usi")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    writeln!(stdin, "{script}").unwrap();
    let mut answers = Vec::new();
    let mut reacted_at = None;
    let mut line = String::new();
    loop {
        line.clear();
        if stdout.read_line(&mut line).unwrap() == 0 {
            break;
        }
        if let Some(reply) = react(&line) {
            writeln!(stdin, "{reply}").unwrap();
            reacted_at = Some(std::time::Instant::now());
        }
        if line.starts_with("checkmate") {
            answers.push((
                line.trim().to_string(),
                reacted_at.map(|t: std::time::Instant| t.elapsed()),
            ));
            writeln!(stdin, "quit").unwrap();
        }
    }
    assert!(child.wait().unwrap().success());
    answers
}

#[test]
fn stop_ends_a_search_with_one_answer() {
    // Stop as soon as the search starts: the answer is a mate (if it was
    // quick) or a timeout, and exactly one comes.
    let sfen = "ln1p5/2k1p4/1pgP+P4/p8/1P7/P8/9/9/9 b RG2Sr2b2g2s3n3l10p 1";
    let answers = usi_answers(
        &format!("isready\nposition sfen {sfen}\ngo mate infinite\nstop"),
        |_| None,
    );
    assert_eq!(answers.len(), 1, "{answers:?}");
    let a = &answers[0].0;
    assert!(
        a == "checkmate timeout" || check_mate_line(sfen, a) == 9,
        "{a}"
    );
}

#[test]
fn bad_commands_get_info_strings_not_a_crash() {
    let lines = usi_session(
        "usi\nsetoption name USI_Hash value lots\nsetoption name Bogus value 1\nfrobnicate\n\
         position sfen 9/9/9/9/9/9/9/9/9 b - 1\ngo mate 100\nposition nonsense\ngo mate 1x\n\
         isready\nquit\n",
    );
    let errors = lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .count();
    assert!(errors >= 5, "{lines:?}");
    assert!(lines.contains(&"readyok".to_string()));
}

fn pns(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pns"))
        .args(args)
        .output()
        .expect("run pns")
}

#[test]
fn solve_tsume_prints_the_answer() {
    let o = pns(&["solve", "tsume", MATE7, "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["value"], "mate");
    assert_eq!(v["length"], 7);
    assert_eq!(v["length_exact"], true);
    assert_eq!(v["line"].as_array().unwrap().len(), 7);
    // The exact length search answered: no proof was read from the table.
    assert!(v["proof_reading"].is_null(), "{v}");
    let o = pns(&["solve", "tsume", NOMATE, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["value"], "nomate");
    assert!(v["length"].is_null());
    let o = pns(&["solve", "tsume", "9/9/9/9/9/9/9/9/9 b - 1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no white king"));
    let o = pns(&["solve", "tsume", MATE7, "--algo", "pns"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn tsume_certificates_verify_and_tampering_is_rejected() {
    let dir = std::env::temp_dir().join(format!("pns-usi-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mate7.txt");
    let f = file.to_str().unwrap();
    let o = pns(&["solve", "tsume", MATE7, "--proof", f]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = pns(&["verify", "tsume", MATE7, f]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    // Drop a defender's reply: a node with several moves loses its last.
    let text = std::fs::read_to_string(&file).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let i = lines
        .iter()
        .position(|l| l.split_whitespace().count() > 2 && l.contains(':'))
        .expect("a node with two moves");
    let mut words: Vec<&str> = lines[i].split_whitespace().collect();
    words.pop();
    lines[i] = words.join(" ");
    let bad = dir.join("mate7-bad.txt");
    std::fs::write(&bad, lines.join("\n") + "\n").unwrap();
    let o = pns(&["verify", "tsume", MATE7, bad.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

#[test]
fn bench_tsume_checks_values_and_lengths() {
    let beside = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(3)
        .unwrap();
    let data = beside.join("shared/data/shogi/antma-tsume.tsv");
    assert!(data.exists(), "test data not found: {}", data.display());
    let o = pns(&[
        "bench",
        "tsume",
        data.to_str().unwrap(),
        "--verify",
        "--hash",
        "16",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("72 problems, 72 solved, 72 right"), "{out}");
    assert!(out.contains("69 mate proofs verified, 0 rejected"), "{out}");
    // A wrong length is caught.
    let dir = std::env::temp_dir().join(format!("pns-usi-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("wrong.tsv");
    std::fs::write(&f, format!("{MATE7}\t9\n")).unwrap();
    let o = pns(&["bench", "tsume", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
}

// The one helper that finds ../shared/data (and names it when missing).
use crate::shared_data;

/// Microcosmos after the first `k` plies of its published main line: the
/// last 1525 − k plies are a mate the engine proves in a moment.
fn microcosmos_tail(k: usize) -> String {
    let problems = shared_data::read_shared("shogi/long-problems.tsv");
    let sfen = problems
        .lines()
        .find(|l| l.contains("Microcosmos"))
        .expect("Microcosmos is in long-problems.tsv")
        .split('\t')
        .next()
        .unwrap()
        .to_string();
    let answer = shared_data::read_shared("shogi/microcosmos-answer.usi");
    let moves: Vec<&str> = answer.split_whitespace().take(k).collect();
    format!("{sfen} moves {}", moves.join(" "))
}

/// The last 25 plies of Microcosmos: proven in about 9,000 visits, but the
/// exact length search does not reach the mate within its first 2 M
/// positions. The answer then comes from the proof read back from the
/// table (`proof_reading` is an object), and the length search resumed
/// below that line's 25 plies confirms it the shortest.
#[test]
fn solve_tsume_reads_the_proof_when_the_length_search_gives_up() {
    let tail = microcosmos_tail(1500);
    let o = pns(&["solve", "tsume", &tail, "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["value"], "mate");
    assert_eq!(v["length"], 25, "{v}");
    assert_eq!(v["length_exact"], true, "{v}");
    let r = &v["proof_reading"];
    assert!(r.is_object(), "{v}");
    for field in ["ms", "explored", "nodes"] {
        assert!(r[field].as_f64().is_some_and(|x| x > 0.0), "{field}: {r}");
    }
    // More positions than the first budget: the resumed search ran.
    assert!(v["length_nodes"].as_u64().unwrap() > 2_000_000, "{v}");
    let line: Vec<&str> = v["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(
        check_mate_line(&tail, &format!("checkmate {}", line.join(" "))),
        25
    );
}

/// `stop` while the engine reads the answer of a proven mate (the length
/// search and the proof reading, several seconds on this tail): one
/// answer comes at once, a mate line or `checkmate timeout`.
#[test]
fn stop_during_the_answer_reading_ends_it() {
    let tail = microcosmos_tail(1500);
    let answers = usi_answers(
        &format!("isready\nposition sfen {tail}\ngo mate infinite"),
        |line| {
            line.starts_with("info string mate proven")
                .then_some("stop")
        },
    );
    assert_eq!(answers.len(), 1, "{answers:?}");
    let (a, after_stop) = &answers[0];
    let after_stop = after_stop.expect("the mate was proven before the answer");
    // Unstopped, the answer takes several seconds (the first 2 M positions
    // of the length search, the reading, the resumed search).
    assert!(
        after_stop < std::time::Duration::from_secs(2),
        "{after_stop:?} after stop"
    );
    assert!(
        a == "checkmate timeout" || check_mate_line(&tail, a) % 2 == 1,
        "{a}"
    );
}
