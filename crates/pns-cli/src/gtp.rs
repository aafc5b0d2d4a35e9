//! `pns gtp`: the Go Text Protocol engine of `pns-go` on stdin and stdout,
//! for GoGui, the GNU Go regression scripts or twogtp. The engine is a
//! library (`pns_games::go::gtp::Engine`); this is the loop around it.

use clap::Args;

use crate::CliError;
use pns_games::go::gtp::Engine;

#[derive(Args, Debug)]
pub struct GtpArgs {
    /// Node visits a solving command (`one_eye`, `one_eye_attack`) may
    /// spend before it answers with an error.
    #[arg(long, value_name = "N", default_value_t = 20_000_000)]
    pub nodes: u64,
}

pub fn run(a: &GtpArgs) -> Result<u8, CliError> {
    if a.nodes == 0 {
        return Err(CliError::usage("--nodes must be at least 1"));
    }
    let mut e = Engine::new();
    e.solve_visits = a.nodes;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    e.run(stdin.lock(), stdout.lock()).map_err(|err| CliError {
        message: format!("gtp: {err}"),
        code: 1,
    })?;
    Ok(0)
}
