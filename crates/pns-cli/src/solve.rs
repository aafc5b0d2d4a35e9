//! `pns solve`.

use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use pns_core::certificate::Block;
use pns_core::solve::{solve, SolveOptions, SolveReport};
use pns_core::{Algo, Limits, Stats, Table};
use serde_json::json;

use crate::games::{prepare, read_position, supported};
use crate::output::{ms, print_stats, stop_json, thousands};
use crate::{interrupt, with_game, CliError, SearchArgs, SolveArgs};
use pns_games::RegisteredGame;

/// Stack for search threads: recursion depth follows game length.
pub const STACK_BYTES: usize = 256 << 20;

pub fn run(a: &SolveArgs) -> Result<u8, CliError> {
    // The Go capturing options mean nothing to another game.
    let go_only = [
        ("--target", a.target.is_some()),
        ("--attack", a.attack),
        ("--defend", a.defend),
        ("--move-number", a.move_number.is_some()),
        ("--gen", a.gen.is_some()),
        ("--horizon", a.horizon.is_some()),
        ("--capture-horizon", a.capture_horizon.is_some()),
        ("--snapback", a.snapback.is_some()),
        ("--deepen", a.deepen.is_some()),
        ("--guess", a.guess),
    ];
    if let Some((flag, _)) = go_only.iter().find(|(_, set)| *set) {
        return Err(CliError::usage(format!(
            "{flag} is an option of `pns solve go` (Go capturing), not of {}",
            a.game
        )));
    }
    with_game!(a.game.as_str(), a.search.rules_only, G => solve_game::<G>(a))
}

/// Reads the shared search options into an algorithm and limits.
pub fn search_setup(s: &SearchArgs) -> Result<(Algo, Limits), CliError> {
    let algo = Algo::parse(s.algo_or("dfpn")).map_err(CliError::usage)?;
    check_hash(s.hash)?;
    if s.memory == 0 {
        return Err(CliError::usage("--memory must be at least 1 MiB"));
    }
    let time = time_limit(s.time)?;
    let limits = Limits {
        visits: s.nodes,
        time,
        memory: Some(s.memory << 20),
        stop: Some(interrupt::flag()),
        ..Limits::default()
    };
    Ok((algo, limits))
}

/// The value of `--time`, in seconds.
pub fn time_limit(time: Option<f64>) -> Result<Option<Duration>, CliError> {
    match time {
        Some(t) if t.is_nan() || t < 0.0 => Err(CliError::usage(format!(
            "--time {t}: must be a non-negative number of seconds"
        ))),
        // A time too large for a Duration (over 584 billion years) is no
        // limit at all.
        Some(t) => Ok(Duration::try_from_secs_f64(t).ok()),
        None => Ok(None),
    }
}

/// Rejects a `--hash` of 0 or one that no machine could hold.
pub fn check_hash(mb: usize) -> Result<(), CliError> {
    if mb == 0 {
        return Err(CliError::usage("--hash must be at least 1 MiB"));
    }
    // 2^40 MiB is an exbibyte: far beyond any machine, and well inside
    // usize, so that threads x MB cannot overflow below.
    if mb > 1 << 40 {
        return Err(CliError::usage(format!(
            "--hash {mb}: a table of {mb} MiB is too large for this machine"
        )));
    }
    Ok(())
}

/// The transposition table of `--hash MB`, or a usage error when the
/// system cannot provide it.
pub fn table(mb: usize) -> Result<Table, CliError> {
    Table::try_with_mb(mb).map_err(|e| CliError::usage(format!("--hash {mb}: {e}")))
}

/// [`table`] for searches with `agents` threads on it at once: a table that
/// one thread uses skips the entries' self-check ([`Table::set_shared`]).
pub fn table_for(mb: usize, agents: usize) -> Result<Table, CliError> {
    let mut tt = table(mb)?;
    tt.set_shared(agents > 1);
    Ok(tt)
}

/// Parses a position of a test file and applies game options.
pub fn parse_position<G: RegisteredGame>(text: &str, s: &SearchArgs) -> Result<G, CliError> {
    let g = G::parse_position(text)
        .map_err(|e| CliError::usage(format!("invalid {} position '{text}': {e}", G::NAME)))?;
    prepare(g, s).and_then(|g| supported(g, s))
}

