//! Loading Go positions from SGF (`FF[4]`) with the `sgf-parse` crate.
//!
//! The convention of Go regression suites (GNU Go's, Fuego's): *load the
//! main line up to move N* plays moves 1 to N−1 of the main line, so the
//! position is the one in which move N is to be played; without N the
//! whole main line is played. Setup properties (`AB`, `AW`, `AE`, `PL`)
//! apply wherever they stand on the main line; a node with a move counts
//! as one move. Record moves are checked against the board (occupied
//! point, suicide) but not against a ko rule: a record is trusted to have
//! been legal under its own rules.
//!
//! The root node's markup is kept for the problems that use it: `SQ`
//! (squares) marks a region, `TR` (triangles) marks target stones (see
//! [`crate::oneeye`]).

use std::collections::HashSet;

use sgf_parse::go::{Move as SgfMove, Point as SgfPoint, Prop};
use sgf_parse::Color as SgfColor;

use crate::bits::Bits;
use crate::board::{Board, Color, Move};
use crate::game::{GoGame, KoRule};

/// A loaded record: the game (setup and moves played) and the root's
/// markup.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub game: GoGame,
    /// Points marked `SQ` in the root node.
    pub squares: Bits,
    /// Points marked `TR` in the root node.
    pub triangles: Bits,
    /// Moves on the main line in all.
    pub main_line_moves: usize,
}

/// Reads an SGF file and loads it (see [`load`]).
pub fn load_file(
    path: &std::path::Path,
    until: Option<usize>,
    rule: KoRule,
) -> Result<Loaded, String> {
    load(&read_text(path)?, until, rule)
}

