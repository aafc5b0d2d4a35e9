//! Tsume-shogi as a game of the engine: the attacker (the side to move in
//! the problem) may play checks only, the defender every legal move (all
//! evasions, since it is always in check), and a repetition by perpetual
//! check is a loss for the attacker (the GHI paper's first-player-loss
//! rule, §1.2). The attacker wins when the defender has no legal move
//! (a mate; a mate by a pawn drop is not a legal move, so never a win);
//! it loses when it has no check. There are no draws.
//!
//! The defender's pieces in hand are all the pieces neither on the board
//! nor in the attacker's hand, as tsume problems are written, when the
//! SFEN gives the defender no piece in hand (`b S`, `b -`). When the SFEN
//! writes the defender's hand out (`b 2r2b4g...`), it is taken as written:
//! test files such as antma/tsumeshogi-check's write the rest there, and
//! some leave a piece out of play on purpose (its nifu problem has a
//! rook in neither hand; giving it to the defender would turn its mate in
//! one into a mate in seven).

use std::fmt;

use pns_core::game::{GoalContext, Repetition};
use pns_core::prelude::*;
use pns_core::{GameError, Outcome, Rng, SharedProbe, Side, Status, Table};

use crate::position::{
    kind, piece_color, piece_kind, Color, Move, Position, HAND_KINDS, NONE, TOTAL,
};

/// A tsume-shogi position: a shogi position and the attacker.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Tsume {
    pos: Position,
    attacker: Color,
    /// Whether the search shares solved positions by proof and disproof
    /// pieces ([`crate::hands`]; on by default).
    hands: bool,
}

impl fmt::Debug for Tsume {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.pos.to_sfen())
    }
}

impl Tsume {
    /// A problem: `attacker` mates `pos`'s other side; an empty defender's
    /// hand becomes the rest of the set (see the module documentation).
    /// Errors when the defender has no king
    /// or the pieces exceed the set.
    pub fn new(mut pos: Position, attacker: Color) -> Result<Tsume, GameError> {
        let defender = attacker.flip();
        if pos.king(defender).is_none() {
            return Err(GameError::new(format!(
                "no {} king to mate in {}",
                if defender == Color::Black {
                    "black"
                } else {
                    "white"
                },
                pos.to_sfen()
            )));
        }
        let dh = *pos.hand(defender);
        if dh.iter().all(|&n| n == 0) {
            let mut rest = [0u8; HAND_KINDS];
            let counts = pos.piece_counts();
            for k in 0..HAND_KINDS {
                rest[k] = TOTAL[k] - counts[k];
            }
            pos.set_hand(defender, rest);
        }
        Ok(Tsume {
            pos,
            attacker,
            hands: true,
        })
    }

    /// Reads `SFEN [moves M1 M2 ...]` (a leading `sfen` is allowed, and
    /// `startpos` for the start position): the attacker is the side to
    /// move after the moves.
    pub fn parse(s: &str) -> Result<Tsume, GameError> {
        let s = s.trim();
        let s = s.strip_prefix("sfen ").unwrap_or(s).trim();
        let (head, moves) = match s.split_once(" moves") {
            Some((h, m)) => (h.trim(), m.split_whitespace().collect::<Vec<_>>()),
            None => (s, Vec::new()),
        };
        let pos = if head == "startpos" {
            Position::startpos()
        } else {
            Position::from_sfen(head)?
        };
        let attacker = if moves.len() % 2 == 0 {
            pos.side()
        } else {
            pos.side().flip()
        };
        let mut t = Tsume::new(pos, attacker)?;
        for (i, m) in moves.iter().enumerate() {
            let mv = t
                .pos
                .parse_usi_move(m)
                .map_err(|e| GameError::new(format!("move {} ('{m}'): {}", i + 1, e.0)))?;
            t.pos.play(mv);
        }
        if t.pos.in_check(t.attacker.flip()) {
            return Err(GameError::new(
                "the defender is in check with the attacker to move",
            ));
        }
        Ok(t)
    }

