//! `lambda-capturing`: the λ-df-pn paper's Table 1 and a Fig. 3-style time
//! scatter (Yoshizoe, Kishimoto and Müller, "Lambda depth-first proof
//! number search and its application to Go", IJCAI 2007, §4; summary in
//! `../shared/papers/README.md`) on GNU Go's tactical reading cases
//! (`../shared/data/go/gnugo-tactical.tsv`).
//!
//! Cases: the attack/defend cases whose expected answer is 0 or 1
//! (classes `unconditional` and `gnugo-fails`; the ko cases are left out,
//! the solver has no ko codes). Each case is asked with each generator
//! (h1, h2, board) and each search (df-pn with the distance
//! initialisation, λ-df-pn, pseudo λ-search, λ-df-pn without the ladder
//! rule, df-pn and λ-df-pn with Kawano's simulation, and classical
//! λ-search, `pns_go::thomsen`) under one node-visit limit (for λ-search
//! its nested threat checks count in it).
//!
//! Two settings:
//! * *bounded* (the paper's): the generator bounds both sides; one search
//!   per case from the side the command names. *Solved* = proven or
//!   disproven within the limit; *agree* = the answer is GNU Go's expected
//!   one. An answer within a generator need not hold in Go (a defence or
//!   attack outside the generator), so a disagreement is not a wrong proof.
//! * *sound* (the GTP `attack`/`defend` answers, `pns_go::capture::attack_with`):
//!   the side the claim is about is bounded by the generator, the other
//!   side plays every legal point; every answer given is a claim about Go
//!   under the escape threshold, and *wrong* counts the ones GNU Go's
//!   expected answer contradicts. Run with generator h1 only by default
//!   (`PNS_LAMBDA_SOUND_ALL=1`: every generator).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use pns_core::{Status, Table};
use pns_games::go::capture::{
    attack_with, defend_with, Answer, Capture, Effort, Generator, Solver,
};
use pns_games::go::lambda::LambdaParams;
use pns_games::go::tactical::{self, Case, Class};
use pns_games::go::thomsen::ThomsenParams;

use crate::output::{fmt_f, Table as OutTable};
use crate::plot::{Scatter, Series};
use crate::runner::par_map;
use crate::{ExpOptions, Experiment, Report};

pub const EXPERIMENT: Experiment = Experiment {
    name: "lambda-capturing",
    about: "df-pn vs λ-df-pn vs pseudo λ-search on GNU Go's tactical cases with the generators h1/h2/board (λ-df-pn paper Table 1, Fig. 3 time scatter)",
    run,
};

/// Node visits per search (`PNS_LAMBDA_VISITS` overrides).
pub const NODE_LIMIT: u64 = 1_500;
/// Table per thread, MiB.
pub const HASH_MB: usize = 16;

/// The searches compared, as `Solver::parse` reads them.
pub fn solvers() -> Vec<(&'static str, Solver)> {
    vec![
        ("df-pn", Solver::Dfpn),
        ("λ-df-pn", Solver::Lambda(LambdaParams::default())),
        ("pseudo λ", Solver::Lambda(LambdaParams::pseudo())),
        (
            "λ-df-pn, no ladder rule",
            // Both halves off: the liberty bound is the ladder rule's
            // attacker half at every order.
            Solver::Lambda(LambdaParams {
                ladder: false,
                bound: false,
                ..LambdaParams::default()
            }),
        ),
        // Kawano's simulation (the paper's baseline has it, §4).
        ("df-pn, Kawano", Solver::Kawano),
        (
            "λ-df-pn, Kawano",
            Solver::Lambda(LambdaParams {
                kawano: true,
                ..LambdaParams::default()
            }),
        ),
        // Classical λ-search (Thomsen 2000): one df-pn search per order,
        // threats checked by nested searches, all within the same limit.
        (
            "λ-search (Thomsen)",
            Solver::LambdaSearch(ThomsenParams::default()),
        ),
    ]
}

