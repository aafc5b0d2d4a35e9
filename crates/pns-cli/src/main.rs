//! `pns`: solve, benchmark and verify proof-number searches.
//!
//! The command line is thin: it parses arguments, picks the game and the
//! algorithm once, and calls the engine (`pns-core`) and the domains
//! (`pns-games`). Usage errors print one line and exit with status 2.

mod bench;
mod connect6;
mod experiment;
mod games;
mod gocapture;
mod gtp;
mod interrupt;
mod output;
mod solve;
mod tsume;
mod tune;
mod usi;
mod verify;

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

/// Proof-number search toolkit: prove wins, losses and draws.
#[derive(Parser, Debug)]
#[command(name = "pns", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve one position: win, draw or loss for the side to move.
    Solve(SolveArgs),
    /// Solve every position of a test file, in parallel, and summarise.
    Bench(BenchArgs),
    /// Check a proof certificate with the game rules alone.
    Verify(VerifyArgs),
    /// Choose Deep df-pn's (E, D) for a position: hill-climbing (Deep df-pn
    /// §6.4, Algorithm 1), the full grid, or both compared.
    Tune(tune::TuneArgs),
    /// Run a named, seeded experiment and write CSV, SVG and markdown
    /// (without NAME: list the experiments).
    Experiment(ExperimentArgs),
    /// List the games and algorithms.
    List,
    /// Speak the Go Text Protocol on stdin/stdout (GoGui, twogtp, the GNU
    /// Go regression scripts): Go rules with simple, situational or
    /// positional super-ko, loadsgf, and the one-eye solver.
    Gtp(gtp::GtpArgs),
    /// Connect6's own solvers: VCDT alone, and the relevance-zone search.
    Connect6(connect6::Connect6Args),
    /// Speak USI on stdin/stdout as a tsume (mate) engine: `go mate`
    /// answers `checkmate MOVES`, `checkmate nomate` or `checkmate timeout`.
    Usi,
}

/// Options shared by `solve` and `bench`.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Algorithm, optionally with parameters: dfpn, dfpn-plus, dfpn-eps,
    /// deep-dfpn, wpns, pnstar, pds, pns, deeppn, ppns, mcpns (see `pns list`), e.g.
    /// deeppn:r=0.6. Monte Carlo ones: ppns:playouts=N,theta=T,exact=1|0,
    /// pr=P,seed=S (probability-based PNS; exact=1, the default, concludes
    /// only proofs; exact=0 is the paper's rule, ending when the root's
    /// probability is within pr of 1 or 0, and may be wrong; defaults
    /// playouts=60,theta=0.01,exact=1,pr=0.00001,seed=1) and
    /// mcpns:playouts=N,clip=C,seed=S (Monte-Carlo PNS; defaults 60, 0.01, 1).
    /// Default dfpn; for `pns solve go`, lambda-zones (as `pns gtp`)
    #[arg(long)]
    pub algo: Option<String>,
    /// Transposition-table size in MiB (per thread in `bench`).
    #[arg(long, default_value_t = 256, value_name = "MB")]
    pub hash: usize,
    /// Node limit: node visits including re-traversals, over the whole solve.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Time limit in seconds, over the whole solve.
    #[arg(long, value_name = "SECS")]
    pub time: Option<f64>,
    /// Memory limit in MiB for explicit trees (pns, deeppn, ppns, mcpns;
    /// the certificate of `pns solve go --proof`).
    #[arg(long, default_value_t = 1024, value_name = "MB")]
    pub memory: u64,
    /// Search with the game's rules only: no look-ahead, no move pruning or
    /// ordering, no heuristic (the papers' "primitive" searches).
    #[arg(long)]
    pub rules_only: bool,
    /// Hex only: shuffle the move order with this seed (thesis §3.2.3).
    #[arg(long, value_name = "SEED")]
    pub shuffle: Option<u64>,
    /// Which question a win/draw/loss solve asks first: `win` (is it a
    /// win?) or `not-lose` (is it at least a draw?).
    #[arg(long, default_value = "win", value_parser = ["win", "not-lose"])]
    pub first: String,
    /// Print one JSON object (solve) or one JSON object per line (bench).
    #[arg(long)]
    pub json: bool,
}

