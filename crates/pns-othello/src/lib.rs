//! Othello (Reversi) on the standard 8x8 board.
//!
//! # Rules
//!
//! Black moves first from the usual start (white on d4 and e5, black on d5
//! and e4). A move places a disc that outflanks at least one straight line
//! of opponent discs, which are turned over. A player without such a move
//! must pass, and then the pass is the only legal move; the game ends when
//! neither player can move, and the player with more discs wins (equal
//! counts draw). Black is [`Side::First`], white [`Side::Second`].
//!
//! # Notation
//!
//! * Squares are `a1`..`h8`: a column letter `a`..`h` then a row `1`..`8`.
//!   Square index `8 * (row - 1) + column`, counting columns from a = 0
//!   (a1 = 0, h1 = 7, a2 = 8, h8 = 63), is also the character's place in
//!   an `.obf` board string. A pass
//!   is written `pass`; `PS`/`ps` are accepted when parsing, and parsing is
//!   case-insensitive.
//! * A position ([`Othello::parse_position`](pns_core::Notation::parse_position))
//!   is one of
//!   - Edax's `.obf` form: 64 board characters (`X`/`x`/`*` black, `O`/`o`
//!     white, `-`/`.` empty), blanks, then the side to move `X` or `O`, so
//!     `"--XXXXX--OOOXX-O... X"`;
//!   - a move list played from the start, such as `f5d6c3d3c4` or
//!     `F5 D6 C3`, where a forced pass may be written or left out;
//!   - the empty string or `start`: the start position.
//!
//!   Anything after a `;` is ignored, so that whole lines of an `.obf`
//!   file (which list scored moves there) parse.
//!
//! # Search hooks
//!
//! `known_outcome` solves positions with at most four empty squares
//! exactly; `search_moves` orders moves by square class (corners, edges,
//! inner squares, then the squares next to corners); `heuristic` is the
//! two-sided mobility estimate of [`Othello::mobility_heuristic`]. The
//! measurements behind these choices are in the source (`hooks.rs`).

mod board;
mod hooks;
mod notation;
mod random;

use std::fmt;

use pns_core::prelude::*;
use pns_core::rng::splitmix64;
use pns_core::{GameError, GoalContext, Outcome, Rng, Side};

pub use random::random_endgame;

/// A move: a square 0..=63 (see the module documentation for the
/// numbering) or the pass, 64. The order (squares a1..h8, then the pass)
/// gives certificates their canonical move order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OthelloMove(u8);

impl OthelloMove {
    /// The pass, legal only when the side to move has no disc to place.
    pub const PASS: OthelloMove = OthelloMove(64);

    /// Placing a disc on square `sq` (0..=63).
    ///
    /// # Panics
    /// When `sq > 63`.
    pub fn at(sq: u8) -> OthelloMove {
        assert!(sq < 64, "othello square index {sq} out of range 0..=63");
        OthelloMove(sq)
    }

    /// Whether this is the pass.
    pub fn is_pass(self) -> bool {
        self.0 == 64
    }

    /// The square of a placement, `None` for the pass.
    pub fn square(self) -> Option<u8> {
        (self.0 < 64).then_some(self.0)
    }

    /// Reads `a1`..`h8`, `pass`, `ps` (any case, surrounding blanks
    /// allowed). Syntax only: [`Notation::parse_move`] also checks legality.
    pub fn from_name(s: &str) -> Option<OthelloMove> {
        notation::parse_move_name(s.trim())
    }
}

impl fmt::Display for OthelloMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.square() {
            Some(sq) => f.write_str(&notation::square_name(sq)),
            None => f.write_str("pass"),
        }
    }
}

impl fmt::Debug for OthelloMove {
    // The square name is far easier to read in test failures and dumped
    // certificates than the raw index.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// An Othello position: the discs of the side to move, the discs of the
/// other side, and who is to move.
///
/// Keeping the boards relative to the mover makes move generation and
/// playing a move side-independent; `side` says which colour `me` is.
/// Since that mapping is a bijection with (black, white, side), the derived
/// `Eq`/`Hash` compare exactly the position.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Othello {
    me: u64,
    opp: u64,
    side: Side,
}

/// Start-position discs: black on d5 (35) and e4 (28), white on d4 (27)
/// and e5 (36).
const START_BLACK: u64 = (1 << 35) | (1 << 28);
const START_WHITE: u64 = (1 << 27) | (1 << 36);

