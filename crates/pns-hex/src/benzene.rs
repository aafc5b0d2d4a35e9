//! Readers for externally solved test data: Benzene's regression files and
//! the openings table in `shared/data/hex/`.

use pns_core::prelude::*;
use pns_core::{GameError, Side};

use super::notation::{parse_colour, parse_shape};
use super::position::{colour_name, Hex};

/// Reads a Benzene regression file (`.tst`, GTP commands with expected
/// answers) into (position, expected winner) pairs, in file order.
///
/// Understood lines:
/// * `boardsize W H` (or `boardsize N`): a new empty board, W columns and
///   H rows;
/// * `clear_board`; `play <b|w|black|white> <cell>`; `undo`;
/// * `[id] dfpn-solve-state [colour]` and `[id] dfs-solve-state [colour]`:
///   the current position is a test case; the colour, when given, is the
///   side to move and must be the one the alternation gives;
/// * `#? [black]` / `#? [white]`: the expected answer of the command just
///   before it, i.e. the winner (a colour, not "the side to move") of the
///   position of the preceding solve command;
/// * ignored: comments, blank lines, `dfpn-clear-tt`, `showboard` and any
///   `param_*` setting (solver tuning that does not change the answer).
///
/// Anything else is an error naming the line, rather than being skipped,
/// so that a file with other kinds of tests is not silently misread. Moves
/// must alternate Black, White, … from the empty board (as positions here
/// do) and must be legal.
pub fn read_benzene_tst(text: &str) -> Result<Vec<(Hex, Side)>, GameError> {
    let mut out = Vec::new();
    let mut board: Option<Hex> = None;
    let mut history: Vec<Hex> = Vec::new();
    // The position of the last command, when that command was a solve.
    let mut pending: Option<Hex> = None;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let err = |msg: String| GameError::new(format!("benzene tst line {}: {msg}", n + 1));
        if let Some(rest) = line.strip_prefix("#?") {
            let answer = rest.trim();
            let inner = answer
                .strip_prefix('[')
                .and_then(|s| s.strip_suffix(']'))
                .ok_or_else(|| {
                    err(format!(
                        "expected '#? [black]' or '#? [white]', got '{line}'"
                    ))
                })?;
            let winner = parse_colour(inner.trim())
                .ok_or_else(|| err(format!("expected answer black or white, got '{answer}'")))?;
            let pos = pending
                .take()
                .ok_or_else(|| err("'#?' answer without a solve command just before it".into()))?;
            out.push((pos, winner));
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut toks = line.split_whitespace().peekable();
        // GTP allows a numeric command id in front.
        if toks
            .peek()
            .is_some_and(|t| t.bytes().all(|b| b.is_ascii_digit()))
        {
            toks.next();
        }
        let Some(cmd) = toks.next() else {
            return Err(err(format!("command id without a command: '{line}'")));
        };
        let args: Vec<&str> = toks.collect();
        pending = None;
        let need_board = |board: &Option<Hex>| {
            board.ok_or_else(|| err(format!("'{cmd}' before any boardsize command")))
        };
        match cmd {
            "boardsize" => {
                let shape = match args.as_slice() {
                    [n] => n.to_string(),
                    [w, h] => format!("{w}x{h}"),
                    _ => return Err(err(format!("expected 'boardsize W H', got '{line}'"))),
                };
                let (w, h) = parse_shape(&shape).map_err(|e| err(e.0))?;
                board = Some(Hex::with_dims(w, h).map_err(|e| err(e.0))?);
                history.clear();
            }
            "clear_board" => {
                let b = need_board(&board)?;
                board = Some(Hex::with_dims(b.width(), b.height()).map_err(|e| err(e.0))?);
                history.clear();
            }
            "play" => {
                let mut b = need_board(&board)?;
                let [colour, cell] = args.as_slice() else {
                    return Err(err(format!(
                        "expected 'play <colour> <cell>', got '{line}'"
                    )));
                };
                let side = parse_colour(colour)
                    .ok_or_else(|| err(format!("bad colour '{colour}' in '{line}'")))?;
                if side != b.to_move() {
                    return Err(err(format!(
                        "'{line}' is out of turn: {} is to move (moves must alternate, Black first)",
                        colour_name(b.to_move())
                    )));
                }
                let m = b.parse_move(cell).map_err(|e| err(e.0))?;
                history.push(b);
                b.play(m);
                board = Some(b);
            }
            "undo" => {
                need_board(&board)?;
                board = Some(
                    history
                        .pop()
                        .ok_or_else(|| err("'undo' with no move to take back".into()))?,
                );
            }
            "dfpn-solve-state" | "dfs-solve-state" => {
                let b = need_board(&board)?;
                match args.as_slice() {
                    [] => {}
                    [colour] => {
                        let side = parse_colour(colour)
                            .ok_or_else(|| err(format!("bad colour '{colour}' in '{line}'")))?;
                        if side != b.to_move() {
                            return Err(err(format!(
                                "'{line}' asks for {} to move, but {} is to move here",
                                colour_name(side),
                                colour_name(b.to_move())
                            )));
                        }
                    }
                    _ => return Err(err(format!("expected '{cmd} [colour]', got '{line}'"))),
                }
                if b.winner().is_some() {
                    return Err(err(format!("'{line}' on a finished game")));
                }
                pending = Some(b);
            }
            "dfpn-clear-tt" | "showboard" => {}
            _ if cmd.starts_with("param_") => {}
            _ => return Err(err(format!("unsupported command '{cmd}'"))),
        }
    }
    Ok(out)
}

/// Reads `openings-winner.txt`: lines `<size> <cell> <winner>` (e.g.
/// `6 c3 black`), `#` comments and blank lines. Returns each position after
/// the opening move with the winner (a colour) under perfect play.
pub fn read_openings(text: &str) -> Result<Vec<(Hex, Side)>, GameError> {
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |msg: String| GameError::new(format!("openings line {}: {msg}", n + 1));
        let [size, cell, winner] = line.split_whitespace().collect::<Vec<_>>()[..] else {
            return Err(err(format!(
                "expected '<size> <cell> <winner>', got '{line}'"
            )));
        };
        let pos = Hex::parse_position(&format!("{size} {cell}")).map_err(|e| err(e.0))?;
        let winner = parse_colour(winner)
            .ok_or_else(|| err(format!("bad winner '{winner}' (expected black or white)")))?;
        out.push((pos, winner));
    }
    Ok(out)
}
