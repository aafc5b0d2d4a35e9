//! How the command line picks a game by name: the registry lives in
//! [`pns_games::registry`]; here are only its CLI wordings.

use pns_core::algo::ALGO_HELP;
use pns_core::{Algo, Game, Repetition};
use pns_games::registry::{self, GameOptions, OptionError};
use pns_games::RegisteredGame;

use crate::{CliError, SearchArgs};

/// Runs `$body` with `$G` bound to the game type named `$name` (see
/// [`pns_games::with_game!`]); an unknown name is a usage error.
#[macro_export]
macro_rules! with_game {
    ($name:expr, $rules_only:expr, $G:ident => $body:expr) => {
        pns_games::with_game!($name, $rules_only, $G => $body)
            .unwrap_or_else(|e| Err($crate::CliError::usage(e.to_string())))
    };
}

/// The game options among the command's arguments.
pub fn game_options(args: &SearchArgs) -> GameOptions {
    GameOptions {
        shuffle: args.shuffle,
    }
}

/// Applies the game options of `args` to `g`.
pub fn prepare<G: RegisteredGame>(g: G, args: &SearchArgs) -> Result<G, CliError> {
    g.prepare(&game_options(args)).map_err(|e: OptionError| {
        CliError::usage(format!(
            "--{} applies to {} only, not {}",
            e.option, e.takes, e.game
        ))
    })
}

/// Checks that the algorithm can search `g`: one that does not follow the
/// line (PN*, PDS, the best-first searches) would loop on a game whose
/// positions repeat.
pub fn supported<G: Game>(g: G, args: &SearchArgs) -> Result<G, CliError> {
    let algo = Algo::parse(args.algo_or("dfpn")).map_err(CliError::usage)?;
    if g.repetition() != Repetition::Impossible && !algo.handles_repetition() {
        return Err(CliError::usage(format!(
            "--algo {}: {} positions can repeat, and only the df-pn family (dfpn, dfpn-plus, dfpn-eps, deep-dfpn, wpns) follows the line",
            args.algo_or("dfpn"),
            G::NAME
        )));
    }
    Ok(g)
}

/// Reads a position typed by the user. The position argument accepts a
/// leading `-` (most Othello boards begin with one), so clap hands an
/// unknown option such as `--bogus` over as a position: one that no game
/// could read and that looks like an option is reported as an option.
pub fn read_position<G: RegisteredGame>(text: &str) -> Result<G, CliError> {
    G::parse_position(text).map_err(|e| {
        let optionlike = text.starts_with('-')
            && text
                .trim_start_matches('-')
                .starts_with(|c: char| c.is_ascii_lowercase());
        if optionlike {
            CliError::usage(format!("unexpected argument '{text}' (see pns --help)"))
        } else {
            CliError::usage(format!("invalid {} position '{text}': {e}", G::NAME))
        }
    })
}

/// `pns list`.
pub fn print_list() {
    println!("games:");
    for g in registry::games() {
        let d = if g.default_position.is_empty() {
            "(empty)"
        } else {
            g.default_position
        };
        println!(
            "  {:<10} {}\n  {:<10} default position: {d}",
            g.name, g.notation, ""
        );
    }
    println!("\nalgorithms (--algo):");
    for l in ALGO_HELP.lines() {
        println!("  {l}");
    }
}
