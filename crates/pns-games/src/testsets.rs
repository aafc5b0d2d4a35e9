//! Lines of test files: a position and, when the file gives one, the
//! expected value for the side to move. Each game reads its community's
//! format (`pns bench` uses this).

use pns_core::prelude::*;
use pns_core::{GameError, Outcome, RulesOnly};

use crate::hex::{parse_colour, Hex};
use crate::othello::Othello;
use crate::{ConnectFour, Synthetic, TicTacToe};

/// A position from a test file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestLine {
    /// The position in the game's notation.
    pub position: String,
    /// The expected value for the side to move, when labelled.
    pub expected: Option<Outcome>,
    /// The label as written in the file.
    pub label: Option<String>,
}

/// Games whose test files `pns bench` can read.
pub trait TestFormat: Game {
    /// Reads one line; `Ok(None)` for blank and comment lines.
    fn parse_test_line(line: &str) -> Result<Option<TestLine>, GameError>;
}

fn outcome_word(w: &str) -> Option<Outcome> {
    match w {
        "win" => Some(Outcome::Win),
        "draw" => Some(Outcome::Draw),
        "loss" => Some(Outcome::Loss),
        _ => None,
    }
}

/// `POSITION [win|draw|loss]`; `#` starts a comment line.
pub fn generic_line(line: &str) -> Result<Option<TestLine>, GameError> {
    let t = line.trim();
    if t.is_empty() || t.starts_with('#') {
        return Ok(None);
    }
    if let Some((pos, last)) = t.rsplit_once(char::is_whitespace) {
        if let Some(o) = outcome_word(last) {
            return Ok(Some(TestLine {
                position: pos.trim().to_string(),
                expected: Some(o),
                label: Some(last.to_string()),
            }));
        }
    }
    if let Some(o) = outcome_word(t) {
        // A bare label: the start position.
        return Ok(Some(TestLine {
            position: String::new(),
            expected: Some(o),
            label: Some(t.to_string()),
        }));
    }
    Ok(Some(TestLine {
        position: t.to_string(),
        expected: None,
        label: None,
    }))
}

impl<G: TestFormat> TestFormat for RulesOnly<G> {
    fn parse_test_line(line: &str) -> Result<Option<TestLine>, GameError> {
        G::parse_test_line(line)
    }
}

impl TestFormat for ConnectFour {
    /// Pascal Pons' test protocol: `MOVES SCORE`, where only the sign of
    /// the score matters (positive: the side to move wins).
    fn parse_test_line(line: &str) -> Result<Option<TestLine>, GameError> {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            return Ok(None);
        }
        let mut it = t.split_whitespace();
        let pos = it.next().unwrap_or("").to_string();
        let label = it.next();
        if it.next().is_some() {
            return Err(GameError::new(format!("'{t}' is not 'MOVES [SCORE]'")));
        }
        let expected = match label {
            None => None,
            Some(s) => match s.parse::<i32>() {
                Ok(v) => Some(match v.signum() {
                    1 => Outcome::Win,
                    0 => Outcome::Draw,
                    _ => Outcome::Loss,
                }),
                Err(_) => match outcome_word(s) {
                    Some(o) => Some(o),
                    None => return Err(GameError::new(format!("'{s}' is not a score"))),
                },
            },
        };
        Ok(Some(TestLine {
            position: pos,
            expected,
            label: label.map(str::to_string),
        }))
    }
}

impl TestFormat for Othello {
    /// Edax's .obf lines: `BOARD SIDE; MOVE:SCORE; ...`, best move first;
    /// the label is the sign of the first score (the exact final disc
    /// difference for the side to move). A line without scores, or an
    /// Othello move list, is an unlabelled position.
    fn parse_test_line(line: &str) -> Result<Option<TestLine>, GameError> {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with('%') {
            return Ok(None);
        }
        let (pos, rest) = match t.split_once(';') {
            Some((p, r)) => (p.trim(), Some(r)),
            None => (t, None),
        };
        let first = rest.and_then(|r| r.split(';').map(str::trim).find(|x| !x.is_empty()));
        let (expected, label) = match first {
            None => (None, None),
            Some(item) => {
                let score = item
                    .rsplit_once(':')
                    .map(|(_, s)| s.trim())
                    .ok_or_else(|| GameError::new(format!("'{item}' is not MOVE:SCORE")))?;
                let v: i32 = score
                    .trim_start_matches('+')
                    .parse()
                    .map_err(|_| GameError::new(format!("'{score}' is not a score")))?;
                let o = match v.signum() {
                    1 => Outcome::Win,
                    0 => Outcome::Draw,
                    _ => Outcome::Loss,
                };
                (Some(o), Some(item.to_string()))
            }
        };
        Ok(Some(TestLine {
            position: pos.to_string(),
            expected,
            label,
        }))
    }
}

