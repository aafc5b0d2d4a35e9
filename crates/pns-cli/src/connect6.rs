//! `pns connect6`: Connect6's own solvers, which the game-agnostic
//! algorithm registry does not list (they search Connect6 problems, not a
//! game's goal adapter):
//!
//! * `pns connect6 vcdt [POSITION]`: the VCDT solver alone (victory by
//!   continuous double threats, deep-dfpn §5.1): a proven VCDT is a win,
//!   written out as a witness the rules-only check accepts; a disproof
//!   only means "no VCDT".
//! * `pns connect6 solve [POSITION]`: the relevance-zone-oriented search
//!   (deep-dfpn §5.2): nested VCDT at the attacker's nodes, relevance
//!   zones at the defender's, df-pn, Deep df-pn or 1+ε around them.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use pns_core::prelude::*;
use pns_core::{Algo, Limits, Side, Stats, Status};
use pns_games::connect6::certify::certify;
use pns_games::connect6::zone::{self, Variant, ZoneCounts, ZoneOptions};
use pns_games::connect6::{claim, notation, vcdt, Connect6};
use pns_games::RegisteredGame;
use serde_json::json;

use crate::output::{ms, print_stats, thousands};
use crate::{interrupt, solve, CliError};

#[derive(Subcommand, Debug)]
pub enum Connect6Command {
    /// The relevance-zone-oriented search: win / draw / loss.
    Solve(ZoneArgs),
    /// The VCDT solver alone: does the side to move (or --attacker) win by
    /// continuous double threats?
    Vcdt(VcdtArgs),
}

#[derive(Args, Debug)]
pub struct Connect6Args {
    #[command(subcommand)]
    pub command: Connect6Command,
}

#[derive(Args, Debug)]
pub struct CommonArgs {
    /// Position (see `pns list`); omitted: the registry's default.
    #[arg(allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Node limit: visits of every search, the nested ones included.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Time limit in seconds.
    #[arg(long, value_name = "SECS")]
    pub time: Option<f64>,
    /// Transposition-table size in MiB.
    #[arg(long, default_value_t = 256, value_name = "MB")]
    pub hash: usize,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct ZoneArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// dfpn, deep-dfpn:e=E,d=D or dfpn-eps:eps=X (the variant around the
    /// zone problem).
    #[arg(long, default_value = "dfpn")]
    pub algo: String,
    /// Relevance zones at the defender's nodes: on or off.
    #[arg(long, default_value = "on", value_parser = ["on", "off"])]
    pub zones: String,
    /// Nested VCDT at the attacker's nodes: on or off.
    #[arg(long, default_value = "on", value_parser = ["on", "off"])]
    pub vcdt: String,
    /// Visits of each nested VCDT search at an attacker node.
    #[arg(long, default_value_t = 200, value_name = "N")]
    pub vcdt_nodes: u64,
    /// Visits of each null-move VCDT search that derives a zone.
    #[arg(long, default_value_t = 200, value_name = "N")]
    pub zone_nodes: u64,
    /// Only the N best attacker moves (the paper's top 5): proofs only, a
    /// disproof is reported as unknown.
    #[arg(long, value_name = "N")]
    pub top: Option<usize>,
    /// Propagated zones (Wu and Lin): where the null move's VCDT fails,
    /// a nested zone search of the null-move position gives the zone of
    /// its proof. on or off.
    #[arg(long, default_value = "off", value_parser = ["on", "off"])]
    pub propagate: String,
    /// Visits of each nested zone search (with --propagate on).
    #[arg(long, default_value_t = 2_000, value_name = "N")]
    pub nest_nodes: u64,
    /// Write a certificate (checked with `pns verify connect6`).
    #[arg(long, value_name = "FILE")]
    pub proof: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct VcdtArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// The side whose VCDT is searched: black, white (default: the side to
    /// move).
    #[arg(long, value_parser = ["black", "white"])]
    pub attacker: Option<String>,
}

pub fn run(a: &Connect6Args) -> Result<u8, CliError> {
    match &a.command {
        Connect6Command::Solve(z) => run_zone(z),
        Connect6Command::Vcdt(v) => run_vcdt(v),
    }
}

