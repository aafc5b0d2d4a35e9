//! Reading and writing positions and moves (see the module documentation
//! of [`super`] for the notation).

use std::fmt;
use std::str::FromStr;

use pns_core::prelude::*;
use pns_core::{GameError, Side};

use super::{Othello, OthelloMove};

/// `a1`..`h8` for square indices 0..=63.
pub(crate) fn square_name(sq: u8) -> String {
    let col = (b'a' + sq % 8) as char;
    let row = (b'1' + sq / 8) as char;
    format!("{col}{row}")
}

/// The names of the squares of a bitboard, space-separated, a1 first.
pub(crate) fn square_list(bits: u64) -> String {
    super::board::Squares(bits)
        .map(|s| square_name(s as u8))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The colour names used in messages.
fn colour(side: Side) -> &'static str {
    match side {
        Side::First => "black",
        Side::Second => "white",
    }
}

/// A move name without blanks: `a1`..`h8`, `pass` or `ps`, any case.
pub(crate) fn parse_move_name(s: &str) -> Option<OthelloMove> {
    if s.eq_ignore_ascii_case("pass") || s.eq_ignore_ascii_case("ps") {
        return Some(OthelloMove::PASS);
    }
    match s.as_bytes() {
        &[c, r] => {
            let c = c.to_ascii_lowercase();
            if (b'a'..=b'h').contains(&c) && (b'1'..=b'8').contains(&r) {
                Some(OthelloMove((r - b'1') * 8 + (c - b'a')))
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Why `m` cannot be played in `g`, or `None` when it is legal.
fn illegality(g: &Othello, m: OthelloMove) -> Option<String> {
    let who = colour(g.side);
    if g.is_over() {
        return Some("the game is already over".to_string());
    }
    let legal = g.legal_squares();
    match m.square() {
        None if legal != 0 => Some(format!(
            "{who} has moves ({}), so cannot pass",
            square_list(legal)
        )),
        None => None,
        Some(sq) if legal >> sq & 1 == 0 => Some(if legal == 0 {
            format!("{who} has no move and must pass")
        } else {
            format!("not legal for {who} (legal: {})", square_list(legal))
        }),
        Some(_) => None,
    }
}

/// [`Notation::parse_move`]: syntax and legality.
pub(crate) fn parse_legal_move(g: &Othello, s: &str) -> Result<OthelloMove, GameError> {
    let t = s.trim();
    let m = parse_move_name(t).ok_or_else(|| {
        GameError::new(format!(
            "othello: bad move {t:?} (expected a square a1..h8 or pass)"
        ))
    })?;
    match illegality(g, m) {
        Some(why) => Err(GameError::new(format!("othello: illegal move {m}: {why}"))),
        None => Ok(m),
    }
}

/// [`Notation::parse_position`].
pub(crate) fn parse_position(s: &str) -> Result<Othello, GameError> {
    // Text after ';' is a comment (in .obf files, the scored moves).
    let body = s.split(';').next().unwrap_or("").trim();
    if body.is_empty() {
        if s.trim().is_empty() {
            return Ok(Othello::start());
        }
        return Err(GameError::new(
            "othello: no position before the ';' comment",
        ));
    }
    if body.eq_ignore_ascii_case("start") {
        return Ok(Othello::start());
    }
    match body.as_bytes()[0] {
        b'X' | b'x' | b'O' | b'o' | b'-' | b'.' | b'*' => parse_obf(body),
        _ => parse_move_list(body),
    }
}

/// Edax's board form: 64 square characters and the side to move; blanks
/// anywhere are ignored, so an 8-line picture of the board also works.
fn parse_obf(body: &str) -> Result<Othello, GameError> {
    let chars: Vec<char> = body.chars().filter(|c| !c.is_whitespace()).collect();
    if chars.len() != 65 {
        return Err(GameError::new(format!(
            "othello: a board is 64 squares (X, O or -) then the side to move (X or O); \
             found {} characters",
            chars.len()
        )));
    }
    let (mut black, mut white) = (0u64, 0u64);
    for (i, &c) in chars[..64].iter().enumerate() {
        match c {
            'X' | 'x' | '*' => black |= 1 << i,
            'O' | 'o' => white |= 1 << i,
            '-' | '.' => {}
            _ => {
                return Err(GameError::new(format!(
                    "othello: bad board character {c:?} for square {} (character {}); \
                     use X, O or -",
                    square_name(i as u8),
                    i + 1
                )))
            }
        }
    }
    let side = match chars[64] {
        'X' | 'x' | '*' => Side::First,
        'O' | 'o' => Side::Second,
        c => {
            return Err(GameError::new(format!(
                "othello: side to move must be X or O, found {c:?}"
            )))
        }
    };
    Othello::from_discs(black, white, side)
}

/// A move list from the start. A square given when the side to move must
/// pass is taken as pass-then-that-square, so transcripts that leave
/// passes out also parse.
fn parse_move_list(body: &str) -> Result<Othello, GameError> {
    let mut g = Othello::start();
    let bytes = body.as_bytes();
    let mut i = 0;
    let mut index = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() || bytes[i] == b',' {
            i += 1;
            continue;
        }
        index += 1;
        let rest = &body[i..];
        let len = if rest
            .get(..4)
            .is_some_and(|t| t.eq_ignore_ascii_case("pass"))
        {
            4
        } else {
            2.min(rest.len())
        };
        let token = rest.get(..len).unwrap_or(rest);
        let m = parse_move_name(token).ok_or_else(|| {
            let shown: String = rest
                .chars()
                .take_while(|c| !c.is_whitespace() && *c != ',')
                .take(8)
                .collect();
            GameError::new(format!(
                "othello: malformed move {shown:?} at move {index} of the list \
                 (expected a square a1..h8 or pass)"
            ))
        })?;
        i += len;
        if let Some(sq) = m.square() {
            // Fill in a pass the list left out.
            let mut passed = g;
            passed.pass();
            if g.legal_squares() == 0 && passed.legal_squares() >> sq & 1 != 0 {
                g = passed;
            }
        }
        if let Some(why) = illegality(&g, m) {
            return Err(GameError::new(format!(
                "othello: illegal move {m} at move {index} of the list: {why}"
            )));
        }
        g.play(m);
    }
    Ok(g)
}

/// See [`Othello::to_obf`].
pub(crate) fn to_obf(g: &Othello) -> String {
    let (black, white) = (g.black(), g.white());
    let mut s = String::with_capacity(66);
    for sq in 0..64 {
        s.push(if black >> sq & 1 != 0 {
            'X'
        } else if white >> sq & 1 != 0 {
            'O'
        } else {
            '-'
        });
    }
    s.push_str(match g.side {
        Side::First => " X",
        Side::Second => " O",
    });
    s
}

/// An 8x8 picture, row 1 at the top as in the `.obf` order, with legal
/// moves marked `*`, then a status line.
pub(crate) fn render(g: &Othello) -> String {
    let (black, white) = (g.black(), g.white());
    let legal = g.legal_squares();
    let mut s = String::from("  a b c d e f g h\n");
    for row in 0..8 {
        s.push(char::from(b'1' + row));
        for col in 0..8 {
            let sq = row * 8 + col;
            s.push(' ');
            s.push(if black >> sq & 1 != 0 {
                'X'
            } else if white >> sq & 1 != 0 {
                'O'
            } else if legal >> sq & 1 != 0 {
                '*'
            } else {
                '-'
            });
        }
        s.push('\n');
    }
    let (b, w) = g.disc_counts();
    let mark = if g.side == Side::First { 'X' } else { 'O' };
    let status = if g.is_over() {
        "game over".to_string()
    } else if legal == 0 {
        format!("{} ({mark}) to move, must pass", colour(g.side))
    } else {
        format!("{} ({mark}) to move", colour(g.side))
    };
    s.push_str(&format!("{status}; X {b}, O {w}, {} empty\n", g.empties()));
    s
}

impl fmt::Display for Othello {
    /// The `.obf` form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&to_obf(self))
    }
}

impl fmt::Debug for Othello {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Othello({})", to_obf(self))
    }
}

impl FromStr for Othello {
    type Err = GameError;

    /// Same as [`Notation::parse_position`].
    fn from_str(s: &str) -> Result<Othello, GameError> {
        parse_position(s)
    }
}
