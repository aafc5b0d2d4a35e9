//! Diagnostic for the Microcosmos tails (docs/PERFORMANCE.md, issue 13):
//! searches the position after the first K plies of the published main
//! line (../shared/data/shogi/microcosmos-answer.usi) alone, with a visit
//! cap, prints the statistics, then walks the rest of the main line through
//! the table and prints what the search knows of each position (pn, dn,
//! effort, flags: 0x4 = a path-dependent result is stored as a twin and the
//! base entry is unsolved).
//!
//! ```text
//! cargo run --release -p pns-shogi --example tail -- K VISITS [HASH_MB [EVERY]]
//! ```
//!
//! EVERY prints every EVERY-th position of the line. Environment:
//! `ALGO=dfpn-eps:eps=0.5` another algorithm (default df-pn); `KIDS=1`
//! each printed position's children too; `LEN=N` then the exact length
//! search with a budget of N positions, timed; `HEAVY=PLY[,MOVE...]`
//! instead of the walk, from that position of the line (then those moves)
//! follow the child with the most effort, printing each node's children:
//! where the search spent its visits.
use pns_core::game::Goal;
use pns_core::prelude::*;
use pns_core::{Algo, GoalProblem, Limits, Problem, Table};
use pns_shogi::Tsume;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: tail K VISITS [HASH_MB [EVERY]] (run from the repository root)");
        std::process::exit(2);
    }
    let k: usize = args[1].parse().unwrap();
    let visits: u64 = args[2].parse().unwrap();
    let mb: usize = args.get(3).map(|s| s.parse().unwrap()).unwrap_or(1024);
    let every: usize = args.get(4).map(|s| s.parse().unwrap()).unwrap_or(1);
    let probs = std::fs::read_to_string("../shared/data/shogi/long-problems.tsv").unwrap();
    let sfen = probs
        .lines()
        .find(|l| l.contains("Microcosmos"))
        .unwrap()
        .split('\t')
        .next()
        .unwrap()
        .to_string();
    let moves: Vec<String> = std::fs::read_to_string("../shared/data/shogi/microcosmos-answer.usi")
        .unwrap()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let text = format!("{sfen} moves {}", moves[..k].join(" "));
    let root = Tsume::parse(&text).unwrap();

    let tt = Table::with_mb(mb);
    let mut p = GoalProblem::new(root.clone(), Goal::Win);
    let limits = Limits {
        visits: Some(visits),
        ..Default::default()
    };
    let t0 = std::time::Instant::now();
    let algo = match std::env::var("ALGO") {
        Ok(a) => Algo::parse(&a).unwrap(),
        Err(_) => Algo::default(),
    };
    let r = algo.run(&mut p, &tt, &limits);
    let s = &r.stats;
    println!(
        "K={k} status={:?} visits={} expanded={} revisits={} nodes={} maxdepth={} avgdepth={:.1} reps={} twin_hits={} sim_calls={} sim_failed={} sim_nodes={} tt_repl={} time={:.2}s",
        r.status,
        s.visits,
        s.expanded,
        s.seesaw_revisits,
        s.nodes,
        s.max_depth,
        s.avg_mpn_depth,
        s.repetitions,
        s.twin_hits,
        s.sim_calls,
        s.sim_failed,
        s.sim_nodes,
        s.tt_replacements,
        t0.elapsed().as_secs_f64()
    );
    let (l, f, st) = pns_shogi::hands::counters();
    println!("hands lookups={l} found={f} stored={st}");
    if let Ok(b) = std::env::var("LEN") {
        let t1 = std::time::Instant::now();
        let mut ml = pns_shogi::MateLength::new(b.parse().unwrap());
        let r = ml.solve(&root, 255);
        println!(
            "length search: {:?} nodes={} time={:.2}s",
            r.map(|o| o.map(|l| l.length)),
            ml.nodes,
            t1.elapsed().as_secs_f64()
        );
    }
    // HEAVY=ply[,move]: from that main-line position (then that move),
    // follow the child with the largest effort, printing each node's children.
    if let Ok(spec) = std::env::var("HEAVY") {
        let mut parts = spec.split(',');
        let at: usize = parts.next().unwrap().parse().unwrap();
        let mut q = GoalProblem::new(root.clone(), Goal::Win);
        for m in &moves[k..at] {
            let mv = q.game().parse_move(m).unwrap();
            q.play(mv);
        }
        for m in parts {
            let mv = q.game().parse_move(m).unwrap();
            q.play(mv);
        }
        let mut seen = std::collections::HashSet::new();
        for step in 0..400 {
            let g = q.game().clone();
            let mut ms = Vec::new();
            g.search_moves(&mut ms);
            let mut best = None;
            let mut line = String::new();
            for &c in &ms {
                q.play(c);
                let ch = tt.probe(q.key());
                if let Some(h) = ch {
                    let st = if h.pn == 0 {
                        "P".to_string()
                    } else if h.dn == 0 {
                        "D".to_string()
                    } else {
                        format!("{}/{}", h.pn, h.dn)
                    };
                    line.push_str(&format!(
                        " {}:{}:{}{}",
                        c.usi(),
                        st,
                        h.amount,
                        if h.flags & 4 != 0 { "t" } else { "" }
                    ));
                    if !seen.contains(&q.key()) && best.is_none_or(|(a, _)| h.amount > a) {
                        best = Some((h.amount, c));
                    }
                } else {
                    line.push_str(&format!(" {}:-", c.usi()));
                }
                q.undo();
            }
            println!(
                "{step:3} {} {}",
                if q.is_or() { "OR " } else { "AND" },
                line
            );
            seen.insert(q.key());
            match best {
                Some((a, c)) if a > 10 => q.play(c),
                _ => break,
            }
        }
        println!("end {}", q.game().position().to_sfen());
        return;
    }
    // Walk the rest of the main line.
    let mut q = GoalProblem::new(root.clone(), Goal::Win);
    for (i, m) in moves[k..].iter().enumerate() {
        let ply = k + i;
        let h = tt.probe(q.key());
        let g = q.game().clone();
        let mut ms = Vec::new();
        g.search_moves(&mut ms);
        let mv = g.parse_move(m).unwrap();
        let idx = ms.iter().position(|&x| x == mv).unwrap();
        if i % every == 0 || i + 1 == moves.len() - k {
            match h {
                Some(h) => println!(
                    "ply {ply:4} {} {:6} n={:2} idx={:2} pn={:>12} dn={:>12} amount={:>9} flags={:#x} best={}",
                    if q.is_or() { "OR " } else { "AND" },
                    m,
                    ms.len(),
                    idx,
                    h.pn,
                    h.dn,
                    h.amount,
                    h.flags,
                    h.best
                ),
                None => println!(
                    "ply {ply:4} {} {:6} n={:2} idx={:2} (not in table)",
                    if q.is_or() { "OR " } else { "AND" },
                    m,
                    ms.len(),
                    idx
                ),
            }
        }
        if std::env::var("KIDS").is_ok() && (i % every == 0) {
            for (j, &c) in ms.iter().enumerate() {
                q.play(c);
                let ch = tt.probe(q.key());
                match ch {
                    Some(h) => println!(
                        "      {}{:6} pn={:>12} dn={:>12} amount={:>9} flags={:#x}",
                        if j == idx { "*" } else { " " },
                        c.usi(),
                        h.pn,
                        h.dn,
                        h.amount,
                        h.flags
                    ),
                    None => println!("      {}{:6} -", if j == idx { "*" } else { " " }, c.usi()),
                }
                q.undo();
            }
        }
        q.play(mv);
    }
}
