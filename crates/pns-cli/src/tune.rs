//! `pns tune`: choose Deep df-pn's (E, D) for a position by the Deep df-pn
//! paper's hill-climbing (§6.4, Algorithm 1), by the full grid, or both and
//! compare them (Table 3). The work is in `pns_lab::tune`.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use pns_core::Goal;
use pns_lab::tune::{tune, HillOptions, HillResult, Method, Point, Run, TuneOptions, TuneReport};
use serde_json::json;

use crate::games::read_position;
use crate::output::{ms, thousands};
use crate::{interrupt, with_game, CliError};
use pns_games::RegisteredGame;

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Game: connect4, tictactoe, synthetic, ...
    pub game: String,
    /// Position in the game's notation; omitted: a built-in default. It
    /// may begin with `-` (Othello's .obf boards often do).
    #[arg(allow_hyphen_values = true)]
    pub position: Option<String>,
    /// `hill` (Algorithm 1), `grid` (every E, D), or `both` (and compare).
    #[arg(long, default_value = "hill")]
    pub method: String,
    /// Largest E tried (the paper: 20).
    #[arg(long, default_value_t = 20, value_name = "E")]
    pub e_max: u64,
    /// Largest D tried (the paper: 15).
    #[arg(long, default_value_t = 15, value_name = "D")]
    pub d_max: u32,
    /// Cut-off N: a search needing more node visits counts as ∞.
    #[arg(long, default_value_t = 1_000_000, value_name = "N")]
    pub cutoff: u64,
    /// The question each search answers: `win` (the side to move wins) or
    /// `not-lose`.
    #[arg(long, default_value = "win")]
    pub goal: String,
    /// Transposition-table size in MiB (per thread).
    #[arg(long, default_value_t = 64, value_name = "MB")]
    pub hash: usize,
    /// Moves without a change of the node number that make the climb's
    /// path flat (Algorithm 1's isNotFlat).
    #[arg(long, default_value_t = 3, value_name = "K")]
    pub flat: usize,
    /// Threads for the grid (each with its own table; at most four per
    /// core).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub threads: usize,
    /// Search with the game's rules only (no look-ahead, pruning or
    /// heuristic), as in the paper's primitive solvers.
    #[arg(long)]
    pub rules_only: bool,
    /// Print one JSON object: the path and the result.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &TuneArgs) -> Result<u8, CliError> {
    with_game!(a.game.as_str(), a.rules_only, G => tune_game::<G>(a))
}

fn options(a: &TuneArgs) -> Result<TuneOptions, CliError> {
    let method = Method::parse(&a.method).ok_or_else(|| {
        CliError::usage(format!("--method '{}': one of hill, grid, both", a.method))
    })?;
    let goal = match a.goal.as_str() {
        "win" => Goal::Win,
        "not-lose" => Goal::NotLose,
        other => {
            return Err(CliError::usage(format!(
                "--goal '{other}': one of win, not-lose"
            )))
        }
    };
    if a.cutoff == 0 {
        return Err(CliError::usage("--cutoff must be at least 1"));
    }
    crate::solve::check_hash(a.hash)?;
    // The searches make their own tables (one per thread); making one
    // here first turns memory the system refuses into a usage error.
    drop(crate::solve::table(a.hash)?);
    let threads = crate::bench::worker_threads(Some(a.threads), usize::MAX)?;
    if a.flat == 0 {
        return Err(CliError::usage("--flat must be at least 1"));
    }
    let min = if method == Method::Grid { 1 } else { 2 };
    if a.e_max < min || a.d_max < min as u32 {
        return Err(CliError::usage(format!(
            "--e-max and --d-max must be at least {min} (hill-climbing starts at E = D = 2)"
        )));
    }
    if a.e_max > 1000 || a.d_max > 1000 {
        return Err(CliError::usage("--e-max and --d-max must be at most 1000"));
    }
    Ok(TuneOptions {
        method,
        hill: HillOptions {
            e_max: a.e_max,
            d_max: a.d_max,
            flat_steps: a.flat,
            ..HillOptions::default()
        },
        cutoff: a.cutoff,
        goal,
        hash_mb: a.hash,
        threads,
        stop: Some(interrupt::flag()),
        on_run: None,
    })
}

fn tune_game<G: RegisteredGame + Sync>(a: &TuneArgs) -> Result<u8, CliError> {
    let text = a
        .position
        .clone()
        .unwrap_or_else(|| G::DEFAULT_POSITION.to_string());
    let g: G = read_position(&text)?;
    let mut opts = options(a)?;
    let bar = if std::io::stderr().is_terminal() && !a.json {
        let pb = ProgressBar::new_spinner();
        pb.set_style(ProgressStyle::with_template("{spinner} {elapsed} {msg}").expect("template"));
        pb.enable_steady_tick(Duration::from_millis(120));
        let p2 = pb.clone();
        let count = Arc::new(AtomicUsize::new(0));
        opts.on_run = Some(Arc::new(move |r: &Run| {
            let n = count.fetch_add(1, Ordering::Relaxed) + 1;
            p2.set_message(format!(
                "{n} searches; last E={} D={}: {}",
                r.e,
                r.d,
                value_text(r.visits, r.cut_off)
            ))
        }));
        Some(pb)
    } else {
        None
    };
    // The command already runs on a thread with the searches' stack (`main`).
    let report = tune(&g, &opts).map_err(CliError::usage)?;
    if let Some(pb) = bar {
        pb.finish_and_clear();
    }
    if a.json {
        let out = json!({
            "game": G::NAME,
            "position": text,
            "side_to_move": g.side_to_move().to_string(),
            "report": report,
        });
        println!("{out}");
    } else {
        print_human::<G>(&text, &g, &report);
    }
    Ok(if report.interrupted || interrupt::interrupted() {
        130
    } else {
        0
    })
}

