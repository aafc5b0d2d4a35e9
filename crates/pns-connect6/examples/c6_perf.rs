//! The measurements of docs/PERFORMANCE.md (section "Connect6"):
//! `cargo run --release -p pns-connect6 --example c6_perf`.
//!
//! 1. the threat detector: threat counts (live windows and the fewest
//!    blocking stones) per second on seeded random 19x19 positions;
//! 2. VCDT alone and the zone search on the experiment's eight openings,
//!    with zones and VCDT switched on and off;
//! 3. the same on seeded 9x9 five-in-a-row openings, full width.

use std::time::Instant;

use pns_connect6::openings::random_opening;
use pns_connect6::openings::EXPERIMENT_POSITIONS;
use pns_connect6::zone::{self, Variant, ZoneOptions};
use pns_connect6::{notation, vcdt, Connect6, Params};
use pns_core::prelude::*;
use pns_core::{Goal, Limits, Rng, Side, Stats, Table};

/// The eight openings of docs/experiments/connect6-deep-dfpn (seed 1):
/// the VCDT wins.
const OPENINGS: &[&str] = EXPERIMENT_POSITIONS.split_at(8).0;

fn main() {
    // 1. Threat detector.
    let mut rng = Rng::new(7);
    let mut positions = Vec::new();
    while positions.len() < 2000 {
        let mut g = Connect6::standard();
        let n = 10 + rng.below(40) as usize;
        for _ in 0..n {
            let e: Vec<u16> = g.empties().iter().collect();
            let c = e[rng.below(e.len() as u64) as usize];
            let mut t = g.clone();
            t.place(c);
            if !t.is_over() {
                g = t;
            }
        }
        positions.push(g);
    }
    let t = Instant::now();
    let mut calls = 0u64;
    let mut sum = 0usize;
    for _ in 0..50 {
        for g in &positions {
            sum += g.threats(Side::First, 3) + g.threats(Side::Second, 3);
            calls += 2;
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "threat detector: {calls} threat counts in {:.2} s = {:.0} per second (checksum {sum})",
        s,
        calls as f64 / s
    );

    // 2. The experiment's openings.
    let mut tt = Table::with_mb(64);
    println!("\nopening | VCDT alone | zones+VCDT | no zones | no VCDT | no zones, no VCDT  (status visits/nested ms; top 5, 200k visits)");
    for (i, p) in OPENINGS.iter().enumerate() {
        let g = Connect6::parse_position(p).unwrap();
        tt.clear();
        let t = Instant::now();
        let mut st = Stats::default();
        let v = vcdt::search(&g, Side::First, &tt, 200_000, 0, &mut st);
        let mut row = format!(
            "{} | {} {} {:.0} ms",
            i + 1,
            v.name(),
            st.visits,
            t.elapsed().as_secs_f64() * 1000.0
        );
        for (zones, vc) in [(true, true), (false, true), (true, false), (false, false)] {
            tt.clear();
            let opts = ZoneOptions {
                zones,
                vcdt: vc,
                top: Some(5),
                ..ZoneOptions::default()
            };
            let t = Instant::now();
            let limits = Limits {
                visits: Some(200_000),
                ..Limits::default()
            };
            let r = zone::search(&g, Goal::Win, Variant::Dfpn, &tt, &limits, opts);
            let ms = t.elapsed().as_secs_f64() * 1000.0;
            row += &format!(
                " | {} {}/{} {:.0} ms ({:.0}/s)",
                r.result.status.name(),
                r.result.stats.visits,
                r.result.stats.nested_visits,
                ms,
                r.result.stats.visits as f64 / (ms / 1000.0)
            );
        }
        println!("{row}");
    }

    // 3. 9x9 five-in-a-row openings, full width.
    let params = Params {
        width: 9,
        height: 9,
        k: 5,
        ..Params::default()
    };
    println!("\n9x9 k=5 opening | value | zones+VCDT | no zones | game df-pn (no VCDT, no zones)");
    for seed in 0..14 {
        let g = random_opening(params, 4, 2, 2, &mut Rng::new(seed)).unwrap();
        let mut row = notation::format_position(&g);
        let mut value = None;
        for zones in [true, false] {
            tt.clear();
            let opts = ZoneOptions {
                zones,
                ..ZoneOptions::default()
            };
            let t = Instant::now();
            let (v, runs) = zone::solve(&g, Variant::Dfpn, &tt, &Limits::default(), opts);
            value = v;
            let visits: u64 = runs.iter().map(|(_, r)| r.result.stats.visits).sum();
            let nested: u64 = runs.iter().map(|(_, r)| r.result.stats.nested_visits).sum();
            row += &format!(
                " | {visits}/{nested} {:.1} ms",
                t.elapsed().as_secs_f64() * 1000.0
            );
        }
        tt.clear();
        let t = Instant::now();
        let rep =
            pns_core::solve::solve(&g, "", &pns_core::solve::SolveOptions::default(), &mut tt);
        row += &format!(
            " | {} {:.1} ms",
            rep.stats.visits,
            t.elapsed().as_secs_f64() * 1000.0
        );
        assert_eq!(rep.value, value);
        println!("{row} | {}", value.map_or("?", |o| o.name()));
    }
}
