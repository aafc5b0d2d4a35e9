//! Looks at the connect6-deep-dfpn candidates: whether VCDT alone wins at
//! the root, and the zone df-pn's node numbers with VCDT zones only and
//! with propagated zones. `cargo run --release -p pns-lab --example
//! c6_pick -- [FIRST] [COUNT] [MAX_VISITS] [6: the hard candidates]`.

use std::time::Instant;

use pns_core::{Goal, Limits, Side, Stats, Status, Table};
use pns_games::connect6::notation;
use pns_games::connect6::vcdt;
use pns_games::connect6::zone::{self, Variant, ZoneOptions};
use pns_lab::experiments::connect6_deep_dfpn::{candidate, hard_candidate, zone_options};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let first = args.first().copied().unwrap_or(0) as usize;
    let count = args.get(1).copied().unwrap_or(40) as usize;
    let max = args.get(2).copied().unwrap_or(60_000);
    let white = args.get(3).copied().unwrap_or(3) as usize;
    let mut tt = Table::with_mb(32);
    for i in first..first + count {
        // The experiment's candidates, or (WHITE given) its hard ones.
        let g = if white == 3 {
            candidate(1, i)
        } else {
            hard_candidate(1, i)
        };
        tt.clear();
        let mut st = Stats::default();
        let t = Instant::now();
        let won = vcdt::search(&g, Side::First, &tt, vcdt::CLAIM_BUDGET, 0, &mut st);
        let mut row = format!(
            "{i} {} | vcdt {} {} {:.0}ms",
            notation::format_position(&g),
            won.name(),
            st.visits,
            t.elapsed().as_secs_f64() * 1000.0
        );
        if won == Status::Proven {
            println!("{row}");
            continue;
        }
        for (name, opts) in [
            ("vcdt-zones", zone_options()),
            (
                "propagated",
                ZoneOptions {
                    propagate: true,
                    ..zone_options()
                },
            ),
        ] {
            tt.clear();
            let limits = Limits {
                visits: Some(max),
                ..Limits::default()
            };
            let t = Instant::now();
            let r = zone::search(&g, Goal::Win, Variant::Dfpn, &tt, &limits, opts);
            let s = &r.result.stats;
            row += &format!(
                " | {name} {} {} own {} zones {} prop {} nested {} {:.0}ms",
                r.result.status.name(),
                s.visits,
                s.visits - s.nested_visits,
                r.counts.zones,
                r.counts.propagated,
                r.counts.nested,
                t.elapsed().as_secs_f64() * 1000.0
            );
        }
        println!("{row}");
    }
}
