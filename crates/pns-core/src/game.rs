//! Two-player game rules, the interface every domain implements.
//!
//! A [`Game`] is a position of a finite, two-player, zero-sum game with
//! perfect information. It is *not* an AND/OR problem by itself: the
//! [`crate::problem::GoalProblem`] adapter turns a game plus a [`Goal`] into
//! the AND/OR [`crate::problem::Problem`] the engine searches (thesis §2.1.1:
//! OR nodes are the attacker's, AND nodes the defender's).
//!
//! `Game` is the sum of five traits, one per concern, so that a game
//! implements only what it has and each consumer names only what it uses:
//!
//! * [`Rules`]: side to move, outcome, legal moves, play, key, repetition.
//! * [`Notation`]: positions and moves as text, a picture of the board.
//! * [`SearchHooks`]: known outcomes, move ordering and pruning, df-pn+
//!   heuristics and edge costs. They make the search faster; the defaults
//!   give plain rules-only search.
//! * [`Shortcuts`]: certificate shortcuts of monotone games such as Hex
//!   (concessions, fills, claims); by default refused.
//! * [`Playout`]: random playouts for the Monte-Carlo variants.
//!
//! The independent proof verifier ([`crate::verify`]) trusts only
//! `Rules`, `Notation` and the checks of `Shortcuts` (`concede`, `fill`,
//! `check_claim`). Everything else is a hint to the search, and must be
//! *sound*: a wrong hook makes the search wrong, and the verifier will
//! then reject the certificate. A game opts into a concern's defaults with
//! an empty impl (`impl SearchHooks for MyGame {}`); calls on a concrete
//! type need the defining trait in scope (`use pns_core::prelude::*`).

use std::fmt;
use std::hash::Hash;

use crate::problem::Status;
use crate::rng::Rng;
use crate::tt::Table;

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

/// How a position that repeats one earlier on the current line counts (GHI
/// paper §1.2). The search owns the line (the positions from the root to
/// the node) and applies the rule; a game only names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Repetition {
    /// Positions never repeat (Connect Four, Othello, Hex): no path checks.
    Impossible,
    /// *first-player-loss*: a repetition is a loss for the attacker, the
    /// player the question is about (tsume-shogi's perpetual check).
    FirstPlayerLoss,
    /// *current-player-loss*: the player whose move repeats a position
    /// loses (situational super-ko in Go, where such a move is illegal).
    CurrentPlayerLoss,
    /// A repetition is a win for the attacker: first-player-loss seen from
    /// the other side, when the game fixes the side a repetition loses for
    /// ([`Rules::repetition_loser`]) and the question is about its
    /// opponent (a Go capturing problem asked with the target's owner as
    /// the question's side). Never a game's own rule: see
    /// [`Repetition::for_attacker`].
    SecondPlayerLoss,
}

impl Repetition {
    /// The rule a question about `attacker` in `g` follows: the game's,
    /// except that first-player-loss whose loser the game fixes
    /// ([`Rules::repetition_loser`]) becomes [`Repetition::SecondPlayerLoss`]
    /// when the question is about the other side. Searches, certificate
    /// extraction and the verifier all judge repetitions by this rule.
    pub fn for_attacker<G: Rules>(g: &G, attacker: Side) -> Repetition {
        match g.repetition() {
            Repetition::FirstPlayerLoss if g.repetition_loser().is_some_and(|l| l != attacker) => {
                Repetition::SecondPlayerLoss
            }
            r => r,
        }
    }
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
pub fn play_move_list<'a, G: Notation>(
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

/// The rules of a two-player game: everything needed to play it and to
/// check a proof of a result (see the module documentation).
///
/// `Eq` and `Hash` on a [`Game`] compare *positions* (what decides the
/// future of the game), so that the verifier can recognise a transposition
/// in a certificate; `key` is a 64-bit hash of the same thing for the
/// search's transposition table.
pub trait Rules: Sized {
    /// A move. `Ord` gives certificates a canonical order.
    type Move: Copy + Eq + Ord + Hash + fmt::Debug + Send + Sync + 'static;

    /// Name on the command line, e.g. `connect4`.
    const NAME: &'static str;

    /// Whether the game can end in a draw. A game without draws is solved
    /// with one search instead of two.
    const HAS_DRAWS: bool = true;

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

    /// How a repeated position counts. Default: positions never repeat.
    /// A game that returns anything else must make [`Rules::history_key`]
    /// tell apart positions that are not the same for the rule (e.g. the
    /// side to move, for situational super-ko).
    #[inline]
    fn repetition(&self) -> Repetition {
        Repetition::Impossible
    }

    /// Under [`Repetition::FirstPlayerLoss`]: the side a repetition loses
    /// for whoever the question is about, when the game fixes it (a Go
    /// capturing problem: the attacker, also when the target's owner is
    /// to move and the question is whether it saves the target). `None`:
    /// the question's own side (tsume-shogi, where the question is always
    /// the attacker's).
    #[inline]
    fn repetition_loser(&self) -> Option<Side> {
        None
    }