impl Default for Othello {
    fn default() -> Self {
        Othello::start()
    }
}

impl Othello {
    /// The start position, black to move.
    pub fn start() -> Othello {
        Othello {
            me: START_BLACK,
            opp: START_WHITE,
            side: Side::First,
        }
    }

    /// A position from bitboards (bit `s` = square `s`, see the module
    /// documentation). Any disc pattern is accepted, reachable or not, so
    /// that composed problems can be studied; overlapping discs are an
    /// error.
    pub fn from_discs(black: u64, white: u64, to_move: Side) -> Result<Othello, GameError> {
        if black & white != 0 {
            return Err(GameError::new(format!(
                "othello: black and white discs overlap on {}",
                notation::square_list(black & white)
            )));
        }
        Ok(match to_move {
            Side::First => Othello {
                me: black,
                opp: white,
                side: to_move,
            },
            Side::Second => Othello {
                me: white,
                opp: black,
                side: to_move,
            },
        })
    }

    /// Black's discs as a bitboard.
    pub fn black(&self) -> u64 {
        match self.side {
            Side::First => self.me,
            Side::Second => self.opp,
        }
    }

    /// White's discs as a bitboard.
    pub fn white(&self) -> u64 {
        match self.side {
            Side::First => self.opp,
            Side::Second => self.me,
        }
    }

    /// The side to move's discs as a bitboard.
    pub fn mover_discs(&self) -> u64 {
        self.me
    }

    /// The other side's discs as a bitboard.
    pub fn opponent_discs(&self) -> u64 {
        self.opp
    }

    /// (black discs, white discs).
    pub fn disc_counts(&self) -> (u32, u32) {
        (self.black().count_ones(), self.white().count_ones())
    }

    /// The number of empty squares.
    pub fn empties(&self) -> u32 {
        64 - (self.me | self.opp).count_ones()
    }

    /// The side to move's discs minus the other side's (the final score
    /// once the game is over, ignoring the convention that gives empty
    /// squares to the winner, which never changes who won).
    pub fn disc_difference(&self) -> i32 {
        self.me.count_ones() as i32 - self.opp.count_ones() as i32
    }

    /// The squares where the side to move may place a disc, as a bitboard
    /// (0 when it must pass or the game is over).
    pub fn legal_squares(&self) -> u64 {
        board::legal_moves(self.me, self.opp)
    }

    /// The number of squares where the side to move may place a disc.
    pub fn mobility(&self) -> u32 {
        self.legal_squares().count_ones()
    }

    /// Whether neither player can place a disc (the game is over).
    pub fn is_over(&self) -> bool {
        board::legal_moves(self.me, self.opp) == 0 && board::legal_moves(self.opp, self.me) == 0
    }

    /// The discs a placement on `sq` would turn over (0 if illegal).
    pub fn flips(&self, sq: u8) -> u64 {
        if sq >= 64 || (self.me | self.opp) >> sq & 1 != 0 {
            return 0;
        }
        board::flips(self.me, self.opp, sq as u32)
    }

    /// The position in Edax's `.obf` form: 64 board characters then `" X"`
    /// or `" O"` for the side to move.
    pub fn to_obf(&self) -> String {
        notation::to_obf(self)
    }

    /// Counts the leaves of the game tree `depth` plies deep: the
    /// positions reached after `depth` plies, where a forced pass is a ply,
    /// plus the final positions of games that end sooner. This is the
    /// convention of the published Othello perft counts (4, 12, 56, 244,
    /// 1396, 8200, 55092, 390216, 3005288, 24571284, ...); depth 10 is the
    /// first depth where it differs from the other conventions (not
    /// counting passes as plies, or not counting early-ended games). The
    /// last ply is counted in bulk with a popcount.
    pub fn perft(&self, depth: u32) -> u64 {
        perft(self.me, self.opp, depth)
    }

    /// [`random_endgame`] as an associated function.
    pub fn random_endgame(rng: &mut Rng, moves: usize) -> Othello {
        random::random_endgame(rng, moves)
    }

