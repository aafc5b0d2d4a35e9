//! Runs the `pns` binary with `input` on its standard input and waits for
//! it (the GTP and capture tests script whole sessions this way).

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// `pns ARGS` fed `input`; its whole output.
pub fn pns_piped(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pns"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run pns");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}