    /// The key compared along the line to detect a repetition. Default:
    /// [`Rules::key`] (which then must include the side to move). Go's
    /// positional super-ko would give the board alone.
    #[inline]
    fn history_key(&self) -> u64 {
        self.key()
    }
}

/// Reading and writing positions and moves in the game's notation.
pub trait Notation: Rules + fmt::Debug {
    /// Parses a position in the game's documented notation.
    fn parse_position(s: &str) -> Result<Self, GameError>;

    /// Parses a move in the game's notation, checking that it is legal here.
    fn parse_move(&self, s: &str) -> Result<Self::Move, GameError>;

    /// Writes a move in the game's notation (inverse of `parse_move`).
    fn format_move(&self, m: Self::Move) -> String;

    /// A human-readable picture of the position (several lines).
    fn render(&self) -> String {
        format!("{self:?}")
    }
}

/// A lookup of a game's own shared entries ([`SearchHooks::shared_probe`]):
/// the table key they lie under and a word the lookup compares them with
/// (tsume: the attacker's hand).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SharedProbe {
    pub key: u64,
    pub token: u64,
}

/// Game knowledge that makes the search faster. The defaults give plain
/// rules-only search; an override must be *sound* (see the module
/// documentation).
pub trait SearchHooks: Rules {
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

    /// The heuristic, or `None` when computing it showed that
    /// [`SearchHooks::search_moves`] gives no move here (with
    /// `known_outcome()` `None`): the search then takes the node as lost for
    /// the side to move without visiting it. Only a game whose heuristic
    /// counts exactly the moves the search tries can tell (tsume: the
    /// checks, the evasions). Default: `Some(heuristic)`.
    #[inline]
    fn heuristic_or_no_move(&self, ctx: GoalContext) -> Option<(u64, u64)> {
        Some(self.heuristic(ctx))
    }

    /// df-pn+ edge cost of playing `m` here, as (cost_proof, cost_disproof)
    /// (thesis §2.2.4). Default `(0, 0)`.
    #[inline]
    fn edge_cost(&self, _m: Self::Move, _ctx: GoalContext) -> (i64, i64) {
        (0, 0)
    }

    /// Whether [`SearchHooks::delays`] ever says yes. Default `false`.
    const DELAYS: bool = false;

    /// Delayed expansion (KomoringHeights' delayed moves): whether `m`,
    /// listed by [`SearchHooks::search_moves`] right after `prev`, is an
    /// answer of the same kind that df-pn should count and search only
    /// once `prev` is solved (tsume: the defender's drops on one square).
    /// It changes which children weigh in a node's numbers, never a value:
    /// every move is still searched before its node is solved the way
    /// that needs them all. Default: never.
    #[inline]
    fn delays(&self, _prev: Self::Move, _m: Self::Move) -> bool {
        false
    }

    /// Whether the game shares solved results between positions by a rule
    /// of its own: [`SearchHooks::shared_status`] and
    /// [`SearchHooks::share_solved`] (e.g. tsume-shogi's proof and disproof
    /// pieces: a position proven with some pieces in hand is proven with
    /// more). Default `false`: the search never calls them and compiles to
    /// the same code as without them.
    const SHARES_SOLVED: bool = false;

    /// Where this position's own entries for the question `ctx` would lie
    /// (entries it stored with [`SearchHooks::share_solved`], under its
    /// own keys XORed with `space`), and what the lookup compares them
    /// with; `None` when there is nothing to look up. Split from
    /// [`SearchHooks::shared_lookup`] so that the search can prefetch the
    /// key's cluster for every child before it looks any up: the misses
    /// overlap (tsume's lookups were a quarter of its profile, nearly all
    /// of it one cache miss).
    #[inline]
    fn shared_probe(&self, _space: u64, _ctx: GoalContext) -> Option<SharedProbe> {
        None
    }

    /// The value that the game's own entries in `tt` give the position
    /// that [`SearchHooks::shared_probe`] described, or `Unknown`. Must
    /// never be wrong.
    #[inline]
    fn shared_lookup(_tt: &Table, _probe: SharedProbe) -> Status {
        Status::Unknown
    }

    /// The value of this position for the question `ctx` as the game's own
    /// entries in `tt` settle it: [`SearchHooks::shared_probe`] then
    /// [`SearchHooks::shared_lookup`].
    #[inline]
    fn shared_status(&self, tt: &Table, space: u64, ctx: GoalContext) -> Status {
        match self.shared_probe(space, ctx) {
            Some(q) => Self::shared_lookup(tt, q),
            None => Status::Unknown,
        }
    }

    /// This position was solved with `status` for `ctx`, on every path (a
    /// result that holds on one line only is never passed); `children` are
    /// its moves as the search generated them, with their values then
    /// (`Unknown` where a value holds on the current line only; empty when
    /// the side to move has no move). The game may store
    /// entries of its own in `tt` (keys XORed with `space`, effort
    /// `amount`) for [`SearchHooks::shared_status`] to find.
    #[inline]
    fn share_solved(
        &self,
        _tt: &Table,
        _space: u64,
        _ctx: GoalContext,
        _status: Status,
        _children: &[(Self::Move, Status)],
        _amount: u32,
    ) {
    }
}

