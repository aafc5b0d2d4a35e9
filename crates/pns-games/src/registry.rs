//! The game registry: every game a front end can pick by name, with its
//! notation, default position and game-specific options. Adding a game
//! means adding it here (an arm of [`with_game!`](crate::with_game), a
//! name in [`NAMES`], a [`RegisteredGame`] impl) and nowhere else.
//!
//! The registry knows no command line: options come in a plain
//! [`GameOptions`], and errors are values the front end words its own way.

use std::fmt;

use pns_core::Game;
pub use pns_core::RulesOnly;

use crate::hex::Hex;
use crate::othello::Othello;
use crate::{ConnectFour, Cyclic, Synthetic, TestFormat, TicTacToe};

/// Game names, in the order they are listed.
pub const NAMES: &[&str] = &[
    "connect4",
    "othello",
    "hex",
    "tictactoe",
    "synthetic",
    "cyclic",
    "go-one-eye",
    "go-capture",
    "connect6",
    "tsume",
];

/// Game-specific options, filled by a front end from its own arguments.
/// A game refuses the ones it does not take, so that a mistyped command
/// is not silently run without them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameOptions {
    /// Hex: the legal moves in an order shuffled with this seed (thesis
    /// §3.2.3).
    pub shuffle: Option<u64>,
}

/// A [`GameOptions`] field set for a game that does not take it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    /// The field, e.g. `shuffle`.
    pub option: &'static str,
    /// The games that take it.
    pub takes: &'static str,
    /// The game asked.
    pub game: &'static str,
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} applies to {} only, not {}",
            self.option, self.takes, self.game
        )
    }
}

impl std::error::Error for OptionError {}

impl GameOptions {
    /// Refuses every option that is set: the default [`RegisteredGame::prepare`].
    pub fn refuse_all(&self, game: &'static str) -> Result<(), OptionError> {
        if self.shuffle.is_some() {
            return Err(OptionError {
                option: "shuffle",
                takes: "hex",
                game,
            });
        }
        Ok(())
    }
}

/// What a front end needs from a game beyond the engine's traits.
pub trait RegisteredGame: Game + TestFormat {
    /// The position solved when none is given.
    const DEFAULT_POSITION: &'static str;
    /// One line on the notation.
    const NOTATION: &'static str;

    /// Applies game-specific options. Default: refuses them all.
    fn prepare(self, opts: &GameOptions) -> Result<Self, OptionError> {
        opts.refuse_all(Self::NAME)?;
        Ok(self)
    }
}

impl RegisteredGame for ConnectFour {
    // A begin-medium position from Pons' Test_L1_R2: the side to move wins
    // (about 0.1 s).
    const DEFAULT_POSITION: &'static str = "241724774162";
    const NOTATION: &'static str = "columns 1-7 played from the empty board, e.g. 4453";
}

impl RegisteredGame for Othello {
    // FFO position #1 (fforum-1-19.obf, 14 empties): the side to move wins.
    const DEFAULT_POSITION: &'static str =
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    const NOTATION: &'static str =
        "Edax .obf board (64 of X O -, a1..h1 first) and side X/O, or moves from the start (f5d6c3...)";
}

impl RegisteredGame for Hex {
    // The empty 4x4 board (Black to move wins).
    const DEFAULT_POSITION: &'static str = "4";
    const NOTATION: &'static str =
        "board size then moves, Black first (Benzene's cells, e.g. 6 c3 d4); Black joins rows 1 and N";

    /// `shuffle`: the legal moves in a seeded random order.
    fn prepare(self, opts: &GameOptions) -> Result<Self, OptionError> {
        Ok(match opts.shuffle {
            Some(seed) => self.with_shuffled_order(seed),
            None => self,
        })
    }
}

impl RegisteredGame for TicTacToe {
    const DEFAULT_POSITION: &'static str = "";
    const NOTATION: &'static str = "cells 1-9 (row by row) played from the empty board, e.g. 519";
}

impl RegisteredGame for Synthetic {
    const DEFAULT_POSITION: &'static str = "shape=unbalanced,depth=16,branching=4,seed=1,pool=2000";
    const NOTATION: &'static str =
        "name=value list (shape, depth, branching, seed, pool, win, draw, stop) then child indices";
}

impl RegisteredGame for Cyclic {
    const DEFAULT_POSITION: &'static str = "rule=cpl,nodes=40,degree=3,seed=2,terminal=5";
    const NOTATION: &'static str =
        "rule=fpl|cpl then a random graph (nodes, degree, seed, terminal, win) or vertices A:B,C ...; moves are vertex names";
}

impl RegisteredGame for crate::go::OneEye {
    // A generated 8-point room, the defender (Black) to move: a win.
    const DEFAULT_POSITION: &'static str = "points=8,seed=1";
    const NOTATION: &'static str =
        "SGF (inline or a .sgf file; region SQ, defender stones TR) or points=K,seed=S[,first=defender|attacker]; moves are GTP vertices or pass";
}

impl RegisteredGame for crate::go::capture::Capture {
    // White C7 in atari on 9x9, Black to move: a capture (win) in one.
    const DEFAULT_POSITION: &'static str = "(;FF[4]SZ[9]AB[bc][cb][dc]AW[cc])|target=C7,gen=board";
    const NOTATION: &'static str =
        "SGF|target=VERTEX[,first=attacker|defender,move=N,libs=K,gen=h1|h2|board] (the generator bounds both sides: gen=board for a proof in Go); moves are GTP vertices or pass";
}

