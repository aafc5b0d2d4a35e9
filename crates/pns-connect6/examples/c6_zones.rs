//! The zones' effect for docs/PERFORMANCE.md (section "Connect6"):
//! `cargo run --release -p pns-connect6 --example c6_zones`. On the
//! connect6-deep-dfpn positions (the eight openings and the hard one),
//! Black's top 5 moves, 200,000 visits at most: no zones, zones from the
//! null move's VCDT, and propagated zones (a nested zone search where the
//! null move's VCDT fails), with and without that VCDT.

use std::time::Instant;

use pns_connect6::zone::{self, Variant, ZoneOptions};
use pns_connect6::Connect6;
use pns_core::prelude::*;
use pns_core::{Goal, Limits, Table};

/// The positions of docs/experiments/connect6-deep-dfpn (seed 1).
const POSITIONS: [&str; 9] = [
    "i8 g8m8 h10h11 j9l9 k12l12 j10i13",
    "j8 h8g10 i10j10 k10i12 l11j12 l12m13",
    "h9 h8g10 j10k11 m10l11 j12l12 h12m13",
    "k9 g7l7 h10l10 i8m8 j11l12 k10h13",
    "h10 m9g10 j10h11 i12g13 l11l12 h13m13",
    "l8 g7i9 h9l10 j9l9 k11l12 i11g12",
    "l8 i7j8 k9h11 k8h9 j11j12 l9i11",
    "j9 k10h11 k9j10 j12l13",
    "l8 f9h9 k9j11 i11n11 h12l12 j13n15",
];

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
