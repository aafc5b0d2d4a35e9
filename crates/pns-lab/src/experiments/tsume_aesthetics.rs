//! `tsume-aesthetics`: the thesis' search indicators of a mating problem
//! (ch. 4, §4.1.2-4.1.3) — the maximum proof and disproof numbers at the
//! root while it is searched, the nodes and the iterations — for every
//! mate of antma-tsume.tsv, and their Spearman rank correlation ρ (with
//! the t statistic of Table 4.5) against a ranking of the problems.
//!
//! The thesis ranks problems by the votes of tsume competitions (Tsume-
//! shogi Paradise 2007-2014, Shogi Sekai 1992); those rankings are not
//! public. What we rank by instead, and say so in every output: the
//! problem's stated length (longer = ranked higher), the only quality-
//! related figure our data carries. This measures how the indicators
//! follow length, not aesthetics.
//!
//! Searches: df-pn with the tsume crate's initialisation (a leaf's proof
//! number is its number of evasions, its disproof number its number of
//! checks), stopped after [`VISIT_LIMIT`] visits. The thesis used
//! PN-search with leaves (1, 1); PN-search does not follow the line, which
//! tsume's repetition rule needs (the engine refuses it here), and df-pn
//! with leaves (1, 1) (`h=0`) spends minutes on the problems whose mate
//! can be met by chains of futile interpositions.

use std::path::PathBuf;

use pns_core::{Algo, Status};
use pns_games::shogi::{solve, Tsume, TsumeOptions};

use crate::output::{fmt_f, write, Table};
use crate::runner::par_map;
use crate::{ExpOptions, Experiment, Report};

pub const EXPERIMENT: Experiment = Experiment {
    name: "tsume-aesthetics",
    about: "max proof/disproof numbers, nodes, iterations of the antma tsume mates and their Spearman rank correlation with the stated length (thesis ch. 4; the thesis' competition rankings are not public)",
    run,
};

/// Visits after which a search stops (the problem is then left out).
pub const VISIT_LIMIT: u64 = 2_000_000;
/// Table per thread, MiB.
pub const HASH_MB: usize = 64;

/// The data file: `../shared/data/shogi/antma-tsume.tsv`
/// ([`super::shared_data_file`]).
fn data_file() -> Result<PathBuf, String> {
    super::shared_data_file("shogi/antma-tsume.tsv")
}

/// Ranks of `v` (1 = smallest), ties sharing their mean rank.
pub fn ranks(v: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut r = vec![0.0; v.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && v[idx[j + 1]] == v[idx[i]] {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            r[k] = mean;
        }
        i = j + 1;
    }
    r
}

/// Pearson correlation.
pub fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    if sxx == 0.0 || syy == 0.0 {
        0.0
    } else {
        sxy / (sxx * syy).sqrt()
    }
}

/// Spearman's ρ: the Pearson correlation of the ranks (thesis Table 4.4).
pub fn spearman(x: &[f64], y: &[f64]) -> f64 {
    pearson(&ranks(x), &ranks(y))
}

/// Student's t of a correlation r over n pairs (thesis Table 4.5).
pub fn t_stat(r: f64, n: usize) -> f64 {
    if n < 3 || r.abs() >= 1.0 {
        return f64::INFINITY * r.signum();
    }
    r * ((n as f64 - 2.0) / (1.0 - r * r)).sqrt()
}

struct Row {
    sfen: String,
    length: u32,
    max_root_pn: u64,
    max_root_dn: u64,
    nodes: u64,
    iterations: u64,
}

