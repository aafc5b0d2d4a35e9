//! Kawano's simulation on GNU Go's tactical cases (0/1 answers, the
//! `lambda-capturing` experiment's bounded setting: the generator bounds
//! both sides), df-pn and λ-df-pn each with and without it, with the
//! simulation counters the experiment's tables leave out:
//! `cargo run --release -p pns-go --example kawano_probe -- [VISITS] [SUITE ID]`.
//! With `PROBE_COMPLETE=1` the side the question is about is bounded by
//! the generator and the other plays every point (the GTP setting's first
//! search: `attack` with the defender complete, `defend` with the attacker
//! complete).
use std::path::Path;
use std::time::Instant;

use pns_core::dfpn::{self, Kawano, Plain};
use pns_core::{Goal, GoalProblem, Limits, SearchResult, Stats, Table};
use pns_go::capture::{path_options, Capture, Generator, DEFAULT_ESCAPE_LIBS};
use pns_go::lambda::{self, LambdaParams};
use pns_go::tactical::Class;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let visits: u64 = args.get(1).map(|s| s.parse().unwrap()).unwrap_or(1500);
    let data = Path::new("../shared/data/go");
    let cases: Vec<_> =
        pns_go::tactical::load(&data.join("gnugo-tactical.tsv"), &data.join("gnugo"))
            .unwrap()
            .into_iter()
            .filter(|c| c.expected_success().is_some() && c.class != Class::Ko)
            .filter(|c| args.len() < 4 || (c.suite == args[2] && c.id == args[3]))
            .collect();
    let limits = Limits {
        visits: Some(visits),
        ..Limits::default()
    };
    let mut tt = Table::with_mb(16);
    let names = ["df-pn", "df-pn, Kawano", "λ-df-pn", "λ-df-pn, Kawano"];
    let complete = std::env::var("PROBE_COMPLETE").is_ok_and(|v| v == "1");
    for gen in Generator::ALL {
        // Per search: solved, the statistics summed, seconds.
        let mut sums = vec![(0usize, Stats::default(), 0.0f64); names.len()];
        for c in &cases {
            let Ok(g) = Capture::new(c.board, c.target, DEFAULT_ESCAPE_LIBS, gen) else {
                continue;
            };
            let g = g.with_first(if c.attack { g.attacker() } else { g.defender() });
            let g = if !complete {
                g
            } else if c.attack {
                g.with_complete(Some(g.defender()))
            } else {
                g.with_complete(Some(g.attacker()))
            };
            for (i, sum) in sums.iter_mut().enumerate() {
                tt.clear();
                let t = Instant::now();
                let r: SearchResult = match i {
                    0 | 1 => {
                        let mut p = GoalProblem::with_attacker(g, Goal::Win, g.attacker().side());
                        if i == 1 {
                            let pol = Kawano::new(Plain::default());
                            dfpn::search_with(&mut p, pol, &tt, &limits, &path_options())
                        } else {
                            dfpn::search_with(
                                &mut p,
                                Plain::default(),
                                &tt,
                                &limits,
                                &path_options(),
                            )
                        }
                    }
                    _ => {
                        let params = LambdaParams {
                            kawano: i == 3,
                            ..LambdaParams::default()
                        };
                        lambda::search(&g, &params, visits, &tt)
                    }
                };
                sum.2 += t.elapsed().as_secs_f64();
                sum.0 += usize::from(r.status.is_solved());
                sum.1.accumulate(&r.stats);
            }
        }
        for (name, (solved, s, secs)) in names.iter().zip(&sums) {
            println!(
                "{} {name}: solved {solved}, visits {}, siblings tried {}, proven {}, \
                 simulation nodes {} ({:.1} per visit), {secs:.2} s",
                gen.name(),
                s.visits,
                s.kawano_calls,
                s.kawano_proven,
                s.kawano_nodes,
                s.kawano_nodes as f64 / s.visits.max(1) as f64
            );
        }
    }
}
