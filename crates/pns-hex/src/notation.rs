//! Text forms: cell names, the position notation and the ASCII picture.
//!
//! Position notation: the board size, then the moves from the empty board,
//! whitespace separated, Black first and alternating: `6 c3 d4` is the 6x6
//! board after Black c3 and White d4; a bare `6` is the empty board. A
//! rectangular board is written `WxH` (columns x rows, Benzene's
//! `boardsize W H`), e.g. `6x7 a1`. A move may carry its colour, `b:c3` or
//! `w:d4`, which must then agree with the alternation. Cells are a column
//! letter (`a` = column 1, either case) and a row number, e.g. `c3`.

use std::fmt;

use pns_core::{GameError, Side};

use super::geometry::{MAX_SIZE, MIN_SIZE};
use super::position::{colour_name, Cell, Hex, BLACK, WHITE};

impl Hex {
    /// The name of a cell of this board, e.g. `c3` (column letter, row
    /// number).
    pub fn format_cell(&self, c: Cell) -> String {
        let (x, y) = self.coords(c);
        format!("{}{}", (b'a' + x as u8) as char, y + 1)
    }

    /// Parses a cell name (`c3`, or `C3`) of this board. Checks the syntax
    /// and that the cell is on the board, not whether it is empty.
    pub fn parse_cell(&self, tok: &str) -> Result<Cell, GameError> {
        let malformed = || {
            GameError::new(format!(
                "hex: malformed cell '{tok}' (expected a column letter and a row number, e.g. c3)"
            ))
        };
        let mut chars = tok.chars();
        let letter = chars.next().ok_or_else(malformed)?;
        let digits = chars.as_str();
        if !letter.is_ascii_alphabetic()
            || digits.is_empty()
            || digits.len() > 2
            || digits.starts_with('0')
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(malformed());
        }
        let x = (letter.to_ascii_lowercase() as u8 - b'a') as usize;
        let y = digits.parse::<usize>().map_err(|_| malformed())? - 1;
        self.cell(x, y).ok_or_else(|| {
            GameError::new(format!(
                "hex: cell '{tok}' is off the {} board (columns a-{}, rows 1-{})",
                self.shape_name(),
                (b'a' + self.geom.width - 1) as char,
                self.geom.height
            ))
        })
    }

    /// The position notation of this position (see the module
    /// documentation); [`pns_core::Notation::parse_position`] reads it back.
    pub fn notation(&self) -> String {
        self.to_string()
    }
}

/// Parses a board-size token: `6` (6x6) or `6x7` (6 columns, 7 rows).
pub(crate) fn parse_shape(tok: &str) -> Result<(usize, usize), GameError> {
    let num = |s: &str| -> Result<usize, GameError> {
        if s.is_empty() || s.len() > 3 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(GameError::new(format!(
                "hex: malformed board size '{tok}' (expected e.g. 6, or 6x7 for 6 columns and 7 rows)"
            )));
        }
        let n: usize = s.parse().expect("at most three digits");
        if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
            return Err(GameError::new(format!(
                "hex: board size '{tok}' is out of range (each side must be {MIN_SIZE}..={MAX_SIZE})"
            )));
        }
        Ok(n)
    };
    match tok.split_once(['x', 'X']) {
        Some((w, h)) => Ok((num(w)?, num(h)?)),
        None => {
            let n = num(tok)?;
            Ok((n, n))
        }
    }
}

/// Parses `b`, `black`, `w`, `white` (any case).
pub fn parse_colour(tok: &str) -> Option<Side> {
    match tok.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(BLACK),
        "w" | "white" => Some(WHITE),
        _ => None,
    }
}

/// Parses the position notation (see the module documentation).
pub(crate) fn parse_position(s: &str) -> Result<Hex, GameError> {
    let mut toks = s.split_whitespace();
    let size = toks.next().ok_or_else(|| {
        GameError::new("hex: empty position (expected a board size and moves, e.g. '6 c3 d4')")
    })?;
    let (w, h) = parse_shape(size)?;
    let mut hex = Hex::with_dims(w, h)?;
    for tok in toks {
        let (colour, cell) = match tok.split_once(':') {
            Some((c, cell)) => {
                let side = parse_colour(c).ok_or_else(|| {
                    GameError::new(format!(
                        "hex: bad colour in move '{tok}' (expected b: or w:, e.g. b:c3)"
                    ))
                })?;
                (Some(side), cell)
            }
            None => (None, tok),
        };
        let c = hex.parse_cell(cell)?;
        hex.check_legal(c)?;
        if let Some(side) = colour {
            if side != hex.to_move() {
                return Err(GameError::new(format!(
                    "hex: move '{tok}' is out of turn: {} is to move (moves alternate, Black first)",
                    colour_name(hex.to_move())
                )));
            }
        }
        hex.place(c);
    }
    Ok(hex)
}

impl fmt::Display for Hex {
    /// The position notation, e.g. `6 c3 d4` (see the module documentation).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (w, h) = (self.geom.width, self.geom.height);
        if w == h {
            write!(f, "{w}")?;
        } else {
            write!(f, "{w}x{h}")?;
        }
        if !self.is_regular() {
            // Made by concessions: no move list reaches it, so list the
            // stones (a display form only; `parse_position` rejects it).
            for (side, stones) in [(BLACK, self.black), (WHITE, self.white)] {
                write!(f, " {}:", colour_name(side).to_ascii_lowercase())?;
                let cells: Vec<String> =
                    self.cells_of(stones).map(|c| self.format_cell(c)).collect();
                f.write_str(&cells.join(","))?;
            }
            return write!(
                f,
                " ({} to move, after concessions)",
                colour_name(self.turn).to_ascii_lowercase()
            );
        }
        for c in self.moves() {
            write!(f, " {}", self.format_cell(c))?;
        }
        Ok(())
    }
}

/// The rhombus picture: each row is shifted half a cell right of the one
/// above, so a cell's six neighbours are the ones that touch it on screen.
/// `x` is Black, `o` White, `.` empty.
pub(crate) fn render(hex: &Hex) -> String {
    let (w, h) = (hex.width(), hex.height());
    let letters: Vec<String> = (0..w)
        .map(|x| ((b'a' + x as u8) as char).to_string())
        .collect();
    let letters = letters.join(" ");
    let mut s = format!("   {letters}\n");
    for y in 0..h {
        s.push_str(&" ".repeat(y));
        s.push_str(&format!("{:>2} ", y + 1));
        for x in 0..w {
            let c = hex.cell(x, y).expect("on board");
            s.push(match hex.stone(c) {
                Some(Side::First) => 'x',
                Some(Side::Second) => 'o',
                None => '.',
            });
            s.push(' ');
        }
        s.push_str(&format!("{}\n", y + 1));
    }
    s.push_str(&" ".repeat(h + 3));
    s.push_str(&letters);
    s.push('\n');
    let last_col = (b'a' + w as u8 - 1) as char;
    s.push_str(&format!(
        "x = Black (joins rows 1-{h}), o = White (joins columns a-{last_col}); "
    ));
    match hex.winner() {
        Some(side) => s.push_str(&format!("{} has won\n", colour_name(side))),
        None => s.push_str(&format!("{} to move\n", colour_name(hex.to_move()))),
    }
    s
}
