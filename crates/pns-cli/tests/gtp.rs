//! `pns gtp` driven as GoGui or twogtp would: commands on stdin, responses
//! on stdout. One Fuego super-ko case end to end (the library test in
//! pns-go runs all fifteen), errors as GTP errors, and `quit`.

use crate::piped;
use crate::shared_data;

use std::process::Command;

fn gtp(input: &str) -> (String, Option<i32>) {
    let out = piped::pns_piped(&["gtp"], input);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    (String::from_utf8(out.stdout).unwrap(), out.status.code())
}

#[test]
fn triple_ko_is_illegal_under_situational_super_ko_only() {
    // Fuego's repetition cases 40 and 41: White E7 before move 6.
    let sgf = shared_data::shared_data("go/fuego/regression/sgf/repetition/triple-ko.sgf");
    let input = format!(
        "1 loadsgf {0} 6\n2 is_legal w e7\n3 go_param_rules ko_rule superko\n4 loadsgf {0} 6\n5 is_legal w e7\n6 play w e7\n7 quit\n",
        sgf.display()
    );
    let (out, code) = gtp(&input);
    assert_eq!(code, Some(0));
    let answers: Vec<&str> = out.split("\n\n").filter(|s| !s.is_empty()).collect();
    assert_eq!(
        answers,
        [
            "=1 white",
            "=2 1",
            "=3",
            "=4 white",
            "=5 0",
            "?6 illegal move (repeats an earlier position (super-ko))",
            "=7"
        ]
    );
}

#[test]
fn bad_commands_are_gtp_errors_and_the_engine_goes_on() {
    let (out, code) =
        gtp("boardsize 40\nloadsgf /no/such.sgf\nplay b\nplay b A0\nfoo\nundo\none_eye A1\nname\n");
    assert_eq!(code, Some(0), "end of input ends the engine");
    let answers: Vec<&str> = out.split("\n\n").filter(|s| !s.is_empty()).collect();
    assert_eq!(answers.len(), 8, "{out}");
    for a in &answers[..7] {
        assert!(a.starts_with("? "), "{a}");
    }
    assert_eq!(answers[7], "= pns");
}

fn pns(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pns"))
        .args(args)
        .output()
        .expect("run pns")
}

#[test]
fn a_one_eye_problem_solves_from_its_sgf_file_and_its_proof_verifies() {
    let sgf = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../pns-go/problems/ghi-trap.sgf")
        .canonicalize()
        .unwrap();
    let sgf = sgf.to_str().unwrap();
    let proof = std::env::temp_dir().join(format!("pns-one-eye-{}.txt", std::process::id()));
    let p = proof.to_str().unwrap();
    let o = pns(&["solve", "go-one-eye", sgf, "--proof", p]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("value      loss"), "{out}");
    let o = pns(&["verify", "go-one-eye", sgf, p]);
    assert_eq!(o.status.code(), Some(0));
    // Path-blind df-pn gets this one wrong (the GHI problem).
    let o = pns(&["solve", "go-one-eye", sgf, "--algo", "dfpn:ghi=ignore"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("value      win"));
    // Bad input: a one-line error and status 2.
    for bad in ["points=1,seed=2", "/no/such/problem.sgf", "(;SZ[5]AB[aa])"] {
        let o = pns(&["solve", "go-one-eye", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert_eq!(
            String::from_utf8_lossy(&o.stderr).lines().count(),
            1,
            "{bad}"
        );
    }
    let _ = std::fs::remove_file(proof);
}
