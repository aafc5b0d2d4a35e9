//! GNU Go's tactical cases through `attack_coded`/`defend_coded` (the
//! answers of GTP `attack`/`defend`), two cases at a time, for trying
//! options that GTP does not take: `cargo run --release -p pns-go
//! --example tactical_probe`, with the environment variables `SOLVER`
//! (as `Solver::parse` reads it; `lambda-zones`), `VISITS` (3000), `LIBS`
//! (the escape threshold, 5), `GEN` (`h1`), `CLASS` (`unconditional`,
//! `gnugo-fails`, `ko` or `all`), `ONLY` (`suite:id,...`) and `THREADS`
//! (2, cases at a time), `HALVES` (threads per question, 1: 2 runs its
//! capture and escape halves at once), `HORIZON` (the rule: `off`, `gnugo`, `F/T`), `CAPTURE_HORIZON`
//! (capture proofs' search horizon, `4/10`), `SNAPBACK` (GNU Go's snapback
//! rule, `on`), `UNSOUND` (`1`: the generator
//! bounds both sides, no proof) and `GUESS` (`1`: `coded_or_guess`, the
//! bounded game's guess where no proof answers). One line per case
//! (`[ok]`, `[BAD]`, `[unk]`; guesses `[guess-ok]`, `[guess-BAD]`), then a
//! summary.
//! Run from the repository root (`../shared` beside it).
use std::path::Path;
use std::sync::Mutex;

use pns_go::capture::{self, Capture, Effort, Generator, Horizon, Solver};
use pns_go::tactical::Class;

fn main() {
    let data = Path::new("../shared/data/go");
    let cases =
        pns_go::tactical::load(&data.join("gnugo-tactical.tsv"), &data.join("gnugo")).unwrap();
    let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
    let libs: u32 = env("LIBS", "5").parse().unwrap();
    let visits: u64 = env("VISITS", "3000").parse().unwrap();
    let solver = Solver::parse(&env("SOLVER", "lambda-zones")).unwrap();
    let gen = Generator::from_name(&env("GEN", "h1")).unwrap();
    let horizon = Horizon::parse(&env("HORIZON", "off")).unwrap();
    let capture_horizon = match std::env::var("CAPTURE_HORIZON") {
        Ok(v) => Horizon::parse(&v).unwrap(),
        Err(_) => Some(capture::CAPTURE_HORIZON),
    };
    let snapback = env("SNAPBACK", "on") == "on";
    let only = env("ONLY", "");
    let class = env("CLASS", "unconditional");
    let cases: Vec<_> = cases
        .into_iter()
        .filter(|c| c.class.name() == class || (class == "all" && c.class != Class::Other))
        .filter(|c| {
            only.is_empty()
                || only
                    .split(',')
                    .any(|o| o == format!("{}:{}", c.suite, c.id))
        })
        .collect();
    let next = Mutex::new(0usize);
    let out = Mutex::new(Vec::new());
    let threads: usize = env("THREADS", "2").parse().unwrap();
    let unsound = env("UNSOUND", "0") == "1";
    let guess = env("GUESS", "0") == "1";
    let halves: usize = env("HALVES", "1").parse().unwrap();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                let Some(c) = cases.get(i) else { break };
                let g = Capture::new(c.board, c.target, libs, gen)
                    .unwrap()
                    .with_horizon(horizon)
                    .with_capture_horizon(capture_horizon)
                    .with_snapback(snapback);
                let mut e = Effort::default();
                let t = std::time::Instant::now();
                let (a, proven) = if unsound {
                    (bounded_code(&g, c.attack, &solver, visits, &mut e), false)
                } else {
                    let r = capture::coded_or_guess(
                        &g,
                        c.attack,
                        &solver,
                        visits,
                        capture::Run::threads(halves),
                        guess,
                        &mut e,
                    );
                    (r.map(|r| r.coded), r.is_some_and(|r| r.proven))
                };
                let secs = t.elapsed().as_secs_f64();
                let (txt, verdict) = match a {
                    None => ("unknown".to_string(), "unk"),
                    Some(k) => {
                        let mv = k.mv.map(|m| c.board.format_move(m).to_uppercase());
                        let ok = c.codes.contains(&(k.code as u32)) != c.negated;
                        (
                            format!("{} {}", k.code, mv.unwrap_or_default()),
                            match (ok, proven || unsound) {
                                (true, true) => "ok",
                                (false, true) => "BAD",
                                (true, false) => "guess-ok",
                                (false, false) => "guess-BAD",
                            },
                        )
                    }
                };
                let line = format!(
                    "{} {} {} {} want {:?}{:?} -> {} [{}] {:.3}s {} visits",
                    c.suite,
                    c.id,
                    if c.attack { "attack" } else { "defend" },
                    c.target_vertex,
                    c.codes,
                    c.moves,
                    txt,
                    verdict,
                    secs,
                    e.visits
                );
                println!("{line}");
                out.lock().unwrap().push((i, verdict, secs));
            });
        }
    });
    let out = out.into_inner().unwrap();
    let n = |v: &str| out.iter().filter(|o| o.1 == v).count();
    let t: f64 = out.iter().map(|o| o.2).sum();
    println!(
        "SUMMARY {} libs={libs} visits={visits}: ok {} bad {} unk {} guess-ok {} guess-bad {} time {:.1}s",
        solver.describe(),
        n("ok"),
        n("BAD"),
        n("unk"),
        n("guess-ok"),
        n("guess-BAD"),
        t
    );
}

/// `UNSOUND=1`: the generator bounds both sides (no side plays every
/// point), as GNU Go reads: no proof in Go, a measure of how far the
/// bounded game agrees with the suite. Codes 1 and 0 only, no move.
fn bounded_code(
    g: &Capture,
    attack: bool,
    solver: &Solver,
    visits: u64,
    e: &mut Effort,
) -> Option<capture::Coded> {
    use pns_core::Status;
    let first = if attack { g.attacker() } else { g.defender() };
    let q = g.with_first(first).with_complete(None);
    let tt = pns_core::Table::with_mb(16);
    let s = solver.status(&q, visits, &tt, e);
    let captured = match s {
        Status::Proven => true,
        Status::Disproven => false,
        Status::Unknown => return None,
    };
    Some(capture::Coded {
        code: (captured == attack) as u8,
        mv: None,
    })
}