fn setup(c: &CommonArgs) -> Result<(Connect6, String, Limits), CliError> {
    let text = c
        .position
        .clone()
        .unwrap_or_else(|| <Connect6 as RegisteredGame>::DEFAULT_POSITION.to_string());
    let g = Connect6::parse_position(&text)
        .map_err(|e| CliError::usage(format!("invalid connect6 position '{text}': {e}")))?;
    solve::check_hash(c.hash)?;
    let time = match c.time {
        Some(t) if t.is_nan() || t < 0.0 => {
            return Err(CliError::usage(format!(
                "--time {t}: must be a non-negative number of seconds"
            )))
        }
        Some(t) => Duration::try_from_secs_f64(t).ok(),
        None => None,
    };
    if c.nodes == Some(0) {
        return Err(CliError::usage("--nodes must be at least 1"));
    }
    let limits = Limits {
        visits: c.nodes,
        time,
        stop: Some(interrupt::flag()),
        ..Limits::default()
    };
    Ok((g, text, limits))
}

/// The df-pn variant of `--algo`.
pub fn variant(s: &str) -> Result<Variant, CliError> {
    match Algo::parse(s).map_err(CliError::usage)? {
        Algo::Dfpn { .. } => Ok(Variant::Dfpn),
        Algo::DeepDfpn { e, d, .. } => Ok(Variant::Deep { e, d }),
        Algo::Epsilon { epsilon, .. } => Ok(Variant::Epsilon(epsilon)),
        other => Err(CliError::usage(format!(
            "--algo {other}: the zone search runs dfpn, deep-dfpn or dfpn-eps"
        ))),
    }
}

fn counts_json(c: &ZoneCounts) -> serde_json::Value {
    json!({
        "zones": c.zones,
        "no_zone": c.no_zone,
        "defender_moves_pruned": c.pruned,
        "defender_moves_kept": c.kept,
        "vcdt_wins": c.vcdt_wins,
        "propagated_zones": c.propagated,
        "nested_zone_searches": c.nested,
    })
}

fn run_zone(a: &ZoneArgs) -> Result<u8, CliError> {
    let (g, text, limits) = setup(&a.common)?;
    let var = variant(&a.algo)?;
    if a.top == Some(0) {
        return Err(CliError::usage("--top must be at least 1"));
    }
    if a.vcdt_nodes == 0 || a.zone_nodes == 0 {
        return Err(CliError::usage(
            "--vcdt-nodes and --zone-nodes must be at least 1",
        ));
    }
    let opts = ZoneOptions {
        zones: a.zones == "on",
        vcdt: a.vcdt == "on",
        vcdt_visits: a.vcdt_nodes,
        zone_visits: a.zone_nodes,
        top: a.top,
        propagate: a.propagate == "on",
        nest_visits: a.nest_nodes,
    };
    if a.proof.is_some() && a.top.is_some() {
        return Err(CliError::usage(
            "--proof needs every attacker move: drop --top",
        ));
    }
    let tt = solve::table(a.common.hash)?;
    let start = Instant::now();
    let (value, runs) = zone::solve(&g, var, &tt, &limits, opts);
    let elapsed = start.elapsed().as_secs_f64() * 1000.0;
    let mut stats = Stats::default();
    let mut counts = ZoneCounts::default();
    let mut seesaw = 0;
    for (_, r) in &runs {
        stats.accumulate(&r.result.stats);
        seesaw += r.seesaw;
        counts.zones += r.counts.zones;
        counts.no_zone += r.counts.no_zone;
        counts.pruned += r.counts.pruned;
        counts.kept += r.counts.kept;
        counts.vcdt_wins += r.counts.vcdt_wins;
        counts.propagated += r.counts.propagated;
        counts.nested += r.counts.nested;
    }
    let mut proof_error = None;
    let mut cert_nodes = None;
    if let (Some(path), Some(_)) = (&a.proof, value) {
        match certify(&g, &text, &tt, opts, &Limits::default()) {
            Ok(cert) => {
                cert_nodes = Some(cert.blocks.iter().map(|b| b.nodes.len()).sum::<usize>());
                if let Err(e) = std::fs::write(path, cert.to_text()) {
                    proof_error = Some(format!("cannot write {}: {e}", path.display()));
                }
            }
            Err(e) => proof_error = Some(e),
        }
    }
    let searches: Vec<_> = runs
        .iter()
        .map(|(goal, r)| {
            json!({"goal": goal.name(), "status": r.result.status.name(), "visits": r.result.stats.visits,
                   "nested_visits": r.result.stats.nested_visits, "seesaw": r.seesaw})
        })
        .collect();
    if a.common.json {
        let v = json!({
            "game": "connect6",
            "position": text,
            "solver": "zones",
            "algo": a.algo,
            "zones": opts.zones,
            "vcdt": opts.vcdt,
            "top": opts.top,
            "value": value.map(|o| o.name()),
            "searches": searches,
            "seesaw": seesaw,
            "zone": counts_json(&counts),
            "stats": stats,
            "time_ms": elapsed,
            "certificate_nodes": cert_nodes,
            "proof_error": proof_error,
        });
        println!("{v}");
    } else {
        println!("game       connect6 (relevance-zone search)");
        println!("position   {text}");
        for l in g.render().lines() {
            println!("           {l}");
        }
        println!(
            "value      {}",
            value.map_or("unknown".to_string(), |o| format!(
                "{o} for the side to move"
            ))
        );
        for (goal, r) in &runs {
            println!(
                "search     {}: {} ({} visits, {} of them in nested searches (VCDT, zone); seesaw {})",
                goal.name(),
                r.result.status.name(),
                thousands(r.result.stats.visits),
                thousands(r.result.stats.nested_visits),
                thousands(r.seesaw)
            );
        }
        println!(
            "zones      {} derived ({} propagated, {} nested zone searches), {} without; defender moves kept {} / pruned {}; {} attacker nodes won by VCDT",
            thousands(counts.zones),
            thousands(counts.propagated),
            thousands(counts.nested),
            thousands(counts.no_zone),
            thousands(counts.kept),
            thousands(counts.pruned),
            thousands(counts.vcdt_wins)
        );
        println!("time       {}", ms(elapsed));
        print_stats(&stats);
        if let Some(n) = cert_nodes {
            println!("proof      {} nodes written", thousands(n as u64));
        }
        if let Some(e) = &proof_error {
            println!("proof      not written: {e}");
        }
    }
    if interrupt::interrupted() {
        return Ok(130);
    }
    Ok(if proof_error.is_some() { 1 } else { 0 })
}

