//! `pns solve tsume` and `pns bench tsume`: the engine's solve (value,
//! statistics, certificate) plus the tsume answer of a mate — its length
//! (shortest mate against the longest defence, futile interpositions not
//! counted) and its main line — checked against the file's lengths in a
//! bench.

use std::sync::Mutex;

use pns_core::certificate::{Certificate, Extractor};
use pns_core::game::Goal;
use pns_core::solve::{solve, SolveOptions};
use pns_core::verify::verify;
use pns_core::Status;
use pns_core::{Outcome, Stats, StopReason};
use pns_games::shogi::answer::mate_certificate;
use pns_games::shogi::solve::{mate_answer, AnswerLimits};
use pns_games::shogi::MateLine;
use pns_games::testsets::TestFormat;
use pns_games::Tsume;
use rayon::prelude::*;
use serde_json::json;

use crate::bench::worker_threads;
use crate::output::{ms, print_stats, stop_json, thousands};
use crate::solve::{search_setup, table, STACK_BYTES};
use crate::{interrupt, BenchArgs, CliError, SolveArgs};
use pns_core::prelude::*;
use pns_games::RegisteredGame;

/// Positions the length search may visit per problem.
const LENGTH_BUDGET: u64 = 50_000_000;
/// Seconds the generic extraction of a no-mate certificate may take.
const DISPROOF_SECS: u64 = 60;
/// The longest mate the length search deepens to.
const MAX_LENGTH: u32 = 255;

/// A solved problem: the engine's report plus the tsume answer.
struct Solved {
    value: Option<Outcome>,
    stop: Option<StopReason>,
    stats: Stats,
    answer: Option<MateLine>,
    /// Whether the answer is the exact length search's, not the shortest
    /// mate of the proof read from the table.
    answer_exact: bool,
    answer_error: Option<String>,
    length_nodes: u64,
    /// The reading of the proof from the table, where it was read.
    proof_reading: serde_json::Value,
    certificate: Option<pns_core::certificate::Certificate>,
    proof_error: Option<String>,
    total_ms: f64,
}

/// Solves `t`. A mate gets its answer from [`mate_answer`]: the exact
/// length search, or the proof read back from the table and confirmed
/// where the exact search can. With `opts.proof`, a mate gets a
/// certificate: the proof read from the table where it was read, else one
/// of [`mate_certificate`] (built from exact mate distances); a no-mate gets the engine's
/// generic extraction, bounded by [`DISPROOF_SECS`] unless `disproofs` is
/// false (then none).
fn solve_one(
    t: &Tsume,
    text: &str,
    opts: &SolveOptions,
    tt: &mut pns_core::Table,
    disproofs: bool,
) -> Solved {
    let start = std::time::Instant::now();
    let plain = SolveOptions {
        proof: false,
        ..opts.clone()
    };
    let r = solve(t, text, &plain, tt);
    let mut s = Solved {
        value: r.value,
        stop: r.stop,
        stats: r.stats,
        answer: None,
        answer_exact: false,
        answer_error: None,
        length_nodes: 0,
        proof_reading: serde_json::Value::Null,
        certificate: None,
        proof_error: None,
        total_ms: 0.0,
    };
    if opts.proof {
        match s.value {
            Some(Outcome::Win) => {} // below, with the answer
            Some(_) if disproofs => {
                let limits = pns_core::Limits {
                    time: Some(std::time::Duration::from_secs(DISPROOF_SECS)),
                    stop: opts.limits.stop.clone(),
                    ..Default::default()
                };
                let mut ex = Extractor::new(t, Goal::Win, Status::Disproven, tt, limits);
                match ex.extract(t) {
                    Ok(b) => {
                        s.certificate = Some(Certificate {
                            game: "tsume".into(),
                            position: text.to_string(),
                            value: Outcome::Loss,
                            blocks: vec![b],
                        })
                    }
                    Err(e) => s.proof_error = Some(format!("no disproof extracted: {e}")),
                }
            }
            Some(_) => {}
            None => s.proof_error = Some("the value is unknown".into()),
        }
    }
    if s.value == Some(Outcome::Win) {
        let lim =
            AnswerLimits::after_search(&opts.algo, &opts.limits, start, LENGTH_BUDGET, MAX_LENGTH);
        let a = mate_answer(t, tt, &lim);
        s.length_nodes = a.length_nodes;
        s.answer = a.line;
        s.answer_exact = a.exact;
        if let Some(p) = &a.proof {
            s.proof_reading = json!({
                "ms": a.proof_ms,
                "nodes": p.block.nodes.len(),
                "explored": p.explored,
                "reproofs": p.reproofs,
                "exact_nodes": p.exact_nodes,
                "exact_positions": p.exact_positions,
                "other_checks_searched": p.alt_searches,
                "search_visits": p.search_visits,
                "rounds": p.rounds,
                "repairs": p.repairs,
            });
        }
        if opts.proof {
            match a.proof {
                // The proof read from the table is the certificate.
                Some(p) => s.certificate = Some(p.certificate(text)),
                // The exact search answered first: a certificate from its
                // exact distances.
                None if s.answer_exact => {
                    match mate_certificate(t, text, LENGTH_BUDGET, MAX_LENGTH) {
                        Ok(c) => s.certificate = Some(c),
                        Err(e) => s.proof_error = Some(e),
                    }
                }
                None => s.proof_error = a.error.clone(),
            }
        }
        s.answer_error = a.error;
    }
    s.total_ms = start.elapsed().as_secs_f64() * 1e3;
    s
}

