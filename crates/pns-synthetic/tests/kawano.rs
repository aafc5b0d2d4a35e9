//! df-pn with Kawano's simulation (`dfpn:kawano=1`,
//! `pns_core::dfpn::kawano`) against the exact oracles: on game graphs
//! whose positions repeat, under both repetition rules and every GHI-safe
//! mode (a simulated proof must hold on the line it is used on), and on
//! random trees with transpositions and draws. Every value is checked
//! against the oracle and every certificate by the rules-only verifier;
//! simulation must actually prove something on each set, or the test
//! would check nothing.

use pns_core::dfpn::{self, GhiMode, Kawano, PathOptions, Plain};
use pns_core::prelude::*;
use pns_core::solve::{solve, SolveOptions};
use pns_core::verify::verify;
use pns_core::{Algo, Limits, Outcome, Problem, Repetition, Side, Status, Table};
use pns_synthetic::cyclic::oracle;
use pns_synthetic::{Cyclic, Synthetic};

/// Solves `pos` with `algo`: the value and certificate checked against
/// `want`; returns the siblings simulation proved.
fn check<G: Game>(g: &G, pos: &str, algo: &str, want: Outcome, tt: &mut Table) -> u64 {
    check_threads(g, pos, algo, want, tt, 1)
}

/// [`check`] with `threads` agents (parallel df-pn, for games without
/// repetitions).
fn check_threads<G: Game>(
    g: &G,
    pos: &str,
    algo: &str,
    want: Outcome,
    tt: &mut Table,
    threads: usize,
) -> u64 {
    let opts = SolveOptions {
        algo: Algo::parse(algo).unwrap(),
        limits: Limits {
            visits: Some(1_000_000),
            ..Limits::default()
        },
        proof: true,
        threads,
        ..Default::default()
    };
    tt.clear();
    let r = solve(g, pos, &opts, tt);
    assert_eq!(r.value, Some(want), "{algo} on {pos}");
    assert_eq!(r.proof_error, None, "{algo} on {pos}");
    let cert = r.certificate.expect("a certificate");
    assert_eq!(verify(g, &cert), Ok(want), "{algo} on {pos}: certificate");
    r.stats.kawano_proven
}

/// Runs `f` in a thread with room for deep recursion.
fn big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn simulation_is_right_on_graphs_that_repeat_under_every_ghi_mode() {
    big_stack(|| {
        let mut tt = Table::with_mb(1);
        for mode in ["nocycle", "sim", "dup"] {
            let algo = format!("dfpn:ghi={mode},kawano=1");
            let mut proven = 0;
            for rule in ["fpl", "cpl"] {
                for seed in 0..5000u64 {
                    let pos = format!(
                        "rule={rule},nodes={},degree={},seed={seed},terminal={},win=50",
                        2 + seed % 23,
                        1 + seed % 5,
                        10 + seed % 41
                    );
                    let g = Cyclic::parse_position(&pos).unwrap();
                    let want = if oracle(&g) {
                        Outcome::Win
                    } else {
                        Outcome::Loss
                    };
                    proven += check(&g, &pos, &algo, want, &mut tt);
                }
            }
            eprintln!("{algo}: {proven} siblings proven by simulation");
            assert!(proven > 50, "{algo}: {proven} siblings simulated");
        }
    });
}

/// The GHI paper's figures and the graphs on which a search that ignores
/// the path goes wrong (`pns-games/tests/cyclic.rs`).
#[test]
fn simulation_is_right_on_the_ghi_traps() {
    const CASES: [(&str, bool); 6] = [
        ("rule=fpl A:B,C B:D,E C:F D:loss E:G,H F:H G:loss H:E", true),
        ("rule=cpl A:B,C B:D,E C:F D:loss E:G,H F:H G:win H:E", false),
        ("rule=cpl A:B,C B:D C:D D:C", true),
        ("rule=fpl A:B,C B:D C:D D:C", false),
        (
            "rule=fpl 0:7 1:4 2:11,5,1 3:8 4:11,1,3 5:6 6:5 7:2,4 8:1,9 9:loss 11:win",
            true,
        ),
        ("rule=cpl A:C,B B:D C:D D:C", true),
    ];
    let mut tt = Table::with_mb(1);
    for mode in ["nocycle", "sim", "dup"] {
        for (pos, win) in CASES {
            let g = Cyclic::parse_position(pos).unwrap();
            let want = if win { Outcome::Win } else { Outcome::Loss };
            check(&g, pos, &format!("dfpn:ghi={mode},kawano=1"), want, &mut tt);
        }
    }
}

