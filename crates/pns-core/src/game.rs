//! Two-player game rules, the interface every domain implements.
//!
//! A [`Game`] is a position of a finite, two-player, zero-sum game with
//! perfect information. It is *not* an AND/OR problem by itself: the
//! [`crate::problem::GoalProblem`] adapter turns a game plus a [`Goal`] into
//! the AND/OR [`crate::problem::Problem`] the engine searches (thesis §2.1.1:
//! OR nodes are the attacker's, AND nodes the defender's).
//!
//! The trait is split in two parts:
//!
//! * **Rules** (`side_to_move`, `outcome`, `legal_moves`, `play`, notation).
//!   These are all the independent proof verifier ([`crate::verify`]) uses.
//! * **Search hooks** with defaults (`known_outcome`, `search_moves`,
//!   `heuristic`, `edge_cost`, `playout`). A game overrides them to make the
//!   search faster; the defaults give plain rules-only search. Hooks must be
//!   *sound*: a wrong hook makes the search wrong, and the verifier will
//!   then reject the certificate.

use std::fmt;
use std::hash::Hash;

use crate::rng::Rng;

/// A player. `First` moves first from the game's initial position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    First,
    Second,
}

impl Side {
    /// The other player.
    #[inline]
    pub fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::First => "first",
            Side::Second => "second",
        })
    }
}

/// A game-theoretic result seen from one player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    Loss,
    Draw,
    Win,
}

impl Outcome {
    /// The same result seen from the other player's side.
    #[inline]
    pub fn flip(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
        }
    }

    /// Lower-case name used in all output: `win`, `draw`, `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the attacker (the OR player) must achieve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// The attacker wins.
    Win,
    /// The attacker does not lose (a win or a draw).
    NotLose,
}

impl Goal {
    /// Whether a final result (from the attacker's side) meets the goal.
    #[inline]
    pub fn met_by(self, outcome_for_attacker: Outcome) -> bool {
        match self {
            Goal::Win => outcome_for_attacker == Outcome::Win,
            Goal::NotLose => outcome_for_attacker != Outcome::Loss,
        }
    }

    /// Name used in certificates and JSON: `win`, `not-lose`.
    pub fn name(self) -> &'static str {
        match self {
            Goal::Win => "win",
            Goal::NotLose => "not-lose",
        }
    }

    /// Inverse of [`Goal::name`].
    pub fn from_name(s: &str) -> Option<Goal> {
        match s {
            "win" => Some(Goal::Win),
            "not-lose" => Some(Goal::NotLose),
            _ => None,
        }
    }
}

/// The attacker and the goal: everything a search hook needs to know about
/// the question being asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GoalContext {
    pub attacker: Side,
    pub goal: Goal,
}

/// A one-line error about bad input: a malformed position, an illegal move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct GameError(pub String);

impl GameError {
    pub fn new(msg: impl Into<String>) -> Self {
        GameError(msg.into())
    }
}

/// Plays a list of moves in notation from `g`, checking each: the shared
/// half of parsing "a position is the moves played from the start". Errors
/// name the move and its place in the list.
pub fn play_move_list<'a, G: Game>(
    mut g: G,
    moves: impl IntoIterator<Item = &'a str>,
) -> Result<G, GameError> {
    for (i, tok) in moves.into_iter().enumerate() {
        if g.outcome().is_some() {
            return Err(GameError::new(format!(
                "move {} ('{tok}') comes after the game has ended",
                i + 1
            )));
        }
        let m = g
            .parse_move(tok)
            .map_err(|e| GameError::new(format!("move {} ('{tok}'): {}", i + 1, e.0)))?;
        g.play(m);
    }
    Ok(g)
}

