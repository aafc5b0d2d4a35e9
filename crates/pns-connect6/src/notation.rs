//! Position notation.
//!
//! * Parameters (optional, first): `WxH` then `,k=K`, `,p=P`, `,q=Q`,
//!   `,turn=pair` (default `19x19,k=6,p=2,q=1`, a node per stone), e.g.
//!   `9x9,k=5`.
//! * Then the turns, one token each, Black first: the cells of the turn
//!   written together, column letter (`a`, `b`, ... from the left, `i`
//!   included) and row number (from 1 at the bottom): `j10 i9j9 k11k9`.
//!   The last token may hold fewer stones than its turn (a position in the
//!   middle of a turn).
//! * Or an SGF game record as Connect6 programs write them:
//!   `(;SZ[19];B[jj];W[ii][ij];B[kk][kl])`, one property value per stone
//!   (two-letter SGF points, `aa` the top-left corner) or both stones in
//!   one value (`W[iiij]`). `SZ` sets the board size; other properties are
//!   ignored.
//!
//! A move (one search node) is one cell, `j10`, or with `turn=pair` the
//! cells of a turn, `i9j9`.

use pns_core::GameError;

use crate::geometry::Geometry;
use crate::position::{cell_name, Connect6, Params, Turn, NO_CELL};

/// Parses a cell name on a geometry.
pub fn parse_cell(geo: &Geometry, s: &str) -> Result<u16, GameError> {
    let b = s.as_bytes();
    let bad = || GameError::new(format!("'{s}' is not a cell (e.g. j10)"));
    if b.len() < 2 || !b[0].is_ascii_lowercase() {
        return Err(bad());
    }
    let col = (b[0] - b'a') as usize;
    let row: usize = s[1..].parse().map_err(|_| bad())?;
    if col >= geo.width
        || row == 0
        || row > geo.height
        || !s[1..].bytes().all(|c| c.is_ascii_digit())
    {
        return Err(GameError::new(format!(
            "cell '{s}' is off the {}x{} board",
            geo.width, geo.height
        )));
    }
    Ok(((row - 1) * geo.width + col) as u16)
}

/// Splits `c3d14` into `c3`, `d14`.
pub fn split_cells(s: &str) -> Result<Vec<&str>, GameError> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        if !b[i].is_ascii_lowercase() {
            return Err(GameError::new(format!(
                "'{s}' is not a list of cells (e.g. i9j9)"
            )));
        }
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        out.push(&s[start..i]);
    }
    if out.is_empty() {
        return Err(GameError::new("an empty move"));
    }
    Ok(out)
}

fn parse_params(tok: &str) -> Result<Params, GameError> {
    let mut p = Params::default();
    for (i, item) in tok.split(',').enumerate() {
        if i == 0 {
            if let Some((w, h)) = item.split_once('x') {
                p.width = w
                    .parse()
                    .map_err(|_| GameError::new(format!("'{item}' is not a board size WxH")))?;
                p.height = h
                    .parse()
                    .map_err(|_| GameError::new(format!("'{item}' is not a board size WxH")))?;
                continue;
            }
        }
        let (name, v) = item.split_once('=').ok_or_else(|| {
            GameError::new(format!(
                "'{item}' is not a parameter (k=6, p=2, q=1, turn=pair)"
            ))
        })?;
        let num = || {
            v.parse::<usize>()
                .map_err(|_| GameError::new(format!("'{v}' is not a number for {name}")))
        };
        match name {
            "k" => p.k = num()?,
            "p" => p.p = num()?,
            "q" => p.q = num()?,
            "turn" => {
                p.pairs = match v {
                    "pair" => true,
                    "half" | "stone" => false,
                    _ => return Err(GameError::new(format!("turn={v}: pair or half"))),
                }
            }
            _ => {
                return Err(GameError::new(format!(
                    "unknown parameter '{name}' (k, p, q, turn)"
                )))
            }
        }
    }
    p.check()?;
    Ok(p)
}

/// Places one stone given by name, checking the rules.
fn place_checked(g: &mut Connect6, c: u16, name: &str) -> Result<(), GameError> {
    if g.is_over() {
        return Err(GameError::new(format!(
            "'{name}' comes after the game has ended"
        )));
    }
    if !g.is_empty(c) {
        return Err(GameError::new(format!("cell {name} is not empty")));
    }
    g.place(c);
    Ok(())
}

