use std::time::Instant;

use pns_connect6::openings::random_opening;
use pns_connect6::zone::{self, Variant, ZoneOptions};
use pns_connect6::{notation, Params};
use pns_core::{Goal, Limits, Rng, Table};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let w: usize = args[1].parse().unwrap();
    let k: usize = args[2].parse().unwrap();
    let turns: usize = args[3].parse().unwrap();
    let rb: usize = args[4].parse().unwrap();
    let rw: usize = args[5].parse().unwrap();
    let top: usize = args[6].parse().unwrap();
    let limit: u64 = args[7].parse().unwrap();
    let n: u64 = args[8].parse().unwrap();
    let params = Params {
        width: w,
        height: w,
        k,
        ..Params::default()
    };
    let tt = Table::with_mb(64);
    let mut tt = tt;
    for seed in 0..n {
        let g = random_opening(params, turns, rb, rw, &mut Rng::new(seed)).unwrap();
        for zones in [true, false] {
            tt.clear();
            let opts = ZoneOptions {
                zones,
                top: (top > 0).then_some(top),
                ..ZoneOptions::default()
            };
            let t = Instant::now();
            let r = zone::search(
                &g,
                Goal::Win,
                Variant::Dfpn,
                &tt,
                &Limits {
                    visits: Some(limit),
                    ..Limits::default()
                },
                opts,
            );
            println!(
                "{seed} zones={zones} {} {:?} visits {} nested {} seesaw {} zones {:?} {:.1} ms",
                notation::format_position(&g),
                r.result.status,
                r.result.stats.visits,
                r.result.stats.nested_visits,
                r.seesaw,
                r.counts,
                t.elapsed().as_secs_f64() * 1000.0
            );
        }
    }
}
