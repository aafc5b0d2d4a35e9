//! `pns bench`: solve every position of a test file in parallel.

use std::io::IsTerminal;
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};
use pns_core::solve::{solve, SolveOptions};
use pns_core::verify::verify;
use pns_core::{Outcome, Stats, StopReason, Table};
use rayon::prelude::*;
use serde_json::json;

use crate::output::{ms, stop_json, thousands};
use crate::solve::{parse_position, search_setup, table_for, STACK_BYTES};
use crate::{interrupt, with_game, BenchArgs, CliError};
use pns_games::RegisteredGame;

pub fn run(a: &BenchArgs) -> Result<u8, CliError> {
    with_game!(a.game.as_str(), a.search.rules_only, G => bench_game::<G>(a))
}

struct Row {
    position: String,
    label: Option<String>,
    expected: Option<Outcome>,
    value: Option<Outcome>,
    verified: Option<bool>,
    verify_error: Option<String>,
    /// Certificate nodes, with `--verify`.
    proof_nodes: Option<usize>,
    /// Wall time of the solve, extraction and check included.
    total_ms: f64,
    stop: Option<StopReason>,
    stats: Stats,
}

impl Row {
    fn correct(&self) -> Option<bool> {
        match (self.expected, self.value) {
            (Some(e), Some(v)) => Some(e == v),
            _ => None,
        }
    }
}

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Worker threads for `n` positions: `--threads` (default: all cores),
/// but no more than the positions, nor than four per core (more only
/// thrash: each thread holds a table and a 256 MiB stack reservation).
pub fn worker_threads(requested: Option<usize>, n: usize) -> Result<usize, CliError> {
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let t = requested.unwrap_or(cores);
    if t == 0 {
        return Err(CliError::usage("--threads must be at least 1"));
    }
    Ok(t.min(n).min(4 * cores).max(1))
}

