//! `pns connect6` and Connect6 through the generic commands: values,
//! certificates that verify (VCDT claims included), tampered claims that do
//! not, and one-line errors with status 2.

use std::process::{Command, Output};

fn pns(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pns"))
        .args(args)
        .output()
        .expect("run pns")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("pns-c6-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

const DOUBLE_FOUR: &str = "13x13 g7 a1c1 c5d5 e1g1 e5c8 i1k1 d8e8 a13c13";

#[test]
fn vcdt_alone_finds_and_checks_a_win() {
    let o = pns(&["connect6", "vcdt", DOUBLE_FOUR, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
    assert_eq!(v["vcdt"], true);
    assert_eq!(v["witness_checked"], true);
    assert_eq!(v["attacker"], "black");
    // White has no VCDT here (no threat at all).
    let o = pns(&[
        "connect6",
        "vcdt",
        DOUBLE_FOUR,
        "--attacker",
        "white",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
    assert_eq!(v["vcdt"], false);
}

#[test]
fn zone_solve_writes_a_certificate_the_verifier_accepts() {
    let pos = "8x8,k=5 d4 e4e5 d5c6 f3f6";
    let file = tmp("zone.txt");
    let o = pns(&[
        "connect6",
        "solve",
        pos,
        "--proof",
        file.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
    let value = v["value"].as_str().unwrap().to_string();
    // The generic solver agrees.
    let g = pns(&["solve", "connect6", pos, "--json"]);
    let gv: serde_json::Value = serde_json::from_str(out(&g).trim()).unwrap();
    assert_eq!(gv["value"].as_str().unwrap(), value);
    let ver = pns(&["verify", "connect6", pos, file.to_str().unwrap()]);
    assert_eq!(ver.status.code(), Some(0), "{} {}", out(&ver), err(&ver));
    assert!(out(&ver).contains(&value), "{}", out(&ver));
}

#[test]
fn propagated_zones_give_the_same_value_and_a_checked_certificate() {
    let pos = "8x8,k=5 d4 e4e5 d5c6 f3f6";
    let file = tmp("zone-propagated.txt");
    let base = pns(&["connect6", "solve", pos, "--json"]);
    let bv: serde_json::Value = serde_json::from_str(out(&base).trim()).unwrap();
    let o = pns(&[
        "connect6",
        "solve",
        pos,
        "--propagate",
        "on",
        "--proof",
        file.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).contains("propagated_zones"), "{}", out(&o));
    let v: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
    let value = v["value"].as_str().unwrap().to_string();
    assert_eq!(bv["value"].as_str().unwrap(), value);
    let ver = pns(&["verify", "connect6", pos, file.to_str().unwrap()]);
    assert_eq!(ver.status.code(), Some(0), "{} {}", out(&ver), err(&ver));
    assert!(out(&ver).contains(&value), "{}", out(&ver));
}

#[test]
fn a_tampered_claim_fails_verification() {
    let file = tmp("claim.txt");
    let o = pns(&[
        "connect6",
        "solve",
        DOUBLE_FOUR,
        "--proof",
        file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains(" ?"), "a VCDT claim: {text}");
    // Move the first stone of the claim to a useless cell.
    let bad = text.replacen("?f5", "?m12", 1).replacen("?f8", "?m12", 1);
    assert_ne!(bad, text);
    let bad_file = tmp("claim-bad.txt");
    std::fs::write(&bad_file, bad).unwrap();
    let ver = pns(&[
        "verify",
        "connect6",
        DOUBLE_FOUR,
        bad_file.to_str().unwrap(),
    ]);
    assert_eq!(ver.status.code(), Some(1), "{}", out(&ver));
}

#[test]
fn generic_commands_know_connect6() {
    let o = pns(&["list"]);
    assert!(out(&o).contains("connect6"));
    let o = pns(&["solve", "connect6", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
    assert_eq!(v["value"], "win");
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    for args in [
        vec!["connect6", "solve", "j10 j10k11"],
        vec!["connect6", "vcdt", "30x30"],
        vec!["connect6", "solve", "7x7,k=4 d4", "--algo", "pns"],
        vec!["connect6", "solve", "7x7,k=4 d4", "--top", "0"],
        vec!["connect6", "solve", "7x7,k=4 d4", "--zones", "maybe"],
        vec!["solve", "connect6", "7x7,k=4 z9"],
    ] {
        let o = pns(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", err(&o));
        assert_eq!(err(&o).lines().count(), 1, "{args:?}: {}", err(&o));
        assert!(!err(&o).contains("panicked"));
    }
}
