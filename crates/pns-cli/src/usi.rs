//! `pns usi`: the USI mate engine of `pns_shogi::usi` on stdin and stdout.

use crate::CliError;

pub fn run() -> Result<u8, CliError> {
    let input = std::io::BufReader::new(std::io::stdin());
    pns_games::shogi::usi::run(input, std::io::stdout())
        .map_err(|e| CliError::usage(format!("usi: {e}")))?;
    Ok(0)
}