fn visits() -> u64 {
    std::env::var("PNS_LAMBDA_VISITS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(NODE_LIMIT)
}

/// The data files: `../shared/data/go`, found as
/// [`super::shared_data_file`] finds its files.
fn data_dir() -> Result<PathBuf, String> {
    let file = super::shared_data_file("go/gnugo-tactical.tsv")?;
    Ok(file.parent().map(PathBuf::from).unwrap_or_default())
}

/// Over one search's `runs` (one per case, in order): the answers that
/// agree with the case's expected one, those that do not, the time in
/// milliseconds and the visits.
fn tally(cases: &[Case], runs: impl Iterator<Item = Run>) -> (usize, usize, f64, u64) {
    let (mut agree, mut dis, mut ms, mut visits) = (0, 0, 0.0, 0);
    for (c, run) in cases.iter().zip(runs) {
        ms += run.ms;
        visits += run.visits;
        match run.success {
            Some(s) if Some(s) == c.expected_success() => agree += 1,
            Some(_) => dis += 1,
            None => {}
        }
    }
    (agree, dis, ms, visits)
}

/// One search's result.
#[derive(Clone, Copy, Debug, Default)]
struct Run {
    /// Whether the side asked about succeeds; `None`: unknown.
    success: Option<bool>,
    visits: u64,
    ms: f64,
}

/// The bounded setting: the generator for both sides, one search.
fn bounded(c: &Case, gen: Generator, solver: &Solver, limit: u64, tt: &mut Table) -> Run {
    let Ok(g) = Capture::new(
        c.board,
        c.target,
        pns_games::go::capture::DEFAULT_ESCAPE_LIBS,
        gen,
    ) else {
        return Run::default();
    };
    let g = if c.attack {
        g.with_first(g.attacker())
    } else {
        g.with_first(g.defender())
    };
    tt.clear();
    let mut e = Effort::default();
    let t0 = Instant::now();
    let st = solver.status(&g, limit, tt, &mut e);
    let ms = t0.elapsed().as_secs_f64() * 1000.0;
    let captured = match st {
        Status::Proven => Some(true),
        Status::Disproven => Some(false),
        Status::Unknown => None,
    };
    Run {
        success: captured.map(|cap| cap == c.attack),
        visits: e.visits,
        ms,
    }
}

/// The sound setting: GTP `attack`/`defend`.
fn sound(c: &Case, gen: Generator, solver: &Solver, limit: u64) -> Run {
    let Ok(g) = Capture::new(
        c.board,
        c.target,
        pns_games::go::capture::DEFAULT_ESCAPE_LIBS,
        gen,
    ) else {
        return Run::default();
    };
    let mut e = Effort::default();
    let t0 = Instant::now();
    let a = if c.attack {
        attack_with(&g, solver, limit, &mut e)
    } else {
        defend_with(&g, solver, limit, &mut e)
    };
    let ms = t0.elapsed().as_secs_f64() * 1000.0;
    Run {
        success: match a {
            Answer::Succeeds(_) => Some(true),
            Answer::Fails => Some(false),
            Answer::Unknown => None,
        },
        visits: e.visits,
        ms,
    }
}

struct ItemResult {
    /// [generator][solver]
    bounded: Vec<Vec<Run>>,
    /// [generator][solver]; empty for generators not run.
    sound: Vec<Vec<Run>>,
}

pub fn run(opts: &ExpOptions) -> Result<Report, String> {
    run_with(opts, visits())
}

/// [`run`] with `limit` node visits per search.
pub fn run_with(opts: &ExpOptions, limit: u64) -> Result<Report, String> {
    let dir = data_dir()?;
    let mut cases: Vec<Case> = tactical::load(&dir.join("gnugo-tactical.tsv"), &dir.join("gnugo"))?
        .into_iter()
        .filter(|c| c.expected_success().is_some() && c.class != Class::Ko)
        .collect();
    if let Some(n) = opts.positions {
        cases.truncate(n);
    }
    let solvers = solvers();
    let sound_gens: Vec<Generator> = if std::env::var("PNS_LAMBDA_SOUND_ALL").is_ok() {
        Generator::ALL.to_vec()
    } else {
        vec![Generator::H1]
    };
    let results = par_map(opts, HASH_MB, &cases, |tt, _, c| {
        let bounded = Generator::ALL
            .iter()
            .map(|&g| {
                solvers
                    .iter()
                    .map(|(_, s)| bounded(c, g, s, limit, tt))
                    .collect()
            })
            .collect();
        let sound = Generator::ALL
            .iter()
            .map(|g| {
                if sound_gens.contains(g) {
                    solvers
                        .iter()
                        .map(|(_, s)| sound(c, *g, s, limit))
                        .collect()
                } else {
                    Vec::new()
                }
            })
            .collect();
        ItemResult { bounded, sound }
    })?;
    let out = &opts.out;
    let mut files = Vec::new();

    let mut rt = OutTable::new([
        "case",
        "class",
        "command",
        "target",
        "expected",
        "setting",
        "generator",
        "search",
        "answer",
        "agrees",
        "visits",
        "time_ms",
    ]);
    for (c, r) in cases.iter().zip(&results) {
        let want = c.expected_success().expect("filtered");
        for (setting, runs) in [("bounded", &r.bounded), ("sound", &r.sound)] {
            for (gi, g) in Generator::ALL.iter().enumerate() {
                for (si, (name, _)) in solvers.iter().enumerate() {
                    let Some(run) = runs[gi].get(si) else {
                        continue;
                    };
                    rt.push([
                        format!("{} {}", c.suite, c.id),
                        c.class.name().to_string(),
                        if c.attack { "attack" } else { "defend" }.to_string(),
                        c.target_vertex.clone(),
                        u8::from(want).to_string(),
                        setting.to_string(),
                        g.name().to_string(),
                        name.to_string(),
                        run.success
                            .map_or("unknown".into(), |s| u8::from(s).to_string()),
                        run.success.map_or("".into(), |s| (s == want).to_string()),
                        run.visits.to_string(),
                        fmt_f(run.ms, 2),
                    ]);
                }
            }
        }
    }
    files.push(rt.write_csv(out, "runs")?);

    // Table 1: solved (agree + disagree) per generator × search.
    let mut t = OutTable::new([
        "Generator",
        "Search",
        "Solved",
        "Agree",
        "Disagree",
        "Time (s)",
        "Visits/s",
    ]);
    let mut solved = vec![vec![0usize; solvers.len()]; 3];
    for (gi, g) in Generator::ALL.iter().enumerate() {
        for (si, (name, _)) in solvers.iter().enumerate() {
            let (agree, dis, ms, v) = tally(&cases, results.iter().map(|r| r.bounded[gi][si]));
            solved[gi][si] = agree + dis;
            t.push([
                g.name().to_string(),
                name.to_string(),
                (agree + dis).to_string(),
                agree.to_string(),
                dis.to_string(),
                fmt_f(ms / 1000.0, 2),
                format!("{:.0}", v as f64 / (ms / 1000.0).max(1e-9)),
            ]);
        }
    }
    files.push(t.write_csv(out, "table1")?);

    let mut st = OutTable::new([
        "Generator",
        "Search",
        "Answered",
        "Right",
        "Wrong",
        "Time (s)",
    ]);
    let mut wrong_total = 0;
    for (gi, g) in Generator::ALL.iter().enumerate() {
        for (si, (name, _)) in solvers.iter().enumerate() {
            if results.first().is_none_or(|r| r.sound[gi].is_empty()) {
                continue;
            }
            let (right, wrong, ms, _) = tally(&cases, results.iter().map(|r| r.sound[gi][si]));
            wrong_total += wrong;
            st.push([
                g.name().to_string(),
                name.to_string(),
                (right + wrong).to_string(),
                right.to_string(),
                wrong.to_string(),
                fmt_f(ms / 1000.0, 2),
            ]);
        }
    }
    files.push(st.write_csv(out, "sound")?);

    // Fig. 3: λ-df-pn's time against df-pn's, generator board, bounded.
    let gi = 2;
    let mut both = Vec::new();
    let mut only_l = Vec::new();
    let mut only_d = Vec::new();
    let mut neither = Vec::new();
    for r in &results {
        let (d, l) = (r.bounded[gi][0], r.bounded[gi][1]);
        let p = (d.ms.max(1e-3), l.ms.max(1e-3));
        match (d.success.is_some(), l.success.is_some()) {
            (true, true) => both.push(p),
            (false, true) => only_l.push(p),
            (true, false) => only_d.push(p),
            (false, false) => neither.push(p),
        }
    }
    let fig = Scatter {
        title: format!("Time per problem, generator board, {limit} visits (log-log)"),
        x_label: "df-pn time (ms)".into(),
        y_label: "λ-df-pn time (ms)".into(),
        series: vec![
            Series {
                name: format!("both solve ({})", both.len()),
                points: both,
            },
            Series {
                name: format!("λ-df-pn only ({})", only_l.len()),
                points: only_l,
            },
            Series {
                name: format!("df-pn only ({})", only_d.len()),
                points: only_d,
            },
            Series {
                name: format!("neither ({})", neither.len()),
                points: neither,
            },
        ],
    };
    files.push(fig.write(out, "time-scatter.svg")?);

    let n = cases.len();
    let unc = cases
        .iter()
        .filter(|c| c.class == Class::Unconditional)
        .count();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# lambda-capturing\n\n{n} GNU Go tactical cases with expected answer 0 or 1 \
         ({unc} unconditional, {} that GNU Go itself fails), escape at 5 liberties, \
         simple ko, {limit} node visits per search, one table of {HASH_MB} MiB per \
         thread. λ-df-pn: {}; pseudo λ: {}; λ-search (Thomsen): {}.\n\n\
         Bounded setting (the paper's Table 1: the generator bounds both sides; \
         *solved* within the limit, *agree* with GNU Go's expected answer):\n",
        n - unc,
        LambdaParams::default().describe(),
        LambdaParams::pseudo().describe(),
        ThomsenParams::default().describe(),
    );
    s.push_str(&t.to_markdown());
    let _ = writeln!(
        s,
        "\nSound setting (GTP `attack`/`defend`: the other side plays every legal \
         point; {wrong_total} wrong answers in all):\n"
    );
    s.push_str(&st.to_markdown());
    let _ = writeln!(
        s,
        "\nλ-df-pn solves more than df-pn (bounded): h1 {}, h2 {}, board {}. \
         Time scatter: `time-scatter.svg`.",
        solved[0][1] > solved[0][0],
        solved[1][1] > solved[1][0],
        solved[2][1] > solved[2][0],
    );
    files.push(crate::output::write(out, "lambda-capturing.md", &s)?);
    Ok(Report { files, summary: s })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_run_gives_no_wrong_sound_answer() {
        let dir = std::env::temp_dir().join(format!("lambda-capturing-{}", std::process::id()));
        let opts = ExpOptions {
            positions: Some(10),
            seed: 1,
            out: dir.clone(),
            threads: Some(2),
            progress: None,
        };
        let r = run_with(&opts, 300).unwrap();
        let csv = std::fs::read_to_string(dir.join("sound.csv")).unwrap();
        let rows: Vec<Vec<&str>> = csv
            .lines()
            .skip(1)
            .map(|l| l.split(',').collect())
            .collect();
        assert_eq!(rows.len(), solvers().len());
        for row in &rows {
            // Wrong is the last but one column (a search's name may hold a
            // quoted comma).
            assert_eq!(row[row.len() - 2], "0", "{row:?}");
        }
        assert!(r.summary.contains("| board | λ-df-pn |"), "{}", r.summary);
        assert!(dir.join("time-scatter.svg").exists());
        let _ = std::fs::remove_dir_all(dir);
    }
}