fn run_vcdt(a: &VcdtArgs) -> Result<u8, CliError> {
    let (g, text, limits) = setup(&a.common)?;
    if g.is_over() {
        return Err(CliError::usage(format!("the game is over at '{text}'")));
    }
    let attacker = match a.attacker.as_deref() {
        Some("black") => Side::First,
        Some("white") => Side::Second,
        _ => g.side_to_move(),
    };
    let tt = solve::table(a.common.hash)?;
    let visits = limits.visits.unwrap_or(u64::MAX);
    let start = Instant::now();
    let mut stats = Stats::default();
    let proof = vcdt::prove(&g, attacker, &tt, visits, 0, &mut stats);
    let elapsed = start.elapsed().as_secs_f64() * 1000.0;
    let witness = proof.as_ref().map(|t| vcdt::witness(&g, attacker, t));
    let checked = witness.as_ref().map(|w| claim::check(&g, attacker, w));
    let status = if proof.is_some() {
        Status::Proven
    } else {
        Status::Unknown
    };
    let name = |s: Side| if s == Side::First { "black" } else { "white" };
    if a.common.json {
        let v = json!({
            "game": "connect6",
            "position": text,
            "solver": "vcdt",
            "attacker": name(attacker),
            "vcdt": status == Status::Proven,
            "witness": witness,
            "witness_checked": checked.as_ref().map(|c| c.is_ok()),
            "visits": stats.visits,
            "stats": stats,
            "time_ms": elapsed,
        });
        println!("{v}");
    } else {
        println!("game       connect6 (VCDT)");
        println!("position   {}", notation::format_position(&g));
        for l in g.render().lines() {
            println!("           {l}");
        }
        match &witness {
            Some(w) => {
                println!(
                    "vcdt       {} wins by continuous double threats",
                    name(attacker)
                );
                println!("witness    {w}");
                println!(
                    "checked    {}",
                    match checked.as_ref() {
                        Some(Ok(())) => "by the rules: valid".to_string(),
                        Some(Err(e)) => format!("INVALID: {e}"),
                        None => String::new(),
                    }
                );
            }
            None => println!(
                "vcdt       none found for {} (not a disproof of a win)",
                name(attacker)
            ),
        }
        println!("time       {}", ms(elapsed));
        println!(
            "nodes      {} visits in {} VCDT searches",
            thousands(stats.visits),
            thousands(stats.nested_searches)
        );
    }
    if checked.is_some_and(|c| c.is_err()) {
        return Ok(1);
    }
    if interrupt::interrupted() {
        return Ok(130);
    }
    Ok(0)
}