/// The text of an SGF file. Old records are often Latin-1
/// (`CA[ISO8859_1]`): bytes that are not UTF-8 only occur in comments and
/// names, which are not read.
pub fn read_text(path: &std::path::Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Loads the first game of an SGF text: the setup, then the main line's
/// moves 1..N−1 when `until` is `Some(N)` (all of them when `None`). N
/// must be between 1 and the number of moves plus one.
pub fn load(text: &str, until: Option<usize>, rule: KoRule) -> Result<Loaded, String> {
    let trees = sgf_parse::go::parse(text).map_err(|e| format!("SGF: {e}"))?;
    let root = trees.first().ok_or("SGF: no game in the file")?;
    let size = match root.get_property("SZ") {
        Some(Prop::SZ((w, h))) if w == h => *w as usize,
        Some(Prop::SZ((w, h))) => return Err(format!("SGF: board {w}x{h} is not square")),
        _ => 19,
    };
    let mut board = Board::new(size).map_err(|e| format!("SGF: {e}"))?;
    // HA[0] and HA[1] (no handicap stones) are common in game records.
    let handicap = matches!(root.get_property("HA"), Some(Prop::HA(n)) if *n >= 2);
    if handicap && root.get_property("AB").is_none() {
        return Err("SGF: handicap without AB stones is not supported".into());
    }
    let point = |b: &Board, p: &SgfPoint| -> Result<usize, String> {
        b.point(p.x as usize, p.y as usize).ok_or_else(|| {
            format!(
                "SGF: point {}{} is off the board",
                (p.x + b'a') as char,
                (p.y + b'a') as char
            )
        })
    };
    let points = |b: &Board, s: &HashSet<SgfPoint>| -> Result<Bits, String> {
        let mut out = Bits::EMPTY;
        for p in s {
            out.set(point(b, p)?);
        }
        Ok(out)
    };
    let mut squares = Bits::EMPTY;
    let mut triangles = Bits::EMPTY;
    for prop in root.properties() {
        match prop {
            Prop::SQ(s) => squares = points(&board, s)?,
            Prop::TR(s) => triangles = points(&board, s)?,
            _ => {}
        }
    }
    let main_line_moves = root
        .main_variation()
        .filter(|n| n.get_move().is_some())
        .count();
    if let Some(n) = until {
        if n == 0 || n > main_line_moves + 1 {
            return Err(format!(
                "move number {n} is not between 1 and {} (the main line has {main_line_moves} moves)",
                main_line_moves + 1
            ));
        }
    }
    let limit = until.map_or(main_line_moves, |n| n - 1);
    board.set_to_move(Color::Black);
    let mut game = GoGame::new(board, rule);
    let mut played = 0;
    let mut to_move_set = false;
    for node in root.main_variation() {
        let has_move = node.get_move().is_some();
        if has_move && played == limit {
            break;
        }
        // Setup first, then the move (FF[4] forbids both in one node).
        for prop in node.properties() {
            let b = *game.board();
            match prop {
                Prop::AB(s) | Prop::AW(s) | Prop::AE(s) => {
                    let c = match prop {
                        Prop::AB(_) => Some(Color::Black),
                        Prop::AW(_) => Some(Color::White),
                        _ => None,
                    };
                    for p in s {
                        let q = point(&b, p)?;
                        game.board_mut().set(q, c);
                    }
                }
                Prop::PL(c) => {
                    game.board_mut().set_to_move(color(*c));
                    to_move_set = true;
                }
                _ => {}
            }
        }
        let mv = node.properties().find_map(|p| match p {
            Prop::B(m) => Some((Color::Black, *m)),
            Prop::W(m) => Some((Color::White, *m)),
            _ => None,
        });
        if let Some((c, m)) = mv {
            let b = *game.board();
            let m = match m {
                SgfMove::Pass => Move::Pass,
                // `tt` is the old pass on boards up to 19x19.
                SgfMove::Move(p) if p.x == 19 && p.y == 19 && size <= 19 => Move::Pass,
                SgfMove::Move(p) => Move::Play(point(&b, &p)? as u16),
            };
            game.play_record(c, m).map_err(|e| {
                format!(
                    "SGF: move {} ({} {}) is illegal: {e}",
                    played + 1,
                    c.letter(),
                    b.format_move(m)
                )
            })?;
            played += 1;
            to_move_set = false;
        }
    }
    // After the last move played, the other colour moves unless a PL says
    // otherwise; with no move and no PL, Black (or White with handicap).
    if played == 0 && !to_move_set && handicap {
        game.board_mut().set_to_move(Color::White);
    }
    // The position loaded is the start of the history.
    Ok(Loaded {
        game,
        squares,
        triangles,
        main_line_moves,
    })
}

fn color(c: SgfColor) -> Color {
    match c {
        SgfColor::Black => Color::Black,
        SgfColor::White => Color::White,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REC: &str = "(;FF[4]SZ[5]AB[aa]AW[ba]PL[W]SQ[cc][dd]TR[aa];W[ab];B[cc];W[]C[pass])";

    #[test]
    fn loads_up_to_move_n() {
        let l = load(REC, None, KoRule::Simple).unwrap();
        assert_eq!(l.main_line_moves, 3);
        assert_eq!(l.game.moves().len(), 3);
        // W[ab] captured the black corner stone.
        assert_eq!(l.game.board().color_at(0), None);
        assert_eq!(l.game.board().to_move(), Color::Black);
        assert_eq!(l.squares.count(), 2);
        assert!(l.triangles.get(0));
        let l = load(REC, Some(1), KoRule::Simple).unwrap();
        assert_eq!(l.game.moves().len(), 0);
        assert_eq!(l.game.board().to_move(), Color::White);
        assert_eq!(l.game.board().color_at(0), Some(Color::Black));
        let l = load(REC, Some(3), KoRule::Simple).unwrap();
        assert_eq!(l.game.moves().len(), 2);
        assert_eq!(l.game.board().to_move(), Color::White);
        assert!(load(REC, Some(5), KoRule::Simple).is_err());
        assert!(load(REC, Some(0), KoRule::Simple).is_err());
    }

    #[test]
    fn bad_records_are_errors() {
        for bad in [
            "",
            "(;SZ[3]AB[dd])",
            "(;SZ[3];B[aa];W[aa])",
            "(;SZ[30])",
            "(;SZ[5:7])",
            "not sgf",
        ] {
            assert!(load(bad, None, KoRule::Simple).is_err(), "{bad}");
        }
    }
}