/// Plays one turn's stones from the start of a turn; `last` allows fewer.
fn play_turn(
    g: &mut Connect6,
    cells: &[u16],
    names: &[&str],
    last: bool,
    n: usize,
) -> Result<(), GameError> {
    let want = g.stones_left();
    if cells.len() > want || (cells.len() < want && !last) {
        return Err(GameError::new(format!(
            "turn {n} ('{}') has {} stones where {want} are placed",
            names.join(""),
            cells.len()
        )));
    }
    let side = g.to_move;
    for (&c, name) in cells.iter().zip(names) {
        if g.is_over() || g.to_move != side {
            return Err(GameError::new(format!(
                "turn {n}: '{name}' comes after the game has ended"
            )));
        }
        place_checked(g, c, name).map_err(|e| GameError::new(format!("turn {n}: {}", e.0)))?;
    }
    Ok(())
}

/// Parses a position (see the module documentation).
pub fn parse_position(s: &str) -> Result<Connect6, GameError> {
    let s = s.trim();
    if s.starts_with('(') {
        return parse_sgf(s);
    }
    let mut toks: Vec<&str> = s.split_whitespace().collect();
    let params = match toks.first() {
        Some(t) if t.contains('=') || t.contains('x') && t.as_bytes()[0].is_ascii_digit() => {
            let p = parse_params(t)?;
            toks.remove(0);
            p
        }
        _ => Params::default(),
    };
    let mut g = Connect6::new(params)?;
    let n = toks.len();
    for (i, t) in toks.iter().enumerate() {
        let names =
            split_cells(t).map_err(|e| GameError::new(format!("turn {}: {}", i + 1, e.0)))?;
        let cells = names
            .iter()
            .map(|c| parse_cell(g.geo, c))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| GameError::new(format!("turn {}: {}", i + 1, e.0)))?;
        if g.is_over() {
            return Err(GameError::new(format!(
                "turn {} ('{t}') comes after the game has ended",
                i + 1
            )));
        }
        play_turn(&mut g, &cells, &names, i + 1 == n, i + 1)?;
    }
    Ok(g)
}

fn parse_sgf(s: &str) -> Result<Connect6, GameError> {
    let mut params = Params::default();
    if let Some(i) = s.find("SZ[") {
        let rest = &s[i + 3..];
        let j = rest
            .find(']')
            .ok_or_else(|| GameError::new("SGF: unclosed SZ["))?;
        let v = &rest[..j];
        let (w, h) = v.split_once(':').unwrap_or((v, v));
        params.width = w
            .trim()
            .parse()
            .map_err(|_| GameError::new(format!("SGF: bad SZ[{v}]")))?;
        params.height = h
            .trim()
            .parse()
            .map_err(|_| GameError::new(format!("SGF: bad SZ[{v}]")))?;
    }
    let mut g = Connect6::new(params)?;
    // Nodes: ';' then properties NAME[value][value]...
    let mut turns: Vec<(char, Vec<String>)> = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b';' {
            i += 1;
            while i < b.len() && b[i] != b';' && b[i] != b')' && b[i] != b'(' {
                if b[i].is_ascii_uppercase() {
                    let st = i;
                    while i < b.len() && b[i].is_ascii_uppercase() {
                        i += 1;
                    }
                    let name = &s[st..i];
                    let mut vals = Vec::new();
                    while i < b.len() && b[i] == b'[' {
                        let e = s[i..]
                            .find(']')
                            .ok_or_else(|| GameError::new("SGF: unclosed ["))?
                            + i;
                        vals.push(s[i + 1..e].to_string());
                        i = e + 1;
                        while i < b.len() && b[i].is_ascii_whitespace() {
                            i += 1;
                        }
                    }
                    if name == "B" || name == "W" {
                        turns.push((name.chars().next().unwrap_or('B'), vals));
                    }
                } else {
                    i += 1;
                }
            }
        } else {
            i += 1;
        }
    }
    let n = turns.len();
    for (t, (who, vals)) in turns.iter().enumerate() {
        let side = if *who == 'B' {
            pns_core::Side::First
        } else {
            pns_core::Side::Second
        };
        if g.to_move != side {
            return Err(GameError::new(format!(
                "SGF: move {} is {who} out of turn",
                t + 1
            )));
        }
        let mut cells = Vec::new();
        let mut names = Vec::new();
        for v in vals {
            let v = v.trim();
            if v.is_empty() {
                continue;
            }
            if v.len() % 2 != 0 {
                return Err(GameError::new(format!(
                    "SGF: '{v}' is not a list of points"
                )));
            }
            for pt in v.as_bytes().chunks(2) {
                let (cx, cy) = (pt[0], pt[1]);
                if !cx.is_ascii_lowercase() || !cy.is_ascii_lowercase() {
                    return Err(GameError::new(format!(
                        "SGF: '{v}' is not a list of points"
                    )));
                }
                let (col, top) = ((cx - b'a') as usize, (cy - b'a') as usize);
                if col >= params.width || top >= params.height {
                    return Err(GameError::new(format!("SGF: point '{v}' is off the board")));
                }
                let c = ((params.height - 1 - top) * params.width + col) as u16;
                names.push(cell_name(g.geo, c));
                cells.push(c);
            }
        }
        let names_ref: Vec<&str> = names.iter().map(String::as_str).collect();
        play_turn(&mut g, &cells, &names_ref, t + 1 == n, t + 1)?;
    }
    Ok(g)
}