/// Certificate shortcuts for *monotone* games such as Hex: concessions,
/// fills and claims. The checks (`concede`, `fill`, `check_claim`) belong
/// to the rules and are used by the verifier; the suggestions
/// (`concessions`, `fill_witness`, `claim`) help the certificate
/// extractor. Defaults: every check refuses, no suggestions.
pub trait Shortcuts: Rules {
    /// Gives `to` a free move `m` without changing the side to move: a
    /// *concession* by `to`'s opponent, the prover of a certificate, who
    /// then proves its result despite the gift. Returns an error when `m`
    /// is not a legal placement for `to` here, or when the game does not
    /// allow concessions (the default).
    ///
    /// Only a *monotone* game may allow them: one where an extra move for a
    /// player never makes the result worse for that player, so that a
    /// proof for the prover after the concession is a proof without it.
    /// Hex is such a game (stones never go away and an extra stone never
    /// hurts, the argument behind Benzene's fill-in: Hayward et al.,
    /// "Solving 7x7 Hex", ACG 2003). The
    /// verifier relies on this property and on the rules alone: a
    /// certificate may concede, before any node, moves of the prover's
    /// opponent (the GHI paper's proof-tree rules, §3.3, with the leaves
    /// reached sooner). This keeps Hex certificates small: once the prover
    /// holds a virtual connection, every cell outside its carrier is
    /// conceded, and only the defences inside it are played out.
    fn concede(&mut self, _to: Side, _m: Self::Move) -> Result<(), GameError> {
        Err(GameError::new(format!(
            "{}: concessions are not sound in this game",
            Self::NAME
        )))
    }

    /// Gives `prover` the stones a game-specific `witness` names, after
    /// checking with the rules alone that they cannot change the result
    /// for `prover`'s opponent's benefit: e.g. a Hex pair of cells of which
    /// the prover takes the second whenever the opponent takes the first,
    /// and where either alone is as good as both. The side to move is
    /// unchanged. A certificate may fill before any node (`+WITNESS`), so
    /// that defences into such cells need no proof of their own. Default:
    /// no fills (an error).
    fn fill(&mut self, _prover: Side, _witness: &str) -> Result<(), GameError> {
        Err(GameError::new(format!(
            "{}: this game has no fills",
            Self::NAME
        )))
    }

    /// Checks a *claim*: a game-specific `witness` that `prover` wins from
    /// here whatever the opponent does, e.g. a set of Hex connections with
    /// disjoint carriers, each with a local strategy played out cell by
    /// cell. A certificate may end a line with a claim instead of playing
    /// it to a finished game. The check must use the rules alone (no
    /// search code) and accept only witnesses whose soundness follows from
    /// them. Default: no claims (an error).
    fn check_claim(&self, _prover: Side, _witness: &str) -> Result<(), GameError> {
        Err(GameError::new(format!(
            "{}: this game has no claims",
            Self::NAME
        )))
    }

    /// The moves a certificate for `prover` may concede here (see
    /// [`Shortcuts::concede`]): a suggestion from the game's analysis, e.g. the
    /// empty cells outside the carrier of a Hex virtual connection. Suggest
    /// only concessions that keep the value: the extractor asks only where
    /// the prover's opponent moves, takes the result to hold after them
    /// (reading the statuses below from the search's table through the
    /// position before them, which the search saw), searches only when
    /// that subtree fails, and the verifier checks the rest, so a poor
    /// suggestion costs time, never correctness. Default: none.
    fn concessions(&self, _prover: Side, _out: &mut Vec<Self::Move>) {}

    /// A witness for [`Shortcuts::fill`] that `prover` may use here, when the
    /// game's analysis has one; like [`Shortcuts::concessions`], one that
    /// keeps the value, which the extractor takes on trust the same way
    /// (the verifier checks the rest). Default: none.
    fn fill_witness(&self, _prover: Side) -> Option<String> {
        None
    }

    /// A witness that `prover` wins from here, for [`Shortcuts::check_claim`],
    /// when the game's analysis has a compact one. The extractor checks it
    /// before using it. Default: none.
    fn claim(&self, _prover: Side) -> Option<String> {
        None
    }
}

/// Random playouts, for the Monte-Carlo variants (PPNS, MCPNS).
pub trait Playout: Rules + Clone {
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

/// A position of a two-player game with everything the search engine may
/// ask of it: the five concerns above. Implemented automatically for every
/// type that implements them; a game opts into a concern's defaults with
/// an empty impl (`impl SearchHooks for MyGame {}`).
pub trait Game:
    Rules
    + Notation
    + SearchHooks
    + Shortcuts
    + Playout
    + Clone
    + Eq
    + Hash
    + fmt::Debug
    + Send
    + Sync
    + 'static
{
}

impl<T> Game for T where
    T: Rules
        + Notation
        + SearchHooks
        + Shortcuts
        + Playout
        + Clone
        + Eq
        + Hash
        + fmt::Debug
        + Send
        + Sync
        + 'static
{
}