/// A position of a two-player game (see the module documentation).
///
/// `Eq` and `Hash` compare *positions* (what decides the future of the
/// game), so that the verifier can recognise a transposition in a
/// certificate; `key` is a 64-bit hash of the same thing for the search's
/// transposition table.
pub trait Game: Clone + Eq + Hash + fmt::Debug + Send + Sync + 'static {
    /// A move. `Ord` gives certificates a canonical order.
    type Move: Copy + Eq + Ord + Hash + fmt::Debug + Send + Sync + 'static;

    /// Name on the command line, e.g. `connect4`.
    const NAME: &'static str;

    /// Whether the game can end in a draw. A game without draws is solved
    /// with one search instead of two.
    const HAS_DRAWS: bool = true;

    // ---------------------------------------------------------------- rules

    /// Parses a position in the game's documented notation.
    fn parse_position(s: &str) -> Result<Self, GameError>;

    /// The player to move.
    fn side_to_move(&self) -> Side;

    /// `Some` when the game is over, seen from the side to move. Rules only:
    /// no look-ahead.
    fn outcome(&self) -> Option<Outcome>;

    /// Appends every legal move to `out` (which the caller has cleared).
    /// A game where a player must pass includes the pass as a move. Called
    /// only when `outcome()` is `None`.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Plays a legal move.
    fn play(&mut self, m: Self::Move);

    /// A 64-bit hash of the position (Zobrist or a bijective mix of a
    /// unique encoding).
    fn key(&self) -> u64;

    /// Parses a move in the game's notation, checking that it is legal here.
    fn parse_move(&self, s: &str) -> Result<Self::Move, GameError>;

    /// Writes a move in the game's notation (inverse of `parse_move`).
    fn format_move(&self, m: Self::Move) -> String;

    /// A human-readable picture of the position (several lines).
    fn render(&self) -> String {
        format!("{self:?}")
    }

    // ---------------------------------------------------------- search hooks

    /// The exact game-theoretic outcome for the side to move when it is known
    /// cheaply, e.g. a win in one move. Must never be wrong. Default: the
    /// rules' `outcome()`.
    #[inline]
    fn known_outcome(&self) -> Option<Outcome> {
        self.outcome()
    }

    /// The moves the search tries, best first. Must contain a best move for
    /// the side to move whenever `known_outcome()` is `None` (moves proven
    /// no better than another listed move may be left out). Default: all
    /// legal moves in generation order.
    #[inline]
    fn search_moves(&self, out: &mut Vec<Self::Move>) {
        self.legal_moves(out)
    }

    /// Heuristic initial (proof, disproof) numbers of an unsolved leaf for
    /// the attacker in `ctx` (df-pn+ `h`, thesis §2.2.4). Both must be ≥ 1.
    /// Default `(1, 1)`: plain proof-number search.
    #[inline]
    fn heuristic(&self, _ctx: GoalContext) -> (u64, u64) {
        (1, 1)
    }

    /// df-pn+ edge cost of playing `m` here, as (cost_proof, cost_disproof)
    /// (thesis §2.2.4). Default `(0, 0)`.
    #[inline]
    fn edge_cost(&self, _m: Self::Move, _ctx: GoalContext) -> (i64, i64) {
        (0, 0)
    }

    /// The position to search when a proof certificate is wanted: the same
    /// position (equal under `Eq`, with the same key), possibly with other
    /// search settings. A certificate plays every line out to a finished
    /// game, and an analysis that declares wins early (Hex's virtual
    /// connections) can make that exponential even when it makes the
    /// answer fast. Default: `self`.
    fn for_certificate(&self) -> Self {
        self.clone()
    }

    /// Plays uniformly random legal moves to the end of the game (used by
    /// PPNS and MCPNS) and returns the result for the side to move *here*.
    /// Games override it with a faster version; any override must still
    /// play legal moves only.
    fn playout(&self, rng: &mut Rng) -> Outcome {
        let me = self.side_to_move();
        let mut g = self.clone();
        let mut moves = Vec::new();
        loop {
            if let Some(o) = g.outcome() {
                return if g.side_to_move() == me { o } else { o.flip() };
            }
            moves.clear();
            g.legal_moves(&mut moves);
            let m = moves[rng.below(moves.len() as u64) as usize];
            g.play(m);
        }
    }
}
