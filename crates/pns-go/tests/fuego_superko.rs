//! Fuego's super-ko regression cases (`../shared/data/go/fuego-superko.tsv`):
//! each case loads a record up to a move, sets the ko rule with Fuego's
//! `go_param_rules ko_rule ...` and asks `is_legal COLOR VERTEX` of the GTP
//! engine, whose answer must match the expected one.

use crate::shared_data;

use pns_go::gtp::Engine;
use shared_data::{read_shared, shared_data};

/// One line of the file: (id, GTP commands to send, expected answer).
fn cases() -> Vec<(String, Vec<String>, String)> {
    let text = read_shared("go/fuego-superko.tsv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("no column {name}"))
    };
    let (id, sgf, until, extra, cmd, args, rules, want) = (
        col("id"),
        col("sgf"),
        col("load_before_move"),
        col("extra_moves"),
        col("command"),
        col("args"),
        col("go_param_rules"),
        col("expected_regex"),
    );
    let root = shared_data("go/fuego");
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let path = root.join(f[sgf]);
            let mut cmds = vec![];
            let (k, v) = f[rules].split_once('=').expect("name=value");
            cmds.push(format!("go_param_rules {k} {v}"));
            cmds.push(match f[until] {
                "end" => format!("loadsgf {}", path.display()),
                n => format!("loadsgf {} {n}", path.display()),
            });
            if f[extra] != "-" {
                for m in f[extra].split_whitespace() {
                    let (c, v) = m.split_once(':').expect("C:VERTEX");
                    cmds.push(format!("play {c} {v}"));
                }
            }
            cmds.push(format!("{} {}", f[cmd], f[args]));
            (f[id].to_string(), cmds, f[want].to_string())
        })
        .collect()
}

#[test]
fn every_fuego_superko_case_is_answered_right() {
    let cases = cases();
    assert_eq!(cases.len(), 15);
    let mut wrong = Vec::new();
    for (id, cmds, want) in &cases {
        let mut e = Engine::new();
        let mut last = String::new();
        for c in cmds {
            last = e.handle(c).expect("a response");
            assert!(last.starts_with('='), "case {id}: '{c}' failed: {last}");
        }
        let got = last.trim_start_matches('=').trim();
        if got != want {
            wrong.push(format!(
                "case {id}: {} -> {got}, expected {want}",
                cmds.join("; ")
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
