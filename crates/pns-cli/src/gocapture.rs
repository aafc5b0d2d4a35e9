//! `pns solve go FILE.sgf --target VERTEX [--attack|--defend]
//! [--move-number N]`: a capturing question on a Go position (issue 12;
//! `pns_games::go::capture`), answered as GTP `attack`/`defend` answer it:
//! the side asked about succeeds, fails, or no answer within the limit.
//! `--algo lambda-zones|dfpn|lambda[:order=N,eorder=N,grow=G,ladder=on|off,
//! zones=on|off,...]|pseudo-lambda|lambda-search[:order=N,ladder=on|off]`
//! (default `lambda-zones`, as `pns gtp`); `--proof FILE` writes the
//! certificate of the search that settled a 0/1 answer. `--horizon
//! gnugo` reads under GNU Go's convention (fewer liberties escape deeper
//! in the reading); `--capture-horizon` sets the horizon capture proofs
//! are searched under (`4/10` unless set; sound whatever it is).
//! `--guess` answers with the bounded game
//! (`pns_games::go::capture::guess_coded`, no proof) where no proof
//! answers, `"proven": false` in `--json`.

use std::time::Instant;

use serde_json::json;

use crate::output::{ms, thousands};
use crate::solve::shell_quote;
use crate::{interrupt, CliError, SolveArgs};
use pns_games::go::capture::{
    ask, Asking, Capture, Effort, Generator, Horizon, Horizons, Run, Solver, Spec, Stopper,
    CAPTURE_HORIZON, DEFAULT_ESCAPE_LIBS,
};
use pns_games::go::{KoRule, Move};

/// Node visits per search unless `--nodes` says otherwise.
pub const DEFAULT_VISITS: u64 = 1_000_000;

/// The values of `--horizon` (the rule; absent: none) and
/// `--capture-horizon` (absent: [`CAPTURE_HORIZON`]), as `pns solve go`
/// and `pns gtp` read them.
pub fn horizons(rule: Option<&str>, capture: Option<&str>) -> Result<Horizons, CliError> {
    let read = |flag: &str, v: Option<&str>, default: Option<Horizon>| match v {
        None => Ok(default),
        Some(v) => Horizon::parse(v).map_err(|m| CliError::usage(format!("--{flag}{m}"))),
    };
    Ok(Horizons {
        rule: read("", rule, None)?,
        capture: read("capture-", capture, Some(CAPTURE_HORIZON))?,
    })
}

/// The value of an `on|off` option such as `--snapback` and `--deepen`
/// (absent: on), as `pns solve go` and `pns gtp` read it.
pub fn on_off(option: &str, v: Option<&str>) -> Result<bool, CliError> {
    match v {
        None | Some("on") => Ok(true),
        Some("off") => Ok(false),
        Some(v) => Err(CliError::usage(format!("--{option} {v}: not on or off"))),
    }
}