#[test]
fn simulation_is_right_on_random_trees_with_transpositions_and_draws() {
    big_stack(|| {
        let mut tt = Table::with_mb(1);
        let mut proven = 0;
        for seed in 0..400u64 {
            let pos = format!(
                "shape={},depth={},branching={},seed={seed},pool={},win={},draw={}",
                if seed % 2 == 0 {
                    "balanced"
                } else {
                    "unbalanced"
                },
                4 + seed % 5,
                2 + seed % 3,
                [0, 6, 30][(seed % 3) as usize],
                30 + seed % 40,
                [0, 20][(seed % 2) as usize],
            );
            let g = Synthetic::parse_position(&pos).unwrap();
            let want = g.exact();
            proven += check(&g, &pos, "dfpn:kawano=1", want, &mut tt);
            check(&g, &pos, "dfpn:h=0,kawano=1", want, &mut tt);
            // Parallel df-pn's agents simulate on the one table too.
            let mut shared = Table::with_mb(1);
            check_threads(&g, &pos, "dfpn:kawano=1", want, &mut shared, 2);
        }
        eprintln!("synthetic trees: {proven} siblings proven by simulation");
        assert!(proven > 0);
    });
}

/// A graph whose moves are *indices* into the successor list, so that the
/// same move from two siblings leads to two different positions (with the
/// graph's own moves, the target vertex, a replay only transposes into the
/// proof it copies). The value is the graph's; only what simulation
/// replays changes.
struct Indexed {
    stack: Vec<Cyclic>,
    attacker: Side,
}

impl Problem for Indexed {
    type Move = u8;

    fn is_or(&self) -> bool {
        self.top().side_to_move() == self.attacker
    }

    fn evaluate(&self) -> Status {
        match self.top().outcome() {
            None => Status::Unknown,
            Some(o) if (o == Outcome::Win) == self.is_or() => Status::Proven,
            Some(_) => Status::Disproven,
        }
    }

    fn generate(&self, out: &mut Vec<u8>) {
        let g = self.top();
        out.extend(0..g.graph().successors(g.vertex()).len() as u8);
    }

    fn play(&mut self, m: u8) {
        let mut c = self.top().clone();
        let v = c.graph().successors(c.vertex())[m as usize];
        c.play(v);
        self.stack.push(c);
    }

    fn undo(&mut self) {
        self.stack.pop();
    }

    fn key(&self) -> u64 {
        self.top().key()
    }

    fn repetition(&self) -> Repetition {
        self.top().repetition()
    }
}

impl Indexed {
    fn top(&self) -> &Cyclic {
        self.stack.last().expect("root")
    }
}

/// Kawano's simulation where a replay really walks new positions (and
/// meets repetitions on its own line): every GHI-safe mode, both rules,
/// against the oracle; plain df-pn's value too.
#[test]
fn replays_on_new_positions_are_right_under_every_ghi_mode() {
    big_stack(|| {
        let mut tt = Table::with_mb(1);
        let limits = Limits {
            visits: Some(1_000_000),
            ..Limits::default()
        };
        for mode in [GhiMode::NoCycle, GhiMode::Sim, GhiMode::Dup] {
            let path = PathOptions {
                mode,
                ..Default::default()
            };
            let (mut proven, mut fewer, mut more, mut dual) = (0, 0, 0, 0);
            for rule in ["fpl", "cpl"] {
                for seed in 0..5000u64 {
                    let pos = format!(
                        "rule={rule},nodes={},degree={},seed={seed},terminal={},win=50",
                        4 + seed % 21,
                        2 + seed % 4,
                        10 + seed % 41
                    );
                    let g = Cyclic::parse_position(&pos).unwrap();
                    let want = if oracle(&g) {
                        Status::Proven
                    } else {
                        Status::Disproven
                    };
                    let mut p = Indexed {
                        stack: vec![g.clone()],
                        attacker: g.side_to_move(),
                    };
                    tt.clear();
                    let a = dfpn::search_with(&mut p, Plain::default(), &tt, &limits, &path);
                    tt.clear();
                    let pol = Kawano::new(Plain::default());
                    let b = dfpn::search_with(&mut p, pol, &tt, &limits, &path);
                    tt.clear();
                    let pol = Kawano::new(Plain::default()).with_dual(true);
                    let c = dfpn::search_with(&mut p, pol, &tt, &limits, &path);
                    assert_eq!(a.status, want, "plain df-pn, {mode:?}, {pos}");
                    assert_eq!(b.status, want, "with simulation, {mode:?}, {pos}");
                    assert_eq!(c.status, want, "with dual simulation, {mode:?}, {pos}");
                    proven += b.stats.kawano_proven;
                    dual += c.stats.kawano_proven.saturating_sub(b.stats.kawano_proven);
                    fewer += (b.stats.visits < a.stats.visits) as u64;
                    more += (b.stats.visits > a.stats.visits) as u64;
                }
            }
            eprintln!(
                "{mode:?}: {proven} siblings proven by simulation; fewer visits on {fewer} \
                 graphs, more on {more}; {dual} more settled with dual simulation"
            );
            assert!(proven > 50, "{mode:?}: {proven}");
            assert!(dual > 50, "{mode:?}: {dual} more with dual simulation");
        }
    });
}