impl RegisteredGame for crate::Connect6 {
    // Connect(7,7,4,2,1) after Black's first stone: White, to move with
    // two stones, wins (about 0.1 s).
    const DEFAULT_POSITION: &'static str = "7x7,k=4 d4";
    const NOTATION: &'static str =
        "optional WxH,k=K,p=P,q=Q,turn=pair (default 19x19,k=6,p=2,q=1) then turns as cells, Black first: j10 i9j9 k11k9; or SGF";
}

impl RegisteredGame for crate::Tsume {
    // antma-tsume.tsv's first mate in 7 (a gold and pawn chase).
    const DEFAULT_POSITION: &'static str = "9/9/9/4k4/9/4P4/9/9/9 b 4G2r2b4s4n4l17p 1";
    const NOTATION: &'static str =
        "SFEN [moves ...] with the attacker to move; an empty defender's hand means all the other pieces";
}

impl<G: RegisteredGame> RegisteredGame for RulesOnly<G> {
    const DEFAULT_POSITION: &'static str = G::DEFAULT_POSITION;
    const NOTATION: &'static str = G::NOTATION;

    fn prepare(self, opts: &GameOptions) -> Result<Self, OptionError> {
        self.0.prepare(opts).map(RulesOnly)
    }
}

/// The identity wrapper: `Bare<G>` is `G` (used by [`with_game!`](crate::with_game)).
pub type Bare<G> = G;

/// A name that is not in [`NAMES`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame(pub String);

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown game '{}' (one of {})", self.0, NAMES.join(", "))
    }
}

impl std::error::Error for UnknownGame {}

/// Runs `$body` with `$G` bound to the game type named `$name`, wrapped in
/// [`RulesOnly`] when `$rules_only` is true. Evaluates to `Ok($body)`, or
/// to `Err(UnknownGame)` for a name not in [`NAMES`].
#[macro_export]
macro_rules! with_game {
    ($name:expr, $rules_only:expr, $G:ident => $body:expr) => {{
        if $rules_only {
            $crate::with_game!(@pick $name, $G, [$crate::registry::RulesOnly], $body)
        } else {
            $crate::with_game!(@pick $name, $G, [$crate::registry::Bare], $body)
        }
    }};
    (@pick $name:expr, $G:ident, [$($wrap:tt)*], $body:expr) => {{
        match $name {
            "connect4" => {
                type $G = $($wrap)*<$crate::ConnectFour>;
                Ok($body)
            }
            "othello" => {
                type $G = $($wrap)*<$crate::othello::Othello>;
                Ok($body)
            }
            "hex" => {
                type $G = $($wrap)*<$crate::hex::Hex>;
                Ok($body)
            }
            "tictactoe" => {
                type $G = $($wrap)*<$crate::TicTacToe>;
                Ok($body)
            }
            "synthetic" => {
                type $G = $($wrap)*<$crate::Synthetic>;
                Ok($body)
            }
            "cyclic" => {
                type $G = $($wrap)*<$crate::Cyclic>;
                Ok($body)
            }
            "go-one-eye" => {
                type $G = $($wrap)*<$crate::go::OneEye>;
                Ok($body)
            }
            "go-capture" => {
                type $G = $($wrap)*<$crate::go::capture::Capture>;
                Ok($body)
            }
            "connect6" => {
                type $G = $($wrap)*<$crate::Connect6>;
                Ok($body)
            }
            "tsume" => {
                type $G = $($wrap)*<$crate::Tsume>;
                Ok($body)
            }
            other => Err($crate::registry::UnknownGame(other.to_string())),
        }
    }};
}

/// A registered game's name, notation and default position, for listings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameInfo {
    pub name: &'static str,
    pub notation: &'static str,
    pub default_position: &'static str,
}

impl GameInfo {
    fn of<G: RegisteredGame>() -> GameInfo {
        GameInfo {
            name: G::NAME,
            notation: G::NOTATION,
            default_position: G::DEFAULT_POSITION,
        }
    }
}

/// Every registered game, in [`NAMES`] order.
pub fn games() -> Vec<GameInfo> {
    NAMES
        .iter()
        .map(|&n| crate::with_game!(n, false, G => GameInfo::of::<G>()).expect("registered"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use pns_core::prelude::*;

    #[test]
    fn names_dispatch_to_games_of_that_name() {
        let infos = games();
        assert_eq!(infos.len(), NAMES.len());
        for (info, &name) in infos.iter().zip(NAMES) {
            assert_eq!(info.name, name);
            let ro = crate::with_game!(name, true, G => G::NAME).unwrap();
            assert_eq!(ro, name);
        }
        let e = crate::with_game!("chess", false, G => G::NAME).unwrap_err();
        assert!(e.to_string().starts_with("unknown game 'chess'"));
    }

    #[test]
    fn only_hex_takes_shuffle() {
        let opts = GameOptions { shuffle: Some(3) };
        let e = ConnectFour::new().prepare(&opts).unwrap_err();
        assert_eq!(e.to_string(), "shuffle applies to hex only, not connect4");
        assert!(Hex::new(4).unwrap().prepare(&opts).is_ok());
        assert!(RulesOnly(Hex::new(4).unwrap()).prepare(&opts).is_ok());
    }
}