fn bench_game<G: RegisteredGame>(a: &BenchArgs) -> Result<u8, CliError> {
    let hash = a.search.hash;
    let text = std::fs::read_to_string(&a.file)
        .map_err(|e| CliError::usage(format!("cannot read {}: {e}", a.file.display())))?;
    let (algo, limits) = search_setup(&a.search)?;
    if a.limit == Some(0) {
        return Err(CliError::usage("--limit must be at least 1"));
    }
    let mut items = Vec::new();
    let mut skipped = 0;
    for (i, line) in text.lines().enumerate() {
        let tl = G::parse_test_line(line)
            .map_err(|e| CliError::usage(format!("{}:{}: {e}", a.file.display(), i + 1)))?;
        if let Some(tl) = tl {
            let g: G = parse_position(&tl.position, &a.search).map_err(|e| {
                CliError::usage(format!("{}:{}: {}", a.file.display(), i + 1, e.message))
            })?;
            if skipped < a.skip {
                skipped += 1;
            } else {
                items.push((tl, g));
            }
        }
        if a.limit.is_some_and(|l| items.len() >= l) {
            break;
        }
    }
    if items.is_empty() {
        return Err(CliError::usage(format!(
            "{} holds no positions",
            a.file.display()
        )));
    }
    // With --one-at-a-time the positions run one after another, each
    // search with every thread (parallel df-pn).
    let (threads, agents) = if a.one_at_a_time {
        (1, worker_threads(a.threads, usize::MAX)?)
    } else {
        (worker_threads(a.threads, items.len())?, 1)
    };
    // One table per worker, made before any search so that memory the
    // system refuses is a usage error rather than an abort half-way.
    let tables = (0..threads)
        .map(|_| table_for(hash, agents).map(Mutex::new))
        .collect::<Result<Vec<_>, _>>()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(STACK_BYTES)
        .build()
        .map_err(|e| CliError::usage(format!("cannot start {threads} threads: {e}")))?;
    let bar = if std::io::stderr().is_terminal() {
        let pb = ProgressBar::new(items.len() as u64);
        pb.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed}/{eta} {msg}")
                .expect("template"),
        );
        Some(pb)
    } else {
        None
    };
    let verify_proofs = a.verify;
    let wall = std::time::Instant::now();
    let rows: Vec<Row> = pool.install(|| {
        items
            .par_iter()
            .map(|(tl, g)| {
                // Each worker runs one position at a time, so its table
                // is never contended.
                let slot = rayon::current_thread_index().unwrap_or(0) % threads;
                let mut guard = tables[slot].lock().unwrap_or_else(|e| e.into_inner());
                let tt: &mut Table = &mut guard;
                let opts = SolveOptions {
                    algo: algo.clone(),
                    limits: limits.clone(),
                    proof: verify_proofs,
                    best_move: false,
                    not_lose_first: a.search.first == "not-lose",
                    threads: agents,
                };
                let t0 = std::time::Instant::now();
                let r = solve(g, &tl.position, &opts, tt);
                let (verified, verify_error) = if !verify_proofs || r.value.is_none() {
                    (None, None)
                } else {
                    match &r.certificate {
                        Some(c) => match verify(g, c) {
                            Ok(_) => (Some(true), None),
                            Err(e) => (Some(false), Some(e)),
                        },
                        None => (Some(false), r.proof_error.clone()),
                    }
                };
                if let Some(pb) = &bar {
                    pb.inc(1);
                }
                Row {
                    position: tl.position.clone(),
                    label: tl.label.clone(),
                    expected: tl.expected,
                    value: r.value,
                    verified,
                    verify_error,
                    proof_nodes: r
                        .certificate
                        .as_ref()
                        .map(|c| c.blocks.iter().map(|b| b.nodes.len()).sum()),
                    total_ms: t0.elapsed().as_secs_f64() * 1000.0,
                    stop: r.stop,
                    stats: r.stats,
                }
            })
            .collect()
    });
    let wall_ms = wall.elapsed().as_secs_f64() * 1000.0;
    if let Some(pb) = bar {
        pb.finish_and_clear();
    }

    let total = rows.len();
    let solved = rows.iter().filter(|r| r.value.is_some()).count();
    let labelled = rows.iter().filter(|r| r.expected.is_some()).count();
    let correct = rows.iter().filter(|r| r.correct() == Some(true)).count();
    let wrong: Vec<&Row> = rows.iter().filter(|r| r.correct() == Some(false)).collect();
    let verified = rows.iter().filter(|r| r.verified == Some(true)).count();
    let bad_proofs: Vec<&Row> = rows.iter().filter(|r| r.verified == Some(false)).collect();
    let mut times: Vec<f64> = rows.iter().map(|r| r.stats.time_ms).collect();
    let mut visits: Vec<f64> = rows.iter().map(|r| r.stats.visits as f64).collect();
    let mean_t = times.iter().sum::<f64>() / total as f64;
    let mean_v = visits.iter().sum::<f64>() / total as f64;
    let med_t = median(&mut times);
    let med_v = median(&mut visits);
    let total_visits: u64 = rows.iter().map(|r| r.stats.visits).sum();
    let total_time: f64 = rows.iter().map(|r| r.stats.time_ms).sum();

    if a.search.json {
        for r in &rows {
            let mut o = json!({
                "position": r.position,
                "label": r.label,
                "value": r.value.map(|v| v.name()).unwrap_or("unknown"),
                "expected": r.expected.map(|v| v.name()),
                "correct": r.correct(),
                "nodes": r.stats.visits,
                "time_ms": r.stats.time_ms,
                "stop": stop_json(r.stop),
                "stats": r.stats,
            });
            if verify_proofs {
                o["verified"] = json!(r.verified);
                o["proof_nodes"] = json!(r.proof_nodes);
                o["total_ms"] = json!(r.total_ms);
                if let Some(e) = &r.verify_error {
                    o["verify_error"] = json!(e);
                }
            }
            println!("{o}");
        }
    }
    // The summary goes to stdout in human mode, to stderr with --json so
    // that stdout stays one JSON object per position.
    let mut s = String::new();
    s += &format!(
        "{} {}: {} positions, algorithm {}, {}\n",
        G::NAME,
        a.file.display(),
        total,
        algo,
        if agents > 1 {
            format!("one at a time, {agents} threads each")
        } else {
            format!("{threads} thread(s)")
        }
    );
    s += &format!("solved     {solved}/{total}\n");
    if labelled > 0 {
        s += &format!("correct    {correct}/{labelled} labelled\n");
    }
    if verify_proofs {
        s += &format!("verified   {verified}/{solved} proofs\n");
    }
    s += &format!(
        "time       mean {}, median {} per position (search only); wall {}\n",
        ms(mean_t),
        ms(med_t),
        ms(wall_ms)
    );
    s += &format!(
        "nodes      mean {}, median {} visits per position; {} nodes/s per thread\n",
        thousands(mean_v as u64),
        thousands(med_v as u64),
        thousands(if total_time > 0.0 {
            (total_visits as f64 * 1000.0 / total_time) as u64
        } else {
            0
        })
    );
    for r in wrong.iter().take(10) {
        s += &format!(
            "WRONG      {} expected {} got {}\n",
            r.position,
            r.expected.map(|v| v.name()).unwrap_or("?"),
            r.value.map(|v| v.name()).unwrap_or("unknown")
        );
    }
    for r in bad_proofs.iter().take(10) {
        s += &format!(
            "UNVERIFIED {}: {}\n",
            r.position,
            r.verify_error.as_deref().unwrap_or("no certificate")
        );
    }
    if interrupt::interrupted() {
        s += "interrupted: the remaining positions stopped early\n";
    }
    if a.search.json {
        eprint!("{s}");
    } else {
        print!("{s}");
    }
    Ok(if !wrong.is_empty() || !bad_proofs.is_empty() {
        1
    } else if interrupt::interrupted() {
        130
    } else {
        0
    })
}
