//! VCDT claims: a witness that the prover wins by continuous double
//! threats (Wu and Huang's VCDT, deep-dfpn §5.1), and its check with the
//! rules alone.
//!
//! ## Witness grammar (one token)
//!
//! ```text
//! turn    := CELLS [ '(' replies ')' ]
//! replies := reply (';' reply)*  |  (nothing)
//! reply   := CELLS '>' turn
//! ```
//!
//! `CELLS` is cells written together (`j10k11`). At a node where the prover
//! is to move the witness is a `turn`: the prover's stones for the rest of
//! its turn, then one `reply` per way the opponent can answer. At a node
//! where the opponent is to move it is `'(' replies ')'`.
//!
//! ## What the check proves
//!
//! After the prover's turn either it has k in a row, or:
//! 1. the opponent (to move, with r stones) has no window it completes
//!    with r stones: it cannot win in this turn;
//! 2. the prover's *live windows* (free of opponent stones, completed by
//!    the prover's next turn of p stones) cannot all be met with fewer than
//!    r stones (at least r threats: no free stone for the opponent);
//! 3. the replies listed are exactly the sets of r cells meeting every live
//!    window, and each is followed by a checked `turn`. If no such set
//!    exists (more than r threats) there are no replies.
//!
//! Any opponent turn that misses a live window leaves it whole, so the
//! prover completes it on its next turn (its cells are still empty, so the
//! board is not full, and the opponent did not win by 1). Every other turn
//! is one of the listed replies. So the prover wins from the node. The
//! check reads only the stones on the board and the geometry's lines; it
//! shares no code with the search.

use pns_core::{GameError, Side};

use crate::notation::{parse_cell, split_cells};
use crate::position::Connect6;

/// A parsed witness: the prover's cells and the replies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    pub cells: Vec<u16>,
    pub replies: Vec<(Vec<u16>, Turn)>,
}

struct Parser<'a> {
    s: &'a str,
    i: usize,
    g: &'a Connect6,
}

impl Parser<'_> {
    fn err(&self, what: &str) -> GameError {
        GameError::new(format!(
            "claim: {what} at offset {} of '{}'",
            self.i, self.s
        ))
    }

    fn peek(&self) -> Option<u8> {
        self.s.as_bytes().get(self.i).copied()
    }

    fn cells(&mut self) -> Result<Vec<u16>, GameError> {
        let st = self.i;
        let b = self.s.as_bytes();
        while self.i < b.len() && (b[self.i].is_ascii_lowercase() || b[self.i].is_ascii_digit()) {
            self.i += 1;
        }
        let names = split_cells(&self.s[st..self.i]).map_err(|e| self.err(&e.0))?;
        names
            .iter()
            .map(|n| parse_cell(self.g.geometry(), n))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.err(&e.0))
    }

    fn replies(&mut self) -> Result<Vec<(Vec<u16>, Turn)>, GameError> {
        if self.peek() != Some(b'(') {
            return Err(self.err("expected '('"));
        }
        self.i += 1;
        let mut out = Vec::new();
        if self.peek() == Some(b')') {
            self.i += 1;
            return Ok(out);
        }
        loop {
            let mut d = self.cells()?;
            d.sort_unstable();
            if self.peek() != Some(b'>') {
                return Err(self.err("expected '>'"));
            }
            self.i += 1;
            let t = self.turn()?;
            out.push((d, t));
            match self.peek() {
                Some(b';') => self.i += 1,
                Some(b')') => {
                    self.i += 1;
                    return Ok(out);
                }
                _ => return Err(self.err("expected ';' or ')'")),
            }
        }
    }

    fn turn(&mut self) -> Result<Turn, GameError> {
        let cells = self.cells()?;
        let replies = if self.peek() == Some(b'(') {
            self.replies()?
        } else {
            Vec::new()
        };
        Ok(Turn { cells, replies })
    }
}

/// Writes a witness (the inverse of the parser).
pub fn write_turn(g: &Connect6, t: &Turn, out: &mut String) {
    for &c in &t.cells {
        out.push_str(&g.cell_name(c));
    }
    if !t.replies.is_empty() {
        write_replies(g, &t.replies, out);
    }
}

/// Writes `(reply;...)`.
pub fn write_replies(g: &Connect6, rs: &[(Vec<u16>, Turn)], out: &mut String) {
    out.push('(');
    for (i, (d, t)) in rs.iter().enumerate() {
        if i > 0 {
            out.push(';');
        }
        for &c in d {
            out.push_str(&g.cell_name(c));
        }
        out.push('>');
        write_turn(g, t, out);
    }
    out.push(')');
}

/// The windows of k cells free of `other`'s stones holding at least `min`
/// of `side`'s, as their empty cells: a plain cell-by-cell scan.
fn scan(g: &Connect6, side: Side, min: usize) -> Vec<Vec<u16>> {
    let k = g.params().k;
    let mut out: Vec<Vec<u16>> = Vec::new();
    for line in &g.geometry().lines {
        for w in line.cells.windows(k) {
            let mut own = 0;
            let mut empty = Vec::new();
            let mut blocked = false;
            for &c in w {
                match g.at(c) {
                    Some(s) if s == side => own += 1,
                    Some(_) => blocked = true,
                    None => empty.push(c),
                }
            }
            if !blocked && own >= min && !empty.is_empty() && !out.contains(&empty) {
                out.push(empty);
            }
        }
    }
    out
}