impl TestFormat for TicTacToe {
    fn parse_test_line(line: &str) -> Result<Option<TestLine>, GameError> {
        generic_line(line)
    }
}

impl TestFormat for crate::Cyclic {
    fn parse_test_line(line: &str) -> Result<Option<TestLine>, GameError> {
        generic_line(line)
    }
}

impl TestFormat for crate::go::OneEye {
    fn parse_test_line(line: &str) -> Result<Option<TestLine>, GameError> {
        generic_line(line)
    }
}

impl TestFormat for crate::go::capture::Capture {
    fn parse_test_line(line: &str) -> Result<Option<TestLine>, GameError> {
        generic_line(line)
    }
}

impl TestFormat for Synthetic {
    fn parse_test_line(line: &str) -> Result<Option<TestLine>, GameError> {
        generic_line(line)
    }
}

impl TestFormat for Hex {
    /// Lines of `openings-winner.txt` — a position, then the winner as a
    /// colour (`6 c3 black`), turned into the value for the side to move —
    /// or the generic `POSITION [win|loss]`; `#` starts a comment.
    fn parse_test_line(line: &str) -> Result<Option<TestLine>, GameError> {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            return Ok(None);
        }
        if let Some((pos, last)) = t.rsplit_once(char::is_whitespace) {
            // Full words only: a bare `b` or `w` is more likely a typo.
            let winner = match last.to_ascii_lowercase().as_str() {
                "black" | "white" => parse_colour(last),
                _ => None,
            };
            if let Some(winner) = winner {
                let g = Hex::parse_position(pos)?;
                let expected = if winner == g.to_move() {
                    Outcome::Win
                } else {
                    Outcome::Loss
                };
                return Ok(Some(TestLine {
                    position: pos.trim().to_string(),
                    expected: Some(expected),
                    label: Some(last.to_string()),
                }));
            }
        }
        generic_line(t)
    }
}

impl TestFormat for crate::Connect6 {
    /// `POSITION [win|draw|loss]` (the position may contain spaces).
    fn parse_test_line(line: &str) -> Result<Option<TestLine>, GameError> {
        generic_line(line)
    }
}

impl TestFormat for crate::Tsume {
    /// `SFEN<TAB>LENGTH[<TAB>...]`: LENGTH, a number of plies, is a mate
    /// (a win for the attacker, the side to move); `nomate...` (e.g.
    /// `nomate<=3`) is labelled a loss. A line without a tab is an
    /// unlabelled SFEN; `#` starts a comment.
    fn parse_test_line(line: &str) -> Result<Option<TestLine>, GameError> {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            return Ok(None);
        }
        let mut cols = t.split('\t');
        let pos = cols.next().unwrap_or("").trim().to_string();
        let label = cols.next().map(str::trim).filter(|l| !l.is_empty());
        let expected = match label {
            None => None,
            Some(l) if l.starts_with("nomate") => Some(Outcome::Loss),
            Some(l) => match l.trim_end_matches('?').parse::<u32>() {
                Ok(_) => Some(Outcome::Win),
                Err(_) => {
                    return Err(GameError::new(format!(
                        "'{l}' is not a mate length or nomate"
                    )))
                }
            },
        };
        Ok(Some(TestLine {
            position: pos,
            expected,
            label: label.map(str::to_string),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pons_lines_and_generic_lines() {
        let l = ConnectFour::parse_test_line("4453 -3").unwrap().unwrap();
        assert_eq!(l.position, "4453");
        assert_eq!(l.expected, Some(Outcome::Loss));
        let l = ConnectFour::parse_test_line("4453 0").unwrap().unwrap();
        assert_eq!(l.expected, Some(Outcome::Draw));
        assert_eq!(ConnectFour::parse_test_line("  ").unwrap(), None);
        assert!(ConnectFour::parse_test_line("4453 x").is_err());
        assert!(ConnectFour::parse_test_line("44 1 2").is_err());
        let g = generic_line("depth=4,seed=2 0 1 win").unwrap().unwrap();
        assert_eq!(g.position, "depth=4,seed=2 0 1");
        assert_eq!(g.expected, Some(Outcome::Win));
        let g = generic_line("depth=4,seed=2 0 1").unwrap().unwrap();
        assert_eq!(g.expected, None);
        let o = Othello::parse_test_line(
            "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;",
        )
        .unwrap()
        .unwrap();
        assert_eq!(o.expected, Some(Outcome::Win));
        assert_eq!(o.label.as_deref(), Some("G8:+18"));
        assert!(Othello::parse_position(&o.position).is_ok());
        let d = Othello::parse_test_line("-------- X; A1:+0;")
            .unwrap()
            .unwrap();
        assert_eq!(d.expected, Some(Outcome::Draw));
        assert!(Othello::parse_test_line("x X; A1:big;").is_err());
    }
}
