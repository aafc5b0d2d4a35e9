//! Fuego's ladder regression cases (`../shared/data/go/fuego-ladder.tsv`):
//! each case loads a record (up to a move, with extra moves), sets the ko
//! rule where the case names one, and asks `go_ladder VERTEX` (or
//! `go_static_ladder`) of the GTP engine: `captured`, `escaped` or
//! `unsettled` must match Fuego's.

use crate::shared_data;

use pns_go::gtp::Engine;
use shared_data::{read_shared, shared_data};

#[test]
fn every_fuego_ladder_case_is_answered_right() {
    let text = read_shared("go/fuego-ladder.tsv");
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
    let mut n = 0;
    let mut wrong = Vec::new();
    for l in lines.filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = l.split('\t').collect();
        let mut e = Engine::new();
        let mut ask = |c: String| {
            let r = e.handle(&c).expect("a response");
            assert!(r.starts_with('='), "case {}: {c} -> {r}", f[id]);
            r.trim_start_matches('=').trim().to_string()
        };
        if let Some((k, v)) = f[rules].split_once('=') {
            ask(format!("go_param_rules {k} {v}"));
        }
        let path = root.join(f[sgf]);
        ask(match f[until] {
            "end" => format!("loadsgf {}", path.display()),
            m => format!("loadsgf {} {m}", path.display()),
        });
        if f[extra] != "-" {
            for m in f[extra].split_whitespace() {
                let (c, v) = m.split_once(':').expect("C:VERTEX");
                ask(format!("play {c} {v}"));
            }
        }
        let got = ask(format!("{} {}", f[cmd], f[args]));
        if got != f[want] {
            wrong.push(format!(
                "case {}: {} {} -> {got}, want {}",
                f[id], f[cmd], f[args], f[want]
            ));
        }
        n += 1;
    }
    assert_eq!(n, 13);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The README's GTP example for `attack` and `go_ladder`.
#[test]
fn readme_capture_example() {
    let mut e = Engine::new();
    let gnugo = shared_data("go/gnugo/regression/games/incident2.sgf");
    let fuego = shared_data("go/fuego/regression/sgf/ladder/long-ladder.sgf");
    let mut ask = |c: String| e.handle(&c).expect("a response");
    eprintln!("{}", ask(format!("loadsgf {} 212", gnugo.display())));
    assert_eq!(ask("attack F1".into()), "= 1 G1\n\n");
    eprintln!("{}", ask(format!("loadsgf {}", fuego.display())));
    assert_eq!(ask("go_ladder C4".into()), "= unsettled\n\n");
    assert!(ask("attack pass".into()).starts_with("? "));
    assert!(ask("attack".into()).starts_with("? "));
}