pub fn run(opts: &ExpOptions) -> Result<Report, String> {
    let path = data_file()?;
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut items = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        // Mates only: a no-mate has no length to rank by.
        if let (Some(sfen), Some(Ok(len))) = (cols.first(), cols.get(1).map(|c| c.parse::<u32>())) {
            items.push((sfen.to_string(), len));
        }
    }
    let items: Vec<_> = items
        .into_iter()
        .take(opts.positions.unwrap_or(usize::MAX))
        .collect();
    let algo = Algo::parse("dfpn").map_err(|e| e.to_string())?;
    let results = par_map(opts, HASH_MB, &items, |tt, _, (sfen, len)| {
        let mut t = Tsume::parse(sfen).map_err(|e| format!("{sfen}: {e}"))?;
        // Plain df-pn, as the figures of docs/experiments/tsume.md were
        // measured: proof and disproof pieces (on by default since) change
        // the indicators.
        t.set_hands(false);
        tt.clear();
        let o = TsumeOptions {
            algo: algo.clone(),
            answer: false,
            limits: pns_core::Limits {
                visits: Some(VISIT_LIMIT),
                ..Default::default()
            },
            ..TsumeOptions::default()
        };
        let r = solve(&t, &o, tt);
        if r.status() != Status::Proven {
            return Ok(None);
        }
        let s = &r.result.stats;
        Ok(Some(Row {
            sfen: sfen.clone(),
            length: *len,
            max_root_pn: s.max_root_pn,
            max_root_dn: s.max_root_dn,
            nodes: s.nodes,
            iterations: s.iterations,
        }))
    })?;
    let all: Vec<Option<Row>> = results.into_iter().collect::<Result<_, String>>()?;
    let unsolved = all.iter().filter(|r| r.is_none()).count();
    let rows: Vec<Row> = all.into_iter().flatten().collect();
    let mut runs = Table::new([
        "sfen",
        "length",
        "max_root_pn",
        "max_root_dn",
        "nodes",
        "iterations",
    ]);
    for r in &rows {
        runs.push([
            r.sfen.clone(),
            r.length.to_string(),
            r.max_root_pn.to_string(),
            r.max_root_dn.to_string(),
            r.nodes.to_string(),
            r.iterations.to_string(),
        ]);
    }
    let mut files = vec![runs.write_csv(&opts.out, "runs")?];
    let length: Vec<f64> = rows.iter().map(|r| r.length as f64).collect();
    let n = rows.len();
    let mut corr = Table::new(["indicator", "spearman_rho", "t", "pearson_r"]);
    let indicators: [(&str, Vec<f64>); 4] = [
        (
            "max proof number (root)",
            rows.iter().map(|r| r.max_root_pn as f64).collect(),
        ),
        (
            "max disproof number (root)",
            rows.iter().map(|r| r.max_root_dn as f64).collect(),
        ),
        ("nodes", rows.iter().map(|r| r.nodes as f64).collect()),
        (
            "iterations",
            rows.iter().map(|r| r.iterations as f64).collect(),
        ),
    ];
    for (name, v) in &indicators {
        let rho = spearman(v, &length);
        corr.push([
            name.to_string(),
            fmt_f(rho, 3),
            fmt_f(t_stat(rho, n), 2),
            fmt_f(pearson(v, &length), 3),
        ]);
    }
    files.push(corr.write_csv(&opts.out, "correlation")?);
    let summary = format!(
        "# tsume-aesthetics\n\n{n} mates of antma-tsume.tsv (lengths 1-9; {unsolved} not proven within \
         {VISIT_LIMIT} visits left out), df-pn with the number-of-replies initialisation. \
         **Ranking substituted**: the thesis correlates the indicators with competition \
         rankings (ch. 4, Tables 4.3-4.5), which are not public; here the ranking is the \
         stated mate length (longer ranked higher). |t| > 2.0 is about p < 0.05 at this n.\n\n{}",
        corr.to_markdown()
    );
    files.push(write(&opts.out, "tsume-aesthetics.md", &summary)?);
    Ok(Report { files, summary })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_share_ties_and_spearman_reads_order_only() {
        assert_eq!(ranks(&[10.0, 30.0, 20.0, 20.0]), vec![1.0, 4.0, 2.5, 2.5]);
        let x = [1.0, 2.0, 3.0, 4.0, 5.0];
        let y = [1.0, 4.0, 9.0, 16.0, 1000.0];
        assert!((spearman(&x, &y) - 1.0).abs() < 1e-12);
        assert!(pearson(&x, &y) < 0.9);
        let rev: Vec<f64> = y.iter().rev().copied().collect();
        assert!((spearman(&x, &rev) + 1.0).abs() < 1e-12);
        assert!(t_stat(0.5, 27) > 2.8 && t_stat(0.5, 27) < 2.9);
    }
}
