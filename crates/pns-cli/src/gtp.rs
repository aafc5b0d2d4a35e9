//! `pns gtp`: the Go Text Protocol engine of `pns-go` on stdin and stdout,
//! for GoGui, the GNU Go regression scripts or twogtp. The engine is a
//! library (`pns_games::go::gtp::Engine`); this is the loop around it.

use clap::Args;

use crate::CliError;
use pns_games::go::capture::{Generator, Solver};
use pns_games::go::gtp::Engine;

#[derive(Args, Debug)]
pub struct GtpArgs {
    /// Node visits a solving command may spend before it answers with an
    /// error (`one_eye`, `one_eye_attack`), or each search of one
    /// (`attack`, `defend`, `attack_either`, `defend_both`, which ask
    /// several; docs/PERFORMANCE.md measures GNU Go's cases at 3,000).
    #[arg(long, value_name = "N", default_value_t = 20_000_000)]
    pub nodes: u64,
    /// The search behind `attack` and `defend` (and `attack_either`'s
    /// single-target searches): `lambda-zones` (λ-df-pn
    /// with relevance zones, order 3 in capture proofs and 2 in escape
    /// proofs: `lambda:order=3,eorder=2,zones=on`), `dfpn`,
    /// `lambda[:order=N,eorder=N,grow=G,ladder=on|off,bound=on|off,escape=on|off,
    /// zones=on|off,kawano=on|off,dual=on|off]` (plain `lambda`: the paper's
    /// λ-df-pn, order 2, no zones), `pseudo-lambda`,
    /// `lambda-search[:order=N,ladder=on|off]` (classical λ-search) or
    /// `zone[:...]` (relevance zones; an experiment with costly visits:
    /// give it a small `--nodes`).
    #[arg(long, value_name = "ALGO", default_value = "lambda-zones")]
    pub capture_algo: String,
    /// The move generator of `attack` and `defend`: h1, h2 or board.
    #[arg(long, value_name = "GEN", default_value = "h1")]
    pub capture_gen: String,
    /// GNU Go's reading horizon as the rule of `attack` and `defend`:
    /// `off` (the default: escape at 5 liberties), `gnugo` (4 liberties
    /// escape after 7 moves of the reading, 3 after 16, as GNU Go reads) or
    /// `FOUR/THREE` (plies).
    #[arg(long, value_name = "H", default_value = "off")]
    pub horizon: String,
    /// The horizon capture proofs are searched under (any is sound: a
    /// capture found under it is one without): `4/10` (the default) or
    /// `off`, `gnugo`, `FOUR/THREE`.
    #[arg(long, value_name = "H", default_value = "4/10")]
    pub capture_horizon: String,
    /// GNU Go's snapback rule in `attack` and `defend`: `on` (the default:
    /// a one-stone target taken into a proper snapback is not captured) or
    /// `off` (every capture counts).
    #[arg(long, value_name = "on|off", default_value = "on")]
    pub snapback: String,
    /// `attack` and `defend` deepen: `on` (the default: asked at 3,000
    /// visits per search, then at ten times more each round, up to
    /// `--nodes`, until a proof answers) or `off` (asked at `--nodes`
    /// alone).
    #[arg(long, value_name = "on|off", default_value = "on")]
    pub deepen: String,
    /// Where no proof answers `attack` or `defend` within `--nodes`,
    /// answer with the bounded game's guess (both sides within h2, then
    /// h1, under GNU Go's reading horizon, then h1 under a nearer one; ten
    /// times `--nodes` per search; GNU Go's codes: GNU Go's kind of
    /// answer, no proof in Go) instead of an error; each guess is noted on
    /// stderr.
    #[arg(long)]
    pub guess: bool,
    /// Threads per `attack` or `defend` question: 2 runs its capture
    /// search (the defender on every point) and its escape search (the
    /// attacker on every point) at once, each on its own table; the same
    /// answer, sooner. Default: 2 where the machine has two cores or more.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Wall-clock limit of each solving command, in seconds (`attack` and
    /// `defend`, their searches and guess together; `attack_either`,
    /// `defend_both`, `one_eye`, `one_eye_attack`): past it the answer is a
    /// GTP error (unknown), as past `--nodes`.
    #[arg(long, value_name = "SECS")]
    pub time: Option<f64>,
}

pub fn run(a: &GtpArgs) -> Result<u8, CliError> {
    if a.nodes == 0 {
        return Err(CliError::usage("--nodes must be at least 1"));
    }
    let mut e = Engine::new();
    e.solve_visits = a.nodes;
    e.capture_solver = Solver::parse(&a.capture_algo).map_err(CliError::usage)?;
    e.capture_generator = Generator::from_name(&a.capture_gen).ok_or_else(|| {
        CliError::usage(format!(
            "--capture-gen {}: not h1, h2 or board",
            a.capture_gen
        ))
    })?;
    e.capture_horizons = crate::gocapture::horizons(Some(&a.horizon), Some(&a.capture_horizon))?;
    e.capture_snapback = crate::gocapture::on_off("snapback", Some(&a.snapback))?;
    e.capture_deepen = crate::gocapture::on_off("deepen", Some(&a.deepen))?;
    e.capture_guess = a.guess;
    e.solve_time = crate::solve::time_limit(a.time)?;
    e.capture_threads = match a.threads {
        Some(0) => return Err(CliError::usage("--threads must be at least 1")),
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get().min(2)),
    };
    // Ctrl-C ends a running solving command unknown and the engine
    // reads on; pressed twice while no command runs, it exits (130).
    e.interrupt = Some(crate::interrupt::flag());
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    e.run(stdin.lock(), stdout.lock()).map_err(|err| CliError {
        message: format!("gtp: {err}"),
        code: 1,
    })?;
    Ok(0)
}