fn value_word(v: Option<Outcome>) -> &'static str {
    match v {
        Some(Outcome::Win) => "mate",
        Some(_) => "nomate",
        None => "unknown",
    }
}

fn line_usi(a: &MateLine) -> Vec<String> {
    a.moves.iter().map(|m| m.usi()).collect()
}

/// `pns solve tsume SFEN`.
pub fn solve_cmd(a: &SolveArgs) -> Result<u8, CliError> {
    let text = a
        .position
        .clone()
        .unwrap_or_else(|| Tsume::DEFAULT_POSITION.to_string());
    let t = Tsume::parse_position(&text)
        .map_err(|e| CliError::usage(format!("invalid tsume position '{text}': {e}")))?;
    let t = crate::games::supported(t, &a.search)?;
    if a.search.shuffle.is_some() {
        return Err(CliError::usage("shuffle applies to hex only, not tsume"));
    }
    let (algo, limits) = search_setup(&a.search)?;
    let opts = SolveOptions {
        algo: algo.clone(),
        limits,
        proof: a.proof.is_some(),
        // The mate's line gives the first move; the engine's choice of a
        // best move would search each check again under the repetition
        // rule (ten minutes after Microcosmos' proof), for nothing.
        best_move: false,
        not_lose_first: false,
        // Tsume repeats (perpetual check): one agent follows the line.
        threads: 1,
    };
    let mut tt = table(a.search.hash)?;
    // The command already runs on a thread with STACK_BYTES (`main`).
    let s = solve_one(&t, &text, &opts, &mut tt, true);
    let mut proof_err = None;
    let mut proof_json = serde_json::Value::Null;
    if let Some(path) = &a.proof {
        match &s.certificate {
            Some(c) => match std::fs::write(path, c.to_text()) {
                Ok(()) => {
                    proof_json = json!({
                        "file": path.display().to_string(),
                        "blocks": c.blocks.len(),
                        "nodes": c.blocks.iter().map(|b| b.nodes.len()).sum::<usize>(),
                    })
                }
                Err(e) => {
                    proof_err = Some(format!(
                        "cannot write the certificate to {}: {e}",
                        path.display()
                    ))
                }
            },
            None => {
                proof_err = Some(format!(
                    "no certificate: {}",
                    s.proof_error
                        .clone()
                        .unwrap_or("the value is unknown".into())
                ))
            }
        }
    }
    if a.search.json {
        let out = json!({
            "game": "tsume",
            "position": text,
            "algorithm": algo.to_string(),
            "value": value_word(s.value),
            "length": s.answer.as_ref().map(|x| x.length),
            "length_exact": s.answer.as_ref().map(|_| s.answer_exact),
            "line": s.answer.as_ref().map(line_usi),
            "answer_error": s.answer_error,
            "length_nodes": s.length_nodes,
            "proof_reading": s.proof_reading,
            "stop": stop_json(s.stop),
            "stats": s.stats,
            "total_ms": s.total_ms,
            "proof": proof_json,
            "proof_error": proof_err,
        });
        println!("{out}");
    } else {
        println!("game       tsume");
        println!("position   {text}");
        for l in t.render().lines() {
            println!("           {l}");
        }
        match (s.value, s.stop) {
            (None, Some(r)) => println!("value      unknown (stopped: {})", r.name()),
            (v, _) => println!("value      {}", value_word(v)),
        }
        if let Some(x) = &s.answer {
            if s.answer_exact {
                println!(
                    "length     {} plies (shortest mate, longest defence, futile interpositions not counted)",
                    x.length
                );
            } else {
                println!(
                    "length     {} plies (the shortest mate of the proof read from the table, not proven the shortest; longest defence, futile interpositions not counted)",
                    x.length
                );
            }
            println!("mate       {}", line_usi(x).join(" "));
        }
        match (&s.answer_error, &s.answer) {
            (Some(e), None) => println!("length     unknown: {e}"),
            (Some(e), Some(_)) => println!("exact      not known: {e}"),
            _ => {}
        }
        println!(
            "algorithm  {algo}: {} in {}, length search {} positions",
            value_word(s.value),
            ms(s.stats.time_ms),
            thousands(s.length_nodes)
        );
        if let Some(r) = s.proof_reading.as_object() {
            println!(
                "reading    proof of {} nodes read from the table in {} ({} explored, {} other checks searched, {} rounds, {} repairs)",
                r["nodes"],
                ms(r["ms"].as_f64().unwrap_or(0.0)),
                r["explored"],
                r["other_checks_searched"],
                r["rounds"],
                r["repairs"]
            );
        }
        print_stats(&s.stats);
        if let Some(f) = proof_json["file"].as_str() {
            println!(
                "proof      {f} ({} nodes); check it with: pns verify tsume {} {}",
                proof_json["nodes"],
                crate::solve::shell_quote(&text),
                crate::solve::shell_quote(f)
            );
        }
    }
    if let Some(e) = proof_err {
        eprintln!("error: {e}");
        return Ok(1);
    }
    Ok(if interrupt::interrupted() { 130 } else { 0 })
}