impl SearchArgs {
    /// The `--algo` given, or `default` (each command its own).
    pub fn algo_or<'a>(&'a self, default: &'a str) -> &'a str {
        self.algo.as_deref().unwrap_or(default)
    }
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Game: connect4, othello, hex, tictactoe, synthetic.
    pub game: String,
    /// Position in the game's notation; omitted: a built-in default. It
    /// may begin with `-` (Othello's .obf boards often do).
    #[arg(allow_hyphen_values = true)]
    pub position: Option<String>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Write the proof certificate to FILE (checked with `pns verify`).
    #[arg(long, value_name = "FILE")]
    pub proof: Option<std::path::PathBuf>,
    /// Go capturing (`pns solve go FILE.sgf`): the target block's stone.
    #[arg(long, value_name = "VERTEX")]
    pub target: Option<String>,
    /// Go capturing: the attacker moves first (the default).
    #[arg(long)]
    pub attack: bool,
    /// Go capturing: the target's owner moves first.
    #[arg(long)]
    pub defend: bool,
    /// Go capturing: the position before move N of the SGF's main line.
    #[arg(long, value_name = "N")]
    pub move_number: Option<usize>,
    /// Go capturing: the move generator, h1, h2 or board (default h1).
    #[arg(long, value_name = "GEN")]
    pub gen: Option<String>,
    /// Go capturing: GNU Go's reading horizon as the rule, `off` (the
    /// default), `gnugo` (4 liberties escape after 7 moves, 3 after 16) or
    /// `FOUR/THREE` (plies).
    #[arg(long, value_name = "H")]
    pub horizon: Option<String>,
    /// Go capturing: the horizon capture proofs are searched under
    /// (default `4/10`; `off`, `gnugo`, `FOUR/THREE`).
    #[arg(long, value_name = "H")]
    pub capture_horizon: Option<String>,
    /// Go capturing: GNU Go's snapback rule, `on` (the default: a
    /// one-stone target taken into a proper snapback is not captured) or
    /// `off` (every capture counts).
    #[arg(long, value_name = "on|off")]
    pub snapback: Option<String>,
    /// Go capturing: the question deepens, `on` (the default: asked at
    /// 3,000 visits per search, then at ten times more each round, up to
    /// `--nodes`, until a proof answers) or `off` (asked at `--nodes`
    /// alone).
    #[arg(long, value_name = "on|off")]
    pub deepen: Option<String>,
    /// Go capturing: where no proof answers within the limit, answer with
    /// the bounded game's guess (both sides within h2, then h1, GNU Go's
    /// horizon, then h1 under a nearer one; ten times `--nodes`; no proof
    /// in Go), marked `"proven": false` in `--json`.
    #[arg(long)]
    pub guess: bool,
    /// Threads in the one search: parallel df-pn on one shared table
    /// (the df-pn variants, games without repetitions; others run on one).
    /// Go capturing: 2 or more run the question's capture and escape
    /// searches at once (the same answer, sooner).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Game: connect4, othello, hex, tictactoe, synthetic.
    pub game: String,
    /// Test file: one `POSITION [LABEL]` per line in the game's format.
    pub file: std::path::PathBuf,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Extract every proof and check it with the independent verifier.
    #[arg(long)]
    pub verify: bool,
    /// Worker threads (default: all cores; at most the number of positions
    /// and four per core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Give all --threads to one position at a time (parallel df-pn in
    /// each search) instead of one thread per position.
    #[arg(long)]
    pub one_at_a_time: bool,
    /// Skip the first N positions of the file (they are still parsed).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub skip: usize,
    /// Only the first N positions of the file (after --skip); at least 1.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Game of the certificate.
    pub game: String,
    /// The position the certificate claims to solve (it may begin with `-`).
    #[arg(allow_hyphen_values = true)]
    pub position: String,
    /// Certificate file written by `pns solve --proof`.
    pub file: std::path::PathBuf,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct ExperimentArgs {
    /// Experiment name; omitted: list them.
    pub name: Option<String>,
    /// Number of positions or trials (default: the experiment's own).
    #[arg(long, value_name = "N")]
    pub positions: Option<usize>,
    /// Seed of every random choice.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output folder (default: experiments/NAME).
    #[arg(long, value_name = "DIR")]
    pub out: Option<std::path::PathBuf>,
    /// Worker threads (default: all cores; at most four per core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

/// A failure reported to the user: a one-line message and an exit status.
#[derive(Debug)]
pub struct CliError {
    pub message: String,
    pub code: u8,
}

impl CliError {
    /// Bad input or usage: exit status 2.
    pub fn usage(message: impl Into<String>) -> Self {
        CliError {
            message: message.into(),
            code: 2,
        }
    }
}

/// Parses the command line; a usage error becomes one line on stderr and
/// exit status 2 (help and version print as usual).
fn parse_args() -> Result<Cli, CliError> {
    use clap::error::ErrorKind;
    Cli::try_parse().map_err(|e| match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => e.exit(),
        _ => {
            // clap's message, without its usage block and tips, on one line.
            let text = e.to_string();
            let msg: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            let msg = msg.join(" ");
            CliError::usage(format!(
                "{} (see pns --help)",
                msg.trim_start_matches("error: ")
            ))
        }
    })
}

/// Lets a closed output pipe (`pns solve ... | head`) end the program
/// quietly, with the signal's status, as other Unix tools do: Rust ignores
/// SIGPIPE, and `println!` then panics on the failed write.
#[cfg(unix)]
fn default_sigpipe() {
    // SAFETY: called first thing in `main`, before any thread starts;
    // restoring a signal's default action has no other effect.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    #[cfg(unix)]
    default_sigpipe();
    let cli = match parse_args() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {}", e.message);
            return ExitCode::from(e.code);
        }
    };
    // Every command runs on a thread with the search threads' stack: the
    // searches recurse as deep as the game's lines, and the commands that
    // search on their own thread (`gtp`, `usi`, `solve go`, the
    // experiments) would otherwise have the main thread's 8 MiB (a zone
    // search on GNU Go's reading case 103 overflowed it).
    let result = std::thread::Builder::new()
        .stack_size(solve::STACK_BYTES)
        .spawn(move || dispatch(cli.command))
        .map_err(|e| CliError::usage(format!("cannot start the command's thread: {e}")))
        .and_then(|h| {
            h.join().map_err(|_| CliError {
                message: "the command's thread panicked (a bug: please report it)".into(),
                code: 101,
            })?
        });
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {}", e.message);
            ExitCode::from(e.code)
        }
    }
}

fn dispatch(command: Command) -> Result<u8, CliError> {
    match command {
        Command::Solve(a) if a.game == "tsume" && !a.search.rules_only => tsume::solve_cmd(&a),
        Command::Bench(a) if a.game == "tsume" && !a.search.rules_only => tsume::bench_cmd(&a),
        Command::Solve(a) if a.game == "go" => gocapture::solve_cmd(&a),
        Command::Usi => usi::run(),
        Command::Solve(a) => solve::run(&a),
        Command::Bench(a) => bench::run(&a),
        Command::Verify(a) => verify::run(&a),
        Command::Tune(a) => tune::run(&a),
        Command::Experiment(a) => experiment::run(&a),
        Command::Gtp(a) => gtp::run(&a),
        Command::Connect6(a) => connect6::run(&a),
        Command::List => {
            games::print_list();
            Ok(0)
        }
    }
}