/// Checks a witness that `prover` wins from `g` (module documentation).
pub fn check(g: &Connect6, prover: Side, witness: &str) -> Result<(), GameError> {
    let mut p = Parser {
        s: witness,
        i: 0,
        g,
    };
    if g.is_over() {
        return Err(GameError::new("claim: the game is over"));
    }
    if g.side_to_move() == prover {
        let t = p.turn()?;
        if p.i != witness.len() {
            return Err(p.err("trailing text"));
        }
        check_turn(g, prover, &t)
    } else {
        let rs = p.replies()?;
        if p.i != witness.len() {
            return Err(p.err("trailing text"));
        }
        check_replies(g, prover, &rs)
    }
}

use pns_core::Rules;

fn check_turn(g: &Connect6, prover: Side, t: &Turn) -> Result<(), GameError> {
    let mut c = g.clone();
    if c.is_over() || c.side_to_move() != prover {
        return Err(GameError::new("claim: not the prover's turn"));
    }
    let want = c.stones_left();
    for (i, &cell) in t.cells.iter().enumerate() {
        if c.is_over() || c.side_to_move() != prover {
            return Err(GameError::new("claim: more stones than the turn has"));
        }
        if !c.is_empty(cell) {
            return Err(GameError::new(format!(
                "claim: {} is not empty",
                g.cell_name(cell)
            )));
        }
        c.place(cell);
        if c.winner() == Some(prover) {
            if i + 1 != t.cells.len() || !t.replies.is_empty() {
                return Err(GameError::new("claim: moves after the win"));
            }
            return Ok(());
        }
    }
    if t.cells.len() != want {
        return Err(GameError::new(format!(
            "claim: the turn has {want} stones, the witness {}",
            t.cells.len()
        )));
    }
    if c.is_over() {
        return Err(GameError::new("claim: the game ends without a win"));
    }
    check_replies(&c, prover, &t.replies)
}

fn check_replies(g: &Connect6, prover: Side, rs: &[(Vec<u16>, Turn)]) -> Result<(), GameError> {
    let def = prover.opponent();
    if g.side_to_move() != def || g.is_over() {
        return Err(GameError::new("claim: not the opponent's turn"));
    }
    let (k, p) = (g.params().k, g.params().p);
    let r = g.stones_left();
    if !scan(g, def, k.saturating_sub(r)).is_empty() {
        return Err(GameError::new("claim: the opponent can win in its turn"));
    }
    let live = scan(g, prover, k.saturating_sub(p));
    if live.is_empty() {
        return Err(GameError::new("claim: no threat"));
    }
    let mut u: Vec<u16> = live.iter().flatten().copied().collect();
    u.sort_unstable();
    u.dedup();
    let hits = |set: &[u16]| live.iter().all(|w| w.iter().any(|c| set.contains(c)));
    // Sets of at most r cells of U (a minimal hitting set lies in U).
    let mut blocking: Vec<Vec<u16>> = Vec::new();
    let mut stack: Vec<(usize, Vec<u16>)> = vec![(0, Vec::new())];
    while let Some((from, set)) = stack.pop() {
        if hits(&set) {
            if set.len() < r {
                return Err(GameError::new(format!(
                    "claim: {} stone(s) meet every threat: fewer threats than the opponent's {r} stones",
                    set.len()
                )));
            }
            blocking.push(set);
            continue;
        }
        if set.len() == r {
            continue;
        }
        for (i, &c) in u.iter().enumerate().skip(from) {
            let mut s = set.clone();
            s.push(c);
            stack.push((i + 1, s));
        }
    }
    blocking.sort();
    let mut listed: Vec<&Vec<u16>> = rs.iter().map(|(d, _)| d).collect();
    listed.sort();
    let ok = listed.len() == blocking.len() && listed.iter().zip(&blocking).all(|(a, b)| *a == b);
    if !ok {
        return Err(GameError::new(format!(
            "claim: {} replies listed, {} ways to meet the threats",
            listed.len(),
            blocking.len()
        )));
    }
    for (d, t) in rs {
        let mut c = g.clone();
        for &cell in d {
            if !c.is_empty(cell) {
                return Err(GameError::new("claim: a reply on a full cell"));
            }
            c.play(crate::Turn::one(cell));
        }
        if c.is_over() || c.side_to_move() != prover {
            return Err(GameError::new(
                "claim: the reply does not end the opponent's turn",
            ));
        }
        check_turn(&c, prover, t)?;
    }
    Ok(())
}

/// Parses a witness without checking it (for tests and tools).
pub fn parse(g: &Connect6, prover: Side, witness: &str) -> Result<Turn, GameError> {
    let mut p = Parser {
        s: witness,
        i: 0,
        g,
    };
    if g.side_to_move() == prover {
        p.turn()
    } else {
        Ok(Turn {
            cells: Vec::new(),
            replies: p.replies()?,
        })
    }
}