/// Writes a position in the notation: parameters (if not the default) and
/// the turns. The turns are reconstructed from the stones, which is exact
/// for the board, side to move and stones left (the order of turns is not
/// kept: Black's stones are paired first-come, which gives the same
/// position).
pub fn format_position(g: &Connect6) -> String {
    use pns_core::Side;
    let mut out: Vec<String> = Vec::new();
    let spec = g.params.spec();
    if !spec.is_empty() {
        out.push(spec);
    }
    let black: Vec<u16> = g.occ[0].iter().collect();
    let white: Vec<u16> = g.occ[1].iter().collect();
    let (p, q) = (g.params.p, g.params.q);
    let (mut bi, mut wi) = (0, 0);
    let mut side = Side::First;
    let mut first = true;
    while bi < black.len() || wi < white.len() {
        let want = if first { q } else { p };
        first = false;
        let (src, idx) = match side {
            Side::First => (&black, &mut bi),
            Side::Second => (&white, &mut wi),
        };
        let take = want.min(src.len() - *idx);
        if take == 0 {
            break;
        }
        out.push(
            src[*idx..*idx + take]
                .iter()
                .map(|&c| g.cell_name(c))
                .collect(),
        );
        *idx += take;
        side = side.opponent();
    }
    out.join(" ")
}

/// Parses a move (one cell, or a turn's cells with `turn=pair`), checking
/// that it is legal.
pub fn parse_move(g: &Connect6, s: &str) -> Result<Turn, GameError> {
    if g.is_over() {
        return Err(GameError::new("the game is over"));
    }
    let names = split_cells(s.trim())?;
    let cells = names
        .iter()
        .map(|c| parse_cell(g.geo, c))
        .collect::<Result<Vec<_>, _>>()?;
    for (c, n) in cells.iter().zip(&names) {
        if !g.is_empty(*c) {
            return Err(GameError::new(format!("cell {n} is not empty")));
        }
    }
    let want = if g.params.pairs {
        g.stones_left().min(g.empties().len())
    } else {
        1
    };
    if cells.len() != want {
        return Err(GameError::new(format!(
            "'{s}': a move here is {want} cell(s)"
        )));
    }
    Ok(match cells.as_slice() {
        [a] => Turn::one(*a),
        [a, b] if a != b => Turn::two(*a, *b),
        _ => return Err(GameError::new(format!("'{s}' names a cell twice"))),
    })
}

/// Writes a move.
pub fn format_move(g: &Connect6, m: Turn) -> String {
    let mut s = g.cell_name(m.a);
    if m.b != NO_CELL {
        s.push_str(&g.cell_name(m.b));
    }
    s
}

/// A picture of the board: `X` Black, `O` White, row numbers on the left.
pub fn render(g: &Connect6) -> String {
    let geo = g.geo;
    let mut s = String::new();
    for r in (0..geo.height).rev() {
        s.push_str(&format!("{:>2} ", r + 1));
        for c in 0..geo.width {
            let id = (r * geo.width + c) as u16;
            s.push(match g.at(id) {
                Some(pns_core::Side::First) => 'X',
                Some(pns_core::Side::Second) => 'O',
                None => '.',
            });
            s.push(' ');
        }
        s.push('\n');
    }
    s.push_str("   ");
    for c in 0..geo.width {
        s.push((b'a' + c as u8) as char);
        s.push(' ');
    }
    s.push('\n');
    s
}