struct Row {
    index: usize,
    position: String,
    label: Option<String>,
    solved: Solved,
    verified: Option<Result<(), String>>,
}

impl Row {
    /// Right when the value matches the label and, for a mate, so does
    /// its length; `nomate<=N` also accepts a mate longer than N.
    fn correct(&self) -> Option<bool> {
        let label = self.label.as_deref()?;
        let s = &self.solved;
        Some(match label.strip_prefix("nomate") {
            Some(rest) => match s.value {
                Some(Outcome::Win) => match rest.strip_prefix("<=").and_then(|n| n.parse().ok()) {
                    Some(n) => s.answer.as_ref().is_some_and(|a| a.length > n),
                    None => false,
                },
                Some(_) => true,
                None => false,
            },
            None => {
                let want: Option<u32> = label.trim_end_matches('?').parse().ok();
                s.value == Some(Outcome::Win) && s.answer.as_ref().map(|a| a.length) == want
            }
        })
    }
}

/// `pns bench tsume FILE`: lines `SFEN<TAB>LENGTH` (or `nomate...`).
pub fn bench_cmd(a: &BenchArgs) -> Result<u8, CliError> {
    let text = std::fs::read_to_string(&a.file)
        .map_err(|e| CliError::usage(format!("cannot read {}: {e}", a.file.display())))?;
    let (algo, limits) = search_setup(&a.search)?;
    if a.limit == Some(0) {
        return Err(CliError::usage("--limit must be at least 1"));
    }
    let mut items = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let tl = Tsume::parse_test_line(line)
            .map_err(|e| CliError::usage(format!("{}:{}: {e}", a.file.display(), i + 1)))?;
        if let Some(tl) = tl {
            let t = Tsume::parse_position(&tl.position)
                .map_err(|e| CliError::usage(format!("{}:{}: {e}", a.file.display(), i + 1)))?;
            let t = crate::games::supported(t, &a.search)?;
            items.push((i + 1, tl, t));
        }
    }
    let items: Vec<_> = items
        .into_iter()
        .skip(a.skip)
        .take(a.limit.unwrap_or(usize::MAX))
        .collect();
    let threads = worker_threads(a.threads, items.len().max(1))?;
    crate::solve::check_hash(a.search.hash)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(STACK_BYTES)
        .build()
        .map_err(|e| CliError::usage(format!("cannot start {threads} threads: {e}")))?;
    let opts = SolveOptions {
        algo: algo.clone(),
        limits,
        proof: a.verify,
        best_move: false,
        not_lose_first: false,
        threads: 1,
    };
    let hash = a.search.hash;
    let table_error = Mutex::new(None);
    let rows: Vec<Row> = pool.install(|| {
        items
            .par_iter()
            .map_init(
                || table(hash),
                |tt, (index, tl, t)| {
                    let tt = match tt {
                        Ok(tt) => tt,
                        Err(e) => {
                            *table_error.lock().expect("lock") = Some(e.message.clone());
                            return None;
                        }
                    };
                    // Mates only: a no-mate's disproof is the engine's
                    // generic extraction, far slower here (docs/PERFORMANCE.md).
                    let solved = solve_one(t, &tl.position, &opts, tt, false);
                    let verified = if a.verify && solved.value == Some(Outcome::Win) {
                        Some(match &solved.certificate {
                            Some(c) => verify(t, c).map(|_| ()),
                            None => Err(solved.proof_error.clone().unwrap_or_default()),
                        })
                    } else {
                        None
                    };
                    Some(Row {
                        index: *index,
                        position: tl.position.clone(),
                        label: tl.label.clone(),
                        solved,
                        verified,
                    })
                },
            )
            .flatten()
            .collect()
    });
    if let Some(e) = table_error.into_inner().expect("lock") {
        return Err(CliError::usage(e));
    }
    let mut wrong = 0;
    let mut unsolved = 0;
    let mut failed_proofs = 0;
    let mut times: Vec<f64> = Vec::new();
    let mut total = Stats::default();
    for r in &rows {
        let s = &r.solved;
        if s.value.is_none() {
            unsolved += 1;
        }
        if r.correct() == Some(false) {
            wrong += 1;
        }
        if matches!(r.verified, Some(Err(_))) {
            failed_proofs += 1;
        }
        times.push(s.total_ms);
        total.accumulate(&s.stats);
        if a.search.json {
            println!(
                "{}",
                json!({
                    "line": r.index,
                    "position": r.position,
                    "label": r.label,
                    "value": value_word(s.value),
                    "length": s.answer.as_ref().map(|x| x.length),
                    "line_moves": s.answer.as_ref().map(line_usi),
                    "length_exact": s.answer.as_ref().map(|_| s.answer_exact),
                    "answer_error": s.answer_error,
                    "correct": r.correct(),
                    "verified": r.verified.as_ref().map(|v| v.is_ok()),
                    "verify_error": r.verified.as_ref().and_then(|v| v.clone().err()),
                    "total_ms": s.total_ms,
                    "length_nodes": s.length_nodes,
                    "proof_reading": s.proof_reading,
                    "stop": stop_json(s.stop),
                    "stats": s.stats,
                })
            );
        } else if r.correct() == Some(false) || matches!(r.verified, Some(Err(_))) {
            println!(
                "line {}: {} expected {}, got {} {}{}",
                r.index,
                r.position,
                r.label.as_deref().unwrap_or("-"),
                value_word(s.value),
                s.answer
                    .as_ref()
                    .map(|x| x.length.to_string())
                    .unwrap_or_default(),
                match &r.verified {
                    Some(Err(e)) => format!(" (proof rejected: {e})"),
                    _ => String::new(),
                }
            );
        }
    }
    let n = rows.len();
    let sum_ms: f64 = times.iter().sum();
    let mut sorted = times.clone();
    sorted.sort_by(|x, y| x.total_cmp(y));
    let median = if n == 0 { 0.0 } else { sorted[n / 2] };
    let summary = format!(
        "{n} problems, {} solved, {} right (value and length), {wrong} wrong or unsolved{}; time total {}, mean {}, median {}; {} visits, {} nodes/s ({algo}, {threads} thread{})",
        n - unsolved,
        rows.iter().filter(|r| r.correct() == Some(true)).count(),
        if a.verify {
            format!(
                ", {} mate proofs verified, {failed_proofs} rejected",
                rows.iter()
                    .filter(|r| matches!(r.verified, Some(Ok(()))))
                    .count()
            )
        } else {
            String::new()
        },
        ms(sum_ms),
        ms(if n == 0 { 0.0 } else { sum_ms / n as f64 }),
        ms(median),
        thousands(total.visits),
        thousands(if total.time_ms > 0.0 {
            (total.visits as f64 / (total.time_ms / 1e3)) as u64
        } else {
            0
        }),
        if threads == 1 { "" } else { "s" }
    );
    if a.search.json {
        eprintln!("{summary}");
    } else {
        println!("{summary}");
    }
    Ok(if wrong > 0 || failed_proofs > 0 {
        1
    } else if interrupt::interrupted() {
        130
    } else {
        0
    })
}