    /// Switches proof and disproof pieces ([`crate::hands`]) on or off
    /// (for comparisons; the answers are the same).
    pub fn set_hands(&mut self, on: bool) {
        self.hands = on;
    }

    #[inline]
    pub fn position(&self) -> &Position {
        &self.pos
    }
    #[inline]
    pub fn attacker(&self) -> Color {
        self.attacker
    }
    #[inline]
    pub fn attacker_to_move(&self) -> bool {
        self.pos.side() == self.attacker
    }
    /// The defender's king square.
    #[inline]
    pub fn defender_king(&self) -> u8 {
        self.pos.king(self.attacker.flip()).unwrap_or(NONE)
    }

    /// Whether the defender's move `m` (here, the defender to move) is a
    /// *futile interposition*: a drop between a sliding checker and the
    /// king that the checker simply takes, after which the defender has
    /// no board move left (only more such drops). Such drops only lengthen
    /// the mate by two plies without changing it, so the tsume answer does
    /// not count them (they are still searched in the proof).
    pub fn is_futile_drop(&self, m: Move) -> bool {
        if !m.is_drop() || self.attacker_to_move() {
            return false;
        }
        let ks = self.defender_king();
        let (ch, n) = self.pos.checkers(ks, self.attacker);
        if n != 1 {
            return false;
        }
        let checker = ch[0];
        let ck = piece_kind(self.pos.piece_at(checker));
        if !matches!(
            ck,
            kind::LANCE | kind::BISHOP | kind::ROOK | kind::HORSE | kind::DRAGON
        ) {
            return false;
        }
        let mut after = self.pos.clone();
        after.play(m);
        // The checker takes the dropped piece (unpromoted where it may).
        let mut takes = Vec::new();
        for promote in [false, true] {
            let t = Move::board(checker, m.to(), promote);
            let mut v = Vec::with_capacity(64);
            after.board_moves(&mut v);
            if v.contains(&t) && after.leaves_king_safe(t) {
                takes.push(t);
            }
        }
        let Some(&take) = takes.first() else {
            return false;
        };
        let mut next = after;
        next.play(take);
        let mut v = Vec::with_capacity(64);
        next.board_moves(&mut v);
        !v.iter().any(|&r| next.leaves_king_safe(r))
    }

    /// Moves of the side to move by the tsume rules, unordered.
    #[inline]
    fn moves(&self, out: &mut Vec<Move>) {
        if self.attacker_to_move() {
            self.pos.legal_checks(out);
        } else {
            self.pos.legal_moves(out);
        }
    }

    /// A picture of the board (Black at the bottom) and both hands.
    pub fn picture(&self) -> String {
        let mut s = String::from("  9  8  7  6  5  4  3  2  1\n");
        for r in 0..9u8 {
            for c in 0..9u8 {
                let p = self.pos.piece_at(r * 9 + c);
                if p == 0 {
                    s.push_str("  .");
                } else {
                    let k = piece_kind(p);
                    let l = b"PLNSGBRK"[kind::unpromoted(k) as usize] as char;
                    let l = if piece_color(p) == Color::Black {
                        l
                    } else {
                        l.to_ascii_lowercase()
                    };
                    s.push_str(if k >= 8 { " +" } else { "  " });
                    s.push(l);
                }
            }
            s.push_str(&format!("  {}\n", (b'a' + r) as char));
        }
        for c in [Color::Black, Color::White] {
            let h = self.pos.hand(c);
            let items: Vec<String> = (0..HAND_KINDS)
                .rev()
                .filter(|&k| h[k] > 0)
                .map(|k| format!("{}{}", b"PLNSGBR"[k] as char, h[k]))
                .collect();
            s.push_str(&format!(
                "{} hand: {}\n",
                if c == Color::Black { "black" } else { "white" },
                if items.is_empty() {
                    "-".to_string()
                } else {
                    items.join(" ")
                }
            ));
        }
        s
    }
}

impl Rules for Tsume {
    type Move = Move;

    const NAME: &'static str = "tsume";
    const HAS_DRAWS: bool = false;

