//! The zones' effect for docs/PERFORMANCE.md (section "Connect6"):
//! `cargo run --release -p pns-connect6 --example c6_zones`. On the
//! connect6-deep-dfpn positions (the eight openings and the hard one),
//! Black's top 5 moves, 200,000 visits at most: no zones, zones from the
//! null move's VCDT, and propagated zones (a nested zone search where the
//! null move's VCDT fails), with and without that VCDT.

use std::time::Instant;

use pns_connect6::openings::EXPERIMENT_POSITIONS;
use pns_connect6::zone::{self, Variant, ZoneOptions};
use pns_connect6::Connect6;
use pns_core::prelude::*;
use pns_core::{Goal, Limits, Table};

/// The positions of docs/experiments/connect6-deep-dfpn (seed 1).
const POSITIONS: &[&str] = &EXPERIMENT_POSITIONS;

fn main() {
    let mut tt = Table::with_mb(32);
    let base = ZoneOptions {
        top: Some(5),
        ..ZoneOptions::default()
    };
    let modes = [
        (
            "no zones",
            ZoneOptions {
                zones: false,
                ..base
            },
        ),
        ("VCDT zones", base),
        (
            "propagated",
            ZoneOptions {
                propagate: true,
                ..base
            },
        ),
        (
            "propagated only",
            ZoneOptions {
                propagate: true,
                zone_visits: 0,
                ..base
            },
        ),
    ];
    print!("| position |");
    for (name, _) in &modes {
        print!(" {name} |");
    }
    println!();
    for (i, p) in POSITIONS.iter().enumerate() {
        let g = Connect6::parse_position(p).expect("position");
        let mut row = format!("| {} |", i + 1);
        for (_, opts) in &modes {
            tt.clear();
            let limits = Limits {
                visits: Some(200_000),
                ..Limits::default()
            };
            let t = Instant::now();
            let r = zone::search(&g, Goal::Win, Variant::Dfpn, &tt, &limits, *opts);
            let ms = t.elapsed().as_secs_f64() * 1000.0;
            let s = &r.result.stats;
            row += &format!(
                " {} {}/{} ({:.0} ms; zones {}, propagated {}, nested {}) |",
                r.result.status.name(),
                s.visits,
                s.visits - s.nested_visits,
                ms,
                r.counts.zones,
                r.counts.propagated,
                r.counts.nested
            );
        }
        println!("{row}");
    }
}
