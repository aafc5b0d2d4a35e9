//! The games the command line knows, and how it picks one by name.

use pns_core::algo::ALGO_HELP;
use pns_core::{Algo, Game, Repetition, RulesOnly};
use pns_games::hex::Hex;
use pns_games::othello::Othello;
use pns_games::{ConnectFour, Cyclic, Synthetic, TestFormat, TicTacToe};

use crate::{CliError, SearchArgs};

/// What the command line needs from a game beyond the engine's traits.
pub trait CliGame: Game + TestFormat {
    /// The position `pns solve GAME` solves when none is given.
    const DEFAULT_POSITION: &'static str;
    /// One line on the notation.
    const NOTATION: &'static str;

    /// Applies game-specific options (e.g. Hex's move shuffling).
    fn prepare(self, args: &SearchArgs) -> Result<Self, CliError> {
        if args.shuffle.is_some() {
            return Err(CliError::usage(format!(
                "--shuffle applies to hex only, not {}",
                Self::NAME
            )));
        }
        Ok(self)
    }
}

/// Checks that the algorithm can search `g`: one that does not follow the
/// line (PN*, PDS, the best-first searches) would loop on a game whose
/// positions repeat.
pub fn supported<G: Game>(g: G, args: &SearchArgs) -> Result<G, CliError> {
    let algo = Algo::parse(&args.algo).map_err(CliError::usage)?;
    if g.repetition() != Repetition::Impossible && !algo.handles_repetition() {
        return Err(CliError::usage(format!(
            "--algo {}: {} positions can repeat, and only the df-pn family (dfpn, dfpn-plus, dfpn-eps, deep-dfpn, wpns) follows the line",
            args.algo,
            G::NAME
        )));
    }
    Ok(g)
}

/// Reads a position typed by the user. The position argument accepts a
/// leading `-` (most Othello boards begin with one), so clap hands an
/// unknown option such as `--bogus` over as a position: one that no game
/// could read and that looks like an option is reported as an option.
pub fn read_position<G: CliGame>(text: &str) -> Result<G, CliError> {
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

impl CliGame for ConnectFour {
    // A begin-medium position from Pons' Test_L1_R2: the side to move wins
    // (about 0.1 s).
    const DEFAULT_POSITION: &'static str = "241724774162";
    const NOTATION: &'static str = "columns 1-7 played from the empty board, e.g. 4453";
}

impl CliGame for Othello {
    // FFO position #1 (fforum-1-19.obf, 14 empties): the side to move wins.
    const DEFAULT_POSITION: &'static str =
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    const NOTATION: &'static str =
        "Edax .obf board (64 of X O -, a1..h1 first) and side X/O, or moves from the start (f5d6c3...)";
}

impl CliGame for Hex {
    // The empty 4x4 board (Black to move wins).
    const DEFAULT_POSITION: &'static str = "4";
    const NOTATION: &'static str =
        "board size then moves, Black first (Benzene's cells, e.g. 6 c3 d4); Black joins rows 1 and N";

    /// `--shuffle SEED`: the legal moves in a seeded random order (thesis
    /// §3.2.3).
    fn prepare(self, args: &SearchArgs) -> Result<Self, CliError> {
        Ok(match args.shuffle {
            Some(seed) => self.with_shuffled_order(seed),
            None => self,
        })
    }
}

impl CliGame for TicTacToe {
    const DEFAULT_POSITION: &'static str = "";
    const NOTATION: &'static str = "cells 1-9 (row by row) played from the empty board, e.g. 519";
}

impl CliGame for Synthetic {
    const DEFAULT_POSITION: &'static str = "shape=unbalanced,depth=16,branching=4,seed=1,pool=2000";
    const NOTATION: &'static str =
        "name=value list (shape, depth, branching, seed, pool, win, draw, stop) then child indices";
}

impl CliGame for Cyclic {
    const DEFAULT_POSITION: &'static str = "rule=cpl,nodes=40,degree=3,seed=2,terminal=5";
    const NOTATION: &'static str =
        "rule=fpl|cpl then a random graph (nodes, degree, seed, terminal, win) or vertices A:B,C ...; moves are vertex names";
}

/// The identity wrapper: `Bare<G>` is `G` (used by [`with_game!`]).
pub type Bare<G> = G;

impl<G: CliGame> CliGame for RulesOnly<G> {
    const DEFAULT_POSITION: &'static str = G::DEFAULT_POSITION;
    const NOTATION: &'static str = G::NOTATION;

    fn prepare(self, args: &SearchArgs) -> Result<Self, CliError> {
        self.0.prepare(args).map(RulesOnly)
    }
}

/// Game names, in the order they are listed.
pub const NAMES: &[&str] = &[
    "connect4",
    "othello",
    "hex",
    "tictactoe",
    "synthetic",
    "cyclic",
];

/// Runs `$body` with `$G` bound to the game type named `$name`, wrapped in
/// [`RulesOnly`] when `$rules_only` is true.
#[macro_export]
macro_rules! with_game {
    ($name:expr, $rules_only:expr, $G:ident => $body:expr) => {{
        if $rules_only {
            $crate::with_game!(@pick $name, $G, [pns_core::RulesOnly], $body)
        } else {
            $crate::with_game!(@pick $name, $G, [$crate::games::Bare], $body)
        }
    }};
    (@pick $name:expr, $G:ident, [$($wrap:tt)*], $body:expr) => {{
        match $name {
            "connect4" => {
                type $G = $($wrap)*<pns_games::ConnectFour>;
                $body
            }
            "othello" => {
                type $G = $($wrap)*<pns_games::othello::Othello>;
                $body
            }
            "hex" => {
                type $G = $($wrap)*<pns_games::hex::Hex>;
                $body
            }
            "tictactoe" => {
                type $G = $($wrap)*<pns_games::TicTacToe>;
                $body
            }
            "synthetic" => {
                type $G = $($wrap)*<pns_games::Synthetic>;
                $body
            }
            "cyclic" => {
                type $G = $($wrap)*<pns_games::Cyclic>;
                $body
            }
            other => Err($crate::CliError::usage(format!(
                "unknown game '{other}' (one of {})",
                $crate::games::NAMES.join(", ")
            ))),
        }
    }};
}

fn line<G: CliGame>() {
    let d = if G::DEFAULT_POSITION.is_empty() {
        "(empty)".to_string()
    } else {
        G::DEFAULT_POSITION.to_string()
    };
    println!(
        "  {:<10} {}\n  {:<10} default position: {d}",
        G::NAME,
        G::NOTATION,
        ""
    );
}

/// `pns list`.
pub fn print_list() {
    println!("games:");
    line::<ConnectFour>();
    line::<Othello>();
    line::<Hex>();
    line::<TicTacToe>();
    line::<Synthetic>();
    line::<Cyclic>();
    println!("\nalgorithms (--algo):");
    for l in ALGO_HELP.lines() {
        println!("  {l}");
    }
}