pub fn solve_cmd(a: &SolveArgs) -> Result<u8, CliError> {
    let file = a
        .position
        .as_deref()
        .ok_or_else(|| CliError::usage("pns solve go: give an SGF file"))?;
    let target = a
        .target
        .as_deref()
        .ok_or_else(|| CliError::usage("pns solve go: give --target VERTEX"))?;
    if a.attack && a.defend {
        return Err(CliError::usage("--attack and --defend exclude each other"));
    }
    let solver = Solver::parse(a.search.algo_or("lambda-zones")).map_err(CliError::usage)?;
    let gen = match a.gen.as_deref() {
        None => Generator::H1,
        Some(g) => Generator::from_name(g)
            .ok_or_else(|| CliError::usage(format!("--gen {g}: not h1, h2 or board")))?,
    };
    let horizons = horizons(a.horizon.as_deref(), a.capture_horizon.as_deref())?;
    let snapback = on_off("snapback", a.snapback.as_deref())?;
    let deepen = on_off("deepen", a.deepen.as_deref())?;
    let visits = a.search.nodes.unwrap_or(DEFAULT_VISITS);
    if visits == 0 {
        return Err(CliError::usage("--nodes must be at least 1"));
    }
    let loaded =
        pns_games::go::sgf::load_file(std::path::Path::new(file), a.move_number, KoRule::Simple)
            .map_err(|e| CliError::usage(format!("{file}: {e}")))?;
    let board = *loaded.game.board();
    let t = match board.parse_vertex(target) {
        Ok(Move::Play(p)) => p as usize,
        _ => return Err(CliError::usage(format!("--target {target}: not a point"))),
    };
    let g = Capture::new(board, t, DEFAULT_ESCAPE_LIBS, gen)
        .map_err(|e| CliError::usage(format!("--target {target}: {e}")))?
        .with_horizons(horizons)
        .with_snapback(snapback);
    let attack = !a.defend;
    // Two threads run a question's capture and escape halves at once.
    let threads = crate::bench::worker_threads(Some(a.threads), usize::MAX)?;
    let time = crate::solve::time_limit(a.search.time)?;
    if a.search.memory == 0 {
        return Err(CliError::usage("--memory must be at least 1 MiB"));
    }
    let mut effort = Effort::default();
    let t0 = Instant::now();
    // `--time` bounds the searches and the guess together; Ctrl-C stops
    // them as the time would.
    let how = Asking {
        guess: a.guess,
        deepen,
    };
    let (asked, timed_out) = Stopper::within_or(time, Some(interrupt::flag()), None, |stop| {
        let run = Run::stopping(threads, stop);
        let asked = ask(&g, attack, &solver, visits, run, how, &mut effort);
        (asked, stop.is_some_and(Stopper::stopped))
    });
    let interrupted = interrupt::interrupted();
    let timed_out = timed_out && !interrupted;
    let (answer, decision) = (asked.reached.map(|r| r.coded), asked.decision);
    let proven = asked.reached.is_none_or(|r| r.proven);
    let time_ms = t0.elapsed().as_secs_f64() * 1000.0;
    // The certificate of the search that settled the answer (codes 0 and
    // 1), its position the question with all its options.
    let mut proof_json = serde_json::Value::Null;
    let mut proof_err = None;
    let mut verify_hint = None;
    if let Some(path) = &a.proof {
        match (decision, answer) {
            (None, Some(_)) if !proven => {
                proof_err = Some("no certificate: the answer is a guess, not a proof".into())
            }
            (Some(d), _) => {
                let position = format!(
                    "{file}|{}",
                    Spec::describe(&d.question, &target.to_uppercase(), a.move_number)
                );
                let t1 = Instant::now();
                // `--time` bounds the certificate again, apart from the
                // question (a proof found in a second may take minutes to
                // write out), and Ctrl-C stops it.
                let limits = pns_core::Limits {
                    visits: Some(asked.visits),
                    time,
                    // The certificate's DAG is an explicit tree: `--memory`
                    // bounds it (reading 106's grew past 16 GiB without).
                    memory: Some(a.search.memory << 20),
                    stop: Some(interrupt::flag()),
                    ..Default::default()
                };
                let made = pns_games::go::certify::certificate_within(&d, &solver, &limits, &position)
                    .map_err(|e| format!("no certificate: {e}"))
                    .and_then(|c| {
                        std::fs::write(path, c.to_text())
                            .map(|_| c)
                            .map_err(|e| {
                                format!("cannot write the certificate to {}: {e}", path.display())
                            })
                    });
                match made {
                    Ok(c) => {
                        let nodes: usize = c.blocks.iter().map(|b| b.nodes.len()).sum();
                        proof_json = json!({
                            "file": path.display().to_string(),
                            "position": position,
                            "nodes": nodes,
                            "ms": t1.elapsed().as_secs_f64() * 1000.0,
                        });
                        verify_hint = Some(format!(
                            "pns verify go-capture {} {}",
                            shell_quote(&position),
                            shell_quote(&path.display().to_string())
                        ));
                    }
                    Err(e) => proof_err = Some(e),
                }
            }
            (None, Some(_)) => {
                proof_err = Some(
                    "no certificate: a ko result (2 or 3) rests on two searches under different ko exemptions, and a certificate proves one question"
                        .into(),
                )
            }
            (None, None) => proof_err = Some("no certificate: the answer is unknown".into()),
        }
    }
    let code = answer.map(|a| a.code);
    let mv = answer
        .and_then(|a| a.mv)
        .map(|m| board.format_move(m).to_uppercase());
    let command = if attack { "attack" } else { "defend" };
    let result = match (code, attack) {
        (Some(1), true) => "captured",
        (Some(1), false) => "saved",
        (Some(2), true) => "captured by ko",
        (Some(2), false) => "saved by ko",
        (Some(3), true) => "captured by ko with a threat",
        (Some(3), false) => "saved by ko with a threat",
        (Some(_), true) => "not captured",
        (Some(_), false) => "not saved",
        (None, _) => "unknown",
    };
    if a.search.json {
        let v = json!({
            "game": "go",
            "command": command,
            "target": target.to_uppercase(),
            "defender": g.defender().to_string(),
            "move_number": a.move_number,
            "result": result,
            "code": code,
            "move": mv,
            "proven": code.map(|_| proven),
            "search": solver.describe(),
            "generator": gen.name(),
            "escape_libs": DEFAULT_ESCAPE_LIBS,
            "horizon": Horizon::describe(horizons.rule),
            "capture_horizon": Horizon::describe(horizons.capture),
            "snapback": snapback,
            "visit_limit": visits,
            "round_visit_limit": asked.visits,
            "time_limit_s": a.search.time.filter(|_| time.is_some()),
            "timed_out": timed_out,
            "interrupted": interrupted,
            "visits": effort.visits,
            "searches": effort.searches,
            "time_ms": time_ms,
            "proof": proof_json,
            "proof_error": proof_err,
        });
        println!("{v}");
    } else {
        println!("{}", board.render());
        let deeper = match horizons.rule {
            Some(h) => format!(", 4 after {} moves, 3 after {}", h.four, h.three),
            None => String::new(),
        };
        println!(
            "{command} {} ({} block, {} liberties; escapes at {DEFAULT_ESCAPE_LIBS}{deeper})",
            target.to_uppercase(),
            g.defender(),
            g.target_libs().count()
        );
        let guessed = if proven {
            ""
        } else {
            " (a guess: the bounded game's answer, no proof)"
        };
        match (code, &mv) {
            (Some(c), Some(m)) => println!("result     {result}: {c} {m}{guessed}"),
            (Some(c), None) => println!("result     {result}: {c}{guessed}"),
            (None, _) if interrupted => println!("result     unknown: interrupted"),
            (None, _) if timed_out => println!(
                "result     unknown: the time limit ({} s) ran out, at {} visits per search",
                a.search.time.unwrap_or_default(),
                thousands(asked.visits)
            ),
            (None, _) => println!(
                "result     unknown within {} visits per search",
                thousands(visits)
            ),
        }
        println!(
            "search     {}, generator {}: {} visits in {} searches, {}",
            solver.describe(),
            gen.name(),
            thousands(effort.visits),
            effort.searches,
            ms(time_ms)
        );
        if let Some(hint) = &verify_hint {
            println!(
                "proof      {} ({} nodes); check it with: {hint}",
                proof_json["file"].as_str().unwrap_or(""),
                proof_json["nodes"]
            );
        }
    }
    // (Ctrl-C during the certificate, too.)
    let interrupted = interrupt::interrupted();
    if let Some(e) = proof_err {
        eprintln!("error: {e}");
        if !interrupted {
            return Ok(1);
        }
    }
    Ok(if interrupted { 130 } else { 0 })
}