fn solve_game<G: RegisteredGame>(a: &SolveArgs) -> Result<u8, CliError> {
    let text = a
        .position
        .clone()
        .unwrap_or_else(|| G::DEFAULT_POSITION.to_string());
    let g: G = supported(prepare(read_position::<G>(&text)?, &a.search)?, &a.search)?;
    let (algo, mut limits) = search_setup(&a.search)?;
    let bar = if std::io::stderr().is_terminal() && !a.search.json {
        let pb = ProgressBar::new_spinner();
        pb.set_style(ProgressStyle::with_template("{spinner} {elapsed} {msg}").expect("template"));
        pb.enable_steady_tick(Duration::from_millis(120));
        let p2 = pb.clone();
        limits.progress = Some(Arc::new(move |s: &Stats| {
            p2.set_message(format!(
                "{} visits, {} nodes/s, root pn/dn max {}/{}",
                thousands(s.visits),
                thousands(s.nodes_per_sec as u64),
                thousands(s.max_root_pn),
                thousands(s.max_root_dn)
            ))
        }));
        Some(pb)
    } else {
        None
    };
    let opts = SolveOptions {
        algo: algo.clone(),
        limits,
        proof: a.proof.is_some(),
        best_move: true,
        not_lose_first: a.search.first == "not-lose",
        threads: crate::bench::worker_threads(Some(a.threads), usize::MAX)?,
    };
    let mut tt = table_for(a.search.hash, opts.threads)?;
    // The command already runs on a thread with STACK_BYTES (`main`).
    let report: SolveReport<G> = solve(&g, &text, &opts, &mut tt);
    if let Some(pb) = bar {
        pb.finish_and_clear();
    }

    let mut proof_json = serde_json::Value::Null;
    let mut proof_err = None;
    let mut proof_write = match (&a.proof, &report.certificate) {
        (Some(path), Some(c)) => std::fs::write(path, c.to_text())
            .err()
            .map(|e| format!("cannot write the certificate to {}: {e}", path.display())),
        _ => None,
    };
    if let Some(path) = &a.proof {
        match (&report.certificate, report.value) {
            // A failed write still prints the result (the search may have
            // taken hours); the error follows it, with status 1.
            (Some(_), _) if proof_write.is_some() => {
                proof_err = proof_write.take();
            }
            (Some(c), _) => {
                let sum = |f: fn(&Block) -> usize| -> usize { c.blocks.iter().map(f).sum() };
                proof_json = json!({
                    "file": path.display().to_string(),
                    "blocks": c.blocks.len(),
                    "nodes": sum(|b| b.nodes.len()),
                    "claims": sum(Block::claims),
                    "concessions": sum(Block::concessions),
                    "fills": sum(Block::fills),
                });
            }
            (None, None) => proof_err = Some("no certificate: the value is unknown".to_string()),
            (None, Some(_)) => {
                proof_err = Some(format!(
                    "no certificate: {}",
                    report.proof_error.clone().unwrap_or_default()
                ))
            }
        }
    }
    let value = report.value.map(|v| v.name()).unwrap_or("unknown");
    let best = report.best_move.map(|m| g.format_move(m));
    if a.search.json {
        let searches: Vec<_> = report
            .searches
            .iter()
            .map(|s| {
                json!({"goal": s.goal.name(), "status": s.result.status.name(),
                       "stop": stop_json(s.result.stop), "stats": s.result.stats})
            })
            .collect();
        let out = json!({
            "game": G::NAME,
            "position": text,
            "side_to_move": g.side_to_move().to_string(),
            "algorithm": algo.to_string(),
            "value": value,
            "best_move": best,
            "stop": stop_json(report.stop),
            "searches": searches,
            "stats": report.stats,
            "proof": proof_json,
            "proof_error": proof_err,
        });
        println!("{out}");
    } else {
        println!("game       {}", G::NAME);
        println!(
            "position   {}",
            if text.is_empty() { "(start)" } else { &text }
        );
        for l in g.render().lines() {
            println!("           {l}");
        }
        println!("to move    {}", g.side_to_move());
        match report.stop {
            Some(r) if report.value.is_none() => {
                println!("value      unknown (stopped: {})", r.name())
            }
            _ => println!("value      {value} for the side to move"),
        }
        if let Some(b) = &best {
            println!("best move  {b}");
        }
        let searches: Vec<String> = report
            .searches
            .iter()
            .map(|s| {
                format!(
                    "{} {} in {}",
                    s.goal.name(),
                    s.result.status.name(),
                    ms(s.result.stats.time_ms)
                )
            })
            .collect();
        println!("algorithm  {algo}: {}", searches.join(", "));
        print_stats(&report.stats);
        if !proof_json.is_null() {
            let kinds: Vec<String> = ["claims", "concessions", "fills"]
                .iter()
                .filter(|k| proof_json[**k].as_u64().unwrap_or(0) > 0)
                .map(|k| format!("{} {k}", proof_json[*k]))
                .collect();
            let kinds = if kinds.is_empty() {
                String::new()
            } else {
                format!(": {}", kinds.join(", "))
            };
            let file = proof_json["file"].as_str().unwrap_or("");
            println!(
                "proof      {file} ({} nodes{kinds}); check it with: pns verify {} {} {}",
                proof_json["nodes"],
                G::NAME,
                shell_quote(&text),
                shell_quote(file)
            );
        }
    }
    if let Some(e) = proof_err {
        eprintln!("error: {e}");
        return Ok(1);
    }
    Ok(if interrupt::interrupted() { 130 } else { 0 })
}

/// `text` as one word for a POSIX shell: in single quotes unless it is
/// plain, with each `'` written `'\''`. The verify hint is meant to be
/// pasted.
pub fn shell_quote(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-+=,.:/@%".contains(c));
    if plain {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::shell_quote;

    #[test]
    fn shell_quoting_keeps_words_whole() {
        assert_eq!(shell_quote("4453"), "4453");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("6 c3 d4"), "'6 c3 d4'");
        assert_eq!(shell_quote("--XO- X"), "'--XO- X'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote("/tmp/a b$x"), "'/tmp/a b$x'");
    }
}