    #[inline]
    fn side_to_move(&self) -> Side {
        if self.attacker_to_move() {
            Side::First
        } else {
            Side::Second
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        let mut v = Vec::with_capacity(64);
        self.moves(&mut v);
        // No check for the attacker, or no reply for the defender (mate):
        // the side to move has lost.
        v.is_empty().then_some(Outcome::Loss)
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.moves(out)
    }

    #[inline]
    fn play(&mut self, m: Move) {
        self.pos.play(m)
    }

    #[inline]
    fn key(&self) -> u64 {
        self.pos.key()
    }

    #[inline]
    fn repetition(&self) -> Repetition {
        Repetition::FirstPlayerLoss
    }
}

impl Notation for Tsume {
    fn parse_position(s: &str) -> Result<Self, GameError> {
        Tsume::parse(s)
    }

    fn parse_move(&self, s: &str) -> Result<Move, GameError> {
        let m =
            Move::parse_usi(s).ok_or_else(|| GameError::new(format!("'{s}' is not a USI move")))?;
        let mut v = Vec::with_capacity(64);
        self.moves(&mut v);
        if v.contains(&m) {
            Ok(m)
        } else if self.attacker_to_move() && self.pos.is_legal(m) {
            Err(GameError::new(format!("{s} is not a check")))
        } else {
            Err(GameError::new(format!("{s} is not legal here")))
        }
    }

    fn format_move(&self, m: Move) -> String {
        m.usi()
    }

    fn render(&self) -> String {
        self.picture()
    }
}

/// Whether `m` is the same board move as the promotion `p`, unpromoted.
#[inline]
fn is_unpromoted_twin(p: Move, m: Move) -> bool {
    p.promotes()
        && !m.promotes()
        && !p.is_drop()
        && !m.is_drop()
        && p.from() == m.from()
        && p.to() == m.to()
}

/// Move ordering scores (higher first).
fn attacker_score(t: &Tsume, m: Move) -> i32 {
    let ks = t.defender_king();
    let to = m.to();
    let dist = {
        let (a, b) = (to % 9, ks % 9);
        let (c, d) = (to / 9, ks / 9);
        (a as i32 - b as i32).abs().max((c as i32 - d as i32).abs())
    };
    let mut s = -dist * 4;
    if m.is_drop() {
        s += 2;
    } else {
        if t.pos.piece_at(to) != 0 {
            s += 10;
        }
        if m.promotes() {
            s += 6;
        }
    }
    s
}

impl SearchHooks for Tsume {
    /// Unknown until generated: an empty move list is the loss of the side
    /// to move (no check, or mate), which the engine reads as such.
    #[inline]
    fn known_outcome(&self) -> Option<Outcome> {
        None
    }

    fn search_moves(&self, out: &mut Vec<Move>) {
        let start = out.len();
        self.moves(out);
        // Stable sorts by cheap keys: `sort_by_key` needs no key buffer
        // (an allocation per node with `sort_by_cached_key`), and both
        // leave the moves in the same order.
        if self.attacker_to_move() {
            out[start..].sort_by_key(|&m| -attacker_score(self, m));
            if self.hands {
                // Each non-promotion right after its promotion, which
                // scores higher: it waits for it (`delays` below).
                let v = &mut out[start..];
                for i in 0..v.len() {
                    let m = v[i];
                    if m.promotes() {
                        let twin = (i + 1..v.len()).find(|&j| is_unpromoted_twin(m, v[j]));
                        if let Some(j) = twin {
                            v[i + 1..=j].rotate_right(1);
                        }
                    }
                }
            }
        } else {
            // Captures and king moves first, drops (interpositions) last,
            // those on one square together (delayed behind each other:
            // `delays` below).
            let ks = self.defender_king();
            out[start..].sort_by_key(|&m| {
                if m.is_drop() {
                    512 + m.to() as u16
                } else if m.from() == ks || self.pos.piece_at(m.to()) != 0 {
                    0
                } else {
                    1
                }
            });
        }
    }

