//! `pns experiment`: run a named experiment of the harness.

use std::io::IsTerminal;
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressStyle};
use pns_lab::{experiments::ALL, find, ExpOptions};

use crate::{CliError, ExperimentArgs};

pub fn run(a: &ExperimentArgs) -> Result<u8, CliError> {
    let Some(name) = &a.name else {
        println!("experiments:");
        for e in ALL {
            println!("  {:<26} {}", e.name, e.about);
        }
        return Ok(0);
    };
    let exp = find(name).ok_or_else(|| {
        let names: Vec<&str> = ALL.iter().map(|e| e.name).collect();
        CliError::usage(format!(
            "unknown experiment '{name}' (one of {})",
            names.join(", ")
        ))
    })?;
    let threads = a
        .threads
        .map(|t| crate::bench::worker_threads(Some(t), usize::MAX))
        .transpose()?;
    if a.positions == Some(0) {
        return Err(CliError::usage("--positions must be at least 1"));
    }
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| std::path::PathBuf::from(format!("experiments/{}", exp.name)));
    let bar = std::io::stderr().is_terminal().then(|| {
        let pb = ProgressBar::new(0);
        pb.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed}/{eta}").expect("template"),
        );
        pb
    });
    let progress: Option<pns_lab::runner::ProgressFn> = bar.clone().map(|pb| {
        Arc::new(move |done: usize, total: usize| {
            pb.set_length(total as u64);
            pb.set_position(done as u64);
        }) as pns_lab::runner::ProgressFn
    });
    let opts = ExpOptions {
        positions: a.positions,
        seed: a.seed,
        out: out.clone(),
        threads,
        progress,
    };
    let report = (exp.run)(&opts).map_err(|e| CliError {
        message: e,
        code: 1,
    })?;
    if let Some(pb) = bar {
        pb.finish_and_clear();
    }
    println!("{}", report.summary.trim_end());
    println!();
    for f in &report.files {
        println!("wrote {}", f.display());
    }
    Ok(0)
}