fn value_text(nodes: u64, cut_off: bool) -> String {
    if cut_off {
        "∞ (cut off)".to_string()
    } else {
        thousands(nodes)
    }
}

fn nodes(p: &Point) -> String {
    p.nodes.map_or_else(|| "∞".to_string(), thousands)
}

fn seesaw(p: &Point) -> String {
    p.seesaw.map_or_else(|| "-".to_string(), thousands)
}

fn at(p: &Point) -> String {
    format!("({}, {})", p.e, p.d)
}

fn print_hill(h: &HillResult, r: &TuneReport) {
    println!();
    println!(
        "hill-climbing (Deep df-pn §6.4, Algorithm 1) from (E, D) = {}",
        at(&h.path[0])
    );
    for (i, s) in h.steps.iter().enumerate() {
        println!(
            "  {:<9} nodes {:>12}  seesaw {:>10}",
            at(&s.at),
            nodes(&s.at),
            seesaw(&s.at)
        );
        let mut line = format!(
            "    step {}: node{} = {}, node{} = {} -> {}+1",
            i + 1,
            at(&s.up_e),
            nodes(&s.up_e),
            at(&s.up_d),
            nodes(&s.up_d),
            s.moved
        );
        let next = if s.moved == "E" { s.up_e } else { s.up_d };
        if let Some(c) = s.check_e {
            line.push_str(&format!(
                "; worse than now, so line 8 checks node{} = {}",
                at(&c),
                nodes(&c)
            ));
            if let Some(c) = s.check_d {
                line.push_str(&format!(", node{} = {}", at(&c), nodes(&c)));
            }
        }
        if s.stopped {
            if r.e_max < next.e || r.d_max < next.d {
                line.push_str(" (outside the range): stop");
            } else {
                line.push_str(": stop");
            }
        }
        println!("{line}");
    }
    if let Some(last) = h.path.last() {
        let printed = match h.steps.last() {
            Some(s) => (s.at.e, s.at.d) == (last.e, last.d),
            None => false,
        };
        if !printed {
            println!(
                "  {:<9} nodes {:>12}  seesaw {:>10}",
                at(last),
                nodes(last),
                seesaw(last)
            );
        }
    }
    println!("  ended: {}", h.end.describe());
    println!(
        "result     E = {}, D = {}: node number {}, seesaw number {}",
        h.result.e,
        h.result.d,
        nodes(&h.result),
        seesaw(&h.result)
    );
    if h.fallback {
        println!(
            "           (Algorithm 1 answered {} with node number ∞; this is the best point it measured)",
            at(&h.answer)
        );
    }
    println!(
        "searches   {} in {} (path of {} points)",
        h.evaluations.len(),
        ms(r.hill_ms),
        h.path.len()
    );
}

fn print_human<G: RegisteredGame>(text: &str, g: &G, r: &TuneReport) {
    println!("game       {}", G::NAME);
    println!(
        "position   {}",
        if text.is_empty() { "(start)" } else { text }
    );
    println!("to move    {}", g.side_to_move());
    println!(
        "goal       {} (the side to move {})",
        r.goal,
        if r.goal == "win" {
            "wins"
        } else {
            "does not lose"
        }
    );
    println!(
        "node(E,D)  node visits incl. re-traversals of one Deep df-pn search; over the cut-off {} it is ∞",
        thousands(r.cutoff)
    );
    println!(
        "range      E 1..{}, D 1..{}; a flat is {} moves without change",
        r.e_max, r.d_max, r.flat_steps
    );
    if let Some(h) = &r.hill {
        print_hill(h, r);
    }
    if let Some(gr) = &r.grid {
        println!();
        println!(
            "grid       E 1..{} x D 1..{}: {} cells (E = 1 or D = 1 is df-pn, searched once)",
            gr.e_max,
            gr.d_max,
            gr.cells.len()
        );
        // Node numbers, rows E, columns D (Fig. 5 of the paper as a table).
        let mut head = String::from("    E \\ D");
        for d in 1..=gr.d_max {
            head.push_str(&format!(" {d:>9}"));
        }
        println!("{head}");
        for e in 1..=gr.e_max {
            let mut row = format!("  {e:>7}");
            for c in gr.cells.iter().filter(|c| c.e == e) {
                let v = c.nodes.map_or_else(|| "∞".to_string(), |n| n.to_string());
                row.push_str(&format!(" {v:>9}"));
            }
            println!("{row}");
        }
        match &gr.best {
            Some(b) => println!(
                "best       E = {}, D = {}: node number {}, seesaw number {}",
                b.e,
                b.d,
                nodes(b),
                seesaw(b)
            ),
            None => println!("best       none: every search was cut off"),
        }
        if let Some(c) = gr.cells.first() {
            println!(
                "df-pn      node number {}, seesaw number {}",
                nodes(c),
                seesaw(c)
            );
        }
        println!("time       {}", ms(r.grid_ms));
    }
    if let Some(c) = &r.comparison {
        let diff = |d: Option<i64>| {
            d.map_or_else(
                || "?".to_string(),
                |v| {
                    let sign = if v < 0 { "-" } else { "+" };
                    format!("{sign}{}", thousands(v.unsigned_abs()))
                },
            )
        };
        println!();
        println!("Table 3    hill-climbing against the grid's best (difference in brackets)");
        println!(
            "           node number {} ({}), seesaw number {} ({}), E, D = {} (best {})",
            nodes(&c.hill),
            diff(c.nodes_difference),
            seesaw(&c.hill),
            diff(c.seesaw_difference),
            c.hill.label(),
            c.grid_best.label()
        );
    }
    if r.interrupted {
        println!("interrupted: the searches after Ctrl-C count as ∞");
    }
}