    /// Places a disc on `sq`, which must be a legal placement.
    #[inline]
    fn place(&mut self, sq: u32) {
        let f = board::flips(self.me, self.opp, sq);
        debug_assert!(
            f != 0 && (self.me | self.opp) >> sq & 1 == 0,
            "illegal othello move {} in {}",
            OthelloMove(sq as u8),
            self.to_obf()
        );
        let me = self.me | f | (1u64 << sq);
        self.me = self.opp & !f;
        self.opp = me;
        self.side = self.side.opponent();
    }

    /// Hands the move to the other side without placing a disc.
    #[inline]
    fn pass(&mut self) {
        std::mem::swap(&mut self.me, &mut self.opp);
        self.side = self.side.opponent();
    }

    /// The result for the side to move of a finished game, from the discs.
    #[inline]
    fn final_outcome(&self) -> Outcome {
        outcome_of_difference(self.disc_difference())
    }
}

/// Win/draw/loss from a disc difference seen by the same side.
#[inline]
fn outcome_of_difference(diff: i32) -> Outcome {
    match diff.cmp(&0) {
        std::cmp::Ordering::Greater => Outcome::Win,
        std::cmp::Ordering::Equal => Outcome::Draw,
        std::cmp::Ordering::Less => Outcome::Loss,
    }
}

/// Perft on raw boards (see [`Othello::perft`]).
fn perft(me: u64, opp: u64, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board::legal_moves(me, opp);
    if moves == 0 {
        if board::legal_moves(opp, me) == 0 {
            // The game ended early: its final position is one leaf.
            return 1;
        }
        // A forced pass is a ply of its own.
        return perft(opp, me, depth - 1);
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    board::Squares(moves)
        .map(|sq| {
            let f = board::flips(me, opp, sq);
            perft(opp & !f, me | f | (1u64 << sq), depth - 1)
        })
        .sum()
}

impl Rules for Othello {
    type Move = OthelloMove;

    const NAME: &'static str = "othello";

    const HAS_DRAWS: bool = true;

    #[inline]
    fn side_to_move(&self) -> Side {
        self.side
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.is_over().then(|| self.final_outcome())
    }

    #[inline]
    fn legal_moves(&self, out: &mut Vec<OthelloMove>) {
        let moves = self.legal_squares();
        if moves == 0 {
            out.push(OthelloMove::PASS);
        } else {
            out.extend(board::Squares(moves).map(|sq| OthelloMove(sq as u8)));
        }
    }

    #[inline]
    fn play(&mut self, m: OthelloMove) {
        if m.is_pass() {
            debug_assert!(self.legal_squares() == 0, "othello: pass while moves exist");
            self.pass();
        } else {
            self.place(u32::from(m.0));
        }
    }

    /// SplitMix64 (a bijective mixer) over white, then black, then the
    /// side to move, each entering before a full mixing round, so two
    /// positions collide only by chance (2^-64). Xoring the side into an
    /// input instead would make (black, white, X to move) and (black,
    /// white ^ c, O to move) collide for a fixed c; xoring it into the
    /// output would give the two sides' keys a fixed difference, which the
    /// goal salt that the search xors in could cancel.
    #[inline]
    fn key(&self) -> u64 {
        let side = match self.side {
            Side::First => 0,
            Side::Second => 1,
        };
        splitmix64(splitmix64(self.black() ^ splitmix64(self.white())) ^ side)
    }
}

impl Notation for Othello {
    fn parse_position(s: &str) -> Result<Self, GameError> {
        notation::parse_position(s)
    }

    fn parse_move(&self, s: &str) -> Result<OthelloMove, GameError> {
        notation::parse_legal_move(self, s)
    }

    fn format_move(&self, m: OthelloMove) -> String {
        m.to_string()
    }

    fn render(&self) -> String {
        notation::render(self)
    }
}

impl SearchHooks for Othello {
    #[inline]
    fn known_outcome(&self) -> Option<Outcome> {
        hooks::known_outcome(self)
    }

    #[inline]
    fn search_moves(&self, out: &mut Vec<OthelloMove>) {
        hooks::search_moves(self, out)
    }

    #[inline]
    fn heuristic(&self, ctx: GoalContext) -> (u64, u64) {
        hooks::heuristic(self, ctx)
    }
}

impl Shortcuts for Othello {}

impl Playout for Othello {
    fn playout(&self, rng: &mut Rng) -> Outcome {
        random::playout(self, rng)
    }
}
