//! One GNU Go tactical case through the zone search, with its counters:
//! `cargo run --release -p pns-go --example zone_probe -- SUITE ID [VISITS] [PARAMS]`.
use std::path::Path;

use pns_core::Table;
use pns_go::capture::{Capture, Generator, DEFAULT_ESCAPE_LIBS};
use pns_go::zone::{self, ZoneParams};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let data = Path::new("../shared/data/go");
    let cases =
        pns_go::tactical::load(&data.join("gnugo-tactical.tsv"), &data.join("gnugo")).unwrap();
    let visits: u64 = args.get(3).map(|s| s.parse().unwrap()).unwrap_or(3000);
    let params = ZoneParams::default()
        .parse(args.get(4).map(String::as_str).unwrap_or(""))
        .unwrap();
    for c in cases
        .iter()
        .filter(|c| c.suite == args[1] && c.id == args[2])
    {
        let g = Capture::new(c.board, c.target, DEFAULT_ESCAPE_LIBS, Generator::H1).unwrap();
        let g = g.with_first(if c.attack { g.attacker() } else { g.defender() });
        for x in [g.defender(), g.attacker()] {
            let q = g.with_complete(Some(x));
            let tt = Table::with_mb(16);
            let t = std::time::Instant::now();
            let (r, counts) = zone::search(&q, &params, visits, &tt);
            println!(
                "complete {x:?}: {:?} visits {} nested visits {} in {:?}\n  {counts:?}",
                r.status,
                r.stats.visits,
                r.stats.nested_visits,
                t.elapsed()
            );
        }
    }
}