    /// With proof pieces, the defender's drops on one square wait for one
    /// another (KomoringHeights' delayed moves): the attacker's answer to
    /// the first usually answers the rest (it takes the piece, and the
    /// proof pieces carry the proof across), so until the first is proven
    /// the group counts as one move in the node's proof number, as the
    /// heuristic already counts it. Likewise the attacker's non-promotion
    /// of a pawn, bishop or rook waits for its promotion, which gives up
    /// nothing but the rare case where promoting is worse (a pawn-drop
    /// mate): it is searched once the promotion is disproven.
    const DELAYS: bool = true;

    #[inline]
    fn delays(&self, prev: Move, m: Move) -> bool {
        if !self.hands {
            false
        } else if self.attacker_to_move() {
            is_unpromoted_twin(prev, m)
                && matches!(
                    piece_kind(self.pos.piece_at(m.from())),
                    kind::PAWN | kind::BISHOP | kind::ROOK
                )
        } else {
            prev.is_drop() && m.is_drop() && prev.to() == m.to()
        }
    }

    /// df-pn+ initial numbers (thesis §2.2.4): a node where the defender
    /// is to move starts with pn = its number of evasions (each needs a
    /// proof; with proof pieces, the drops on one square count once), one
    /// where the attacker is to move with dn = its number of checks (each
    /// needs a disproof).
    fn heuristic(&self, ctx: GoalContext) -> (u64, u64) {
        self.heuristic_or_no_move(ctx).unwrap_or((1, 1))
    }

    /// The counts above, and `None` for a count of zero: the attacker has
    /// no check, or the defender is mated. Either is then known when the
    /// node is first generated, not one visit later.
    fn heuristic_or_no_move(&self, ctx: GoalContext) -> Option<(u64, u64)> {
        if ctx.attacker != Side::First {
            return Some((1, 1));
        }
        // Counted, not listed: the same numbers as the move lists' lengths
        // (tests/counting.rs), at a fraction of the cost, since every new
        // child of a node is counted and most are never searched.
        if self.attacker_to_move() {
            match self.pos.count_checks() {
                0 => None,
                n => Some((1, n)),
            }
        } else {
            // With proof pieces, the interpositions on one square mostly
            // share one proof (the attacker takes the piece; what it then
            // holds is rarely needed): they count once.
            match self.pos.count_evasions(self.hands) {
                0 => None,
                n => Some((n, 1)),
            }
        }
    }

    /// Proof and disproof pieces ([`crate::hands`]): solved positions are
    /// shared with every position of the same board whose attacker holds
    /// more (a proof) or fewer (a disproof) pieces.
    const SHARES_SOLVED: bool = true;

    #[inline]
    fn shared_probe(&self, space: u64, ctx: GoalContext) -> Option<SharedProbe> {
        if !self.hands || ctx.attacker != Side::First {
            return None;
        }
        Some(crate::hands::probe(self, space))
    }

    #[inline]
    fn shared_lookup(tt: &Table, probe: SharedProbe) -> Status {
        crate::hands::lookup(tt, probe)
    }

    fn share_solved(
        &self,
        tt: &Table,
        space: u64,
        ctx: GoalContext,
        status: Status,
        children: &[(Move, Status)],
        amount: u32,
    ) {
        if self.hands {
            crate::hands::share(self, tt, space, ctx, status, children, amount)
        }
    }
}

impl Shortcuts for Tsume {}

impl Playout for Tsume {
    /// Random checks and evasions, at most 256 plies; a line that does not
    /// end counts as the attacker's loss (it found no mate).
    fn playout(&self, rng: &mut Rng) -> Outcome {
        let me = self.side_to_move();
        let mut g = self.clone();
        let mut v = Vec::new();
        for _ in 0..256 {
            v.clear();
            g.moves(&mut v);
            if v.is_empty() {
                return if g.side_to_move() == me {
                    Outcome::Loss
                } else {
                    Outcome::Win
                };
            }
            let m = v[rng.below(v.len() as u64) as usize];
            g.play(m);
        }
        if me == Side::First {
            Outcome::Loss
        } else {
            Outcome::Win
        }
    }
}
