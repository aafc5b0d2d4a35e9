//! One-eye problems under situational super-ko: the Go experiment of
//! Kishimoto and Müller's GHI paper (§4; the problem itself from their
//! "Df-pn in Go: application to the one-eye problem", 2003).
//!
//! # The problem
//!
//! A *region* of points is enclosed by walls; moves are allowed inside the
//! region only (and passes), the rest of the board is fixed. The
//! *defender* tries to make an **eye**: an empty point of the region whose
//! every neighbour is a defender stone of a *safe* block, one with a
//! liberty outside the region. Such a liberty can never be filled (no one
//! plays outside the region), so the block can never be captured and the
//! attacker can never fill the eye (the move would be suicide): the eye is
//! permanent, and the defender has won. The attacker wins when two passes
//! in a row end the game with no eye. The problem can be played with
//! either colour first (the paper's 70 problems × 2 = 140).
//!
//! # Situational super-ko
//!
//! A move may not recreate a position that occurred on the line with the
//! same player to move. The search owns the line and applies the rule as
//! *current-player-loss* (GHI paper §1.2): the player whose move repeats a
//! position loses, which under SSK is the same as the move being illegal
//! (a player always has another move, the pass). A position here is the
//! stones, the player to move and the number of passes just played (0, 1;
//! 2 ends the game): so a pass never repeats a position (the position
//! before it would have repeated first), two passes end the game as in Go,
//! and positions reached by a pass and by a stone are told apart. Simple
//! ko needs no rule of its own: the immediate recapture repeats a position.
//! A problem's line starts at its root (moves of an SGF record before it do
//! not count).
//!
//! # Notation
//!
//! A position is one of:
//!
//! * an SGF record, inline (`(;FF[4]...)`) or a file name ending in
//!   `.sgf`. The root node's `SQ` (squares) marks the region and `TR`
//!   (triangles) marks one or more target stones, all of the defender's
//!   colour; `AB`/`AW` set up the stones and `PL` the player to move; the
//!   main line's moves, if any, are played. [`OneEye::to_sgf`] writes this
//!   form.
//! * a generated problem, `points=K,seed=S[,first=defender|attacker]`
//!   (see [`generate`]).
//!
//! Moves are GTP vertices (`C3`) or `pass`.
//!
//! # The oracle
//!
//! [`tree_oracle`] is the *tree method* (Schijf et al. 1994, via the GHI
//! paper §2.2.5): every line searched in full, no transpositions, each
//! repetition judged on its own line; exact, and exponential (regions of a
//! handful of points).

use std::fmt;
use std::hash::{Hash, Hasher};

use pns_core::prelude::*;
use pns_core::rng::{splitmix64, Rng};
use pns_core::{GameError, Outcome, Repetition, Side};

use crate::bits::{Bits, STRIDE};
use crate::board::{Board, Color, Move, WHITE_TO_MOVE};
use crate::game::GoGame;

/// XORed into the key after one pass.
const ONE_PASS: u64 = 0x3c6e_f372_fe94_f82b;
/// XORed into the key after two passes (the game is over).
const TWO_PASSES: u64 = 0xa54f_f53a_5f1d_36f1;

/// A position of a one-eye problem.
#[derive(Clone, Copy)]
pub struct OneEye {
    board: Board,
    region: Bits,
    defender: Color,
    /// Passes just played in a row (0, 1 or 2).
    passes: u8,
}

impl PartialEq for OneEye {
    fn eq(&self, o: &Self) -> bool {
        self.board.stones(Color::Black) == o.board.stones(Color::Black)
            && self.board.stones(Color::White) == o.board.stones(Color::White)
            && self.board.to_move() == o.board.to_move()
            && self.board.size() == o.board.size()
            && self.passes == o.passes
            && self.region == o.region
            && self.defender == o.defender
    }
}

impl Eq for OneEye {}

impl Hash for OneEye {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.key().hash(h);
    }
}

impl OneEye {
    /// The problem on `board` (its player to move first) with `region` and
    /// `defender`. Errors: a region off the board or without an empty
    /// point, a block without liberties.
    pub fn new(board: Board, region: Bits, defender: Color) -> Result<OneEye, GameError> {
        if region.minus(board.mask()) != Bits::EMPTY {
            return Err(GameError::new("the region has points off the board"));
        }
        if !region.intersects(&board.empty()) {
            return Err(GameError::new("the region has no empty point"));
        }
        for c in [Color::Black, Color::White] {
            for b in board.blocks(c) {
                if board.liberties(&b).is_empty() {
                    return Err(GameError::new(format!(
                        "the {c} block at {} has no liberty",
                        board.vertex(b.first().expect("a stone"))
                    )));
                }
            }
        }
        let mut board = board;
        // No simple-ko point: the line's super-ko covers it.
        let c = board.to_move();
        board.set_to_move(c.opponent());
        board.set_to_move(c);
        Ok(OneEye {
            board,
            region,
            defender,
            passes: 0,
        })
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn region(&self) -> Bits {
        self.region
    }

    pub fn defender(&self) -> Color {
        self.defender
    }

    pub fn attacker(&self) -> Color {
        self.defender.opponent()
    }

    /// The same problem with `c` to move first.
    pub fn with_first(mut self, c: Color) -> OneEye {
        self.board.set_to_move(c);
        self.passes = 0;
        self
    }

    /// The defender's stones that can never be captured: the blocks with a
    /// liberty outside the region.
    pub fn safe_stones(&self) -> Bits {
        let b = &self.board;
        let mask = b.mask();
        let own = b.stones(self.defender);
        let outside_empty = b.empty().minus(&self.region);
        let seeds = own & outside_empty.adjacent(mask);
        if seeds.is_empty() {
            return Bits::EMPTY;
        }
        Bits::flood(seeds, &own)
    }

    /// The eyes: empty points of the region all of whose neighbours are
    /// safe defender stones.
    pub fn eyes(&self) -> Bits {
        let b = &self.board;
        let mask = b.mask();
        let not_safe = mask.minus(&self.safe_stones());
        (b.empty() & self.region).minus(&not_safe.adjacent(mask))
    }

    /// Whether the defender has an eye.
    #[inline]
    pub fn has_eye(&self) -> bool {
        !self.eyes().is_empty()
    }

    /// The problem as an SGF record (the notation's SGF form).
    pub fn to_sgf(&self, name: &str) -> String {
        let b = &self.board;
        let pt = |p: usize| {
            let (x, y) = Board::xy(p);
            format!("[{}{}]", (b'a' + x as u8) as char, (b'a' + y as u8) as char)
        };
        let list = |s: Bits| s.iter().map(pt).collect::<String>();
        let targets = b.stones(self.defender) & self.region.border(b.mask());
        let mut s = format!("(;FF[4]GM[1]SZ[{}]", b.size());
        if !name.is_empty() {
            s.push_str(&format!("GN[{}]", name.replace(']', "\\]")));
        }
        for (prop, c) in [("AB", Color::Black), ("AW", Color::White)] {
            if !b.stones(c).is_empty() {
                s.push_str(&format!("{prop}{}", list(b.stones(c))));
            }
        }
        s.push_str(&format!(
            "PL[{}]SQ{}TR{})",
            b.to_move().letter(),
            list(self.region),
            list(targets)
        ));
        s
    }

    /// Reads the SGF form (inline text).
    pub fn from_sgf(text: &str) -> Result<OneEye, GameError> {
        let l = crate::sgf::load(text, None, crate::game::KoRule::Situational)
            .map_err(GameError::new)?;
        Self::from_loaded(&l.game, l.squares, l.triangles)
    }

    /// The problem on a game's current board, with the region and target
    /// stones marked.
    pub fn from_loaded(game: &GoGame, region: Bits, targets: Bits) -> Result<OneEye, GameError> {
        let b = *game.board();
        if region.is_empty() {
            return Err(GameError::new(
                "no region: mark the region's points with SQ in the root node",
            ));
        }
        let t = targets.first().ok_or_else(|| {
            GameError::new("no target: mark a defender stone with TR in the root node")
        })?;
        let defender = b
            .color_at(t)
            .ok_or_else(|| GameError::new(format!("the target {} is not a stone", b.vertex(t))))?;
        if !(targets.minus(&b.stones(defender))).is_empty() {
            return Err(GameError::new(
                "the target stones are not all of one colour",
            ));
        }
        OneEye::new(b, region, defender)
    }

    /// The notation of a move.
    fn vertex(&self, m: Move) -> String {
        self.board.format_move(m)
    }
}

impl fmt::Debug for OneEye {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Notation::render(self))
    }
}

impl Rules for OneEye {
    type Move = Move;
    const NAME: &'static str = "go-one-eye";
    const HAS_DRAWS: bool = false;

    #[inline]
    fn side_to_move(&self) -> Side {
        self.board.to_move().side()
    }

    fn outcome(&self) -> Option<Outcome> {
        let defender_to_move = self.board.to_move() == self.defender;
        let defender_wins = if self.has_eye() {
            true
        } else if self.passes >= 2 {
            false
        } else {
            return None;
        };
        Some(if defender_wins == defender_to_move {
            Outcome::Win
        } else {
            Outcome::Loss
        })
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.board.legal_points(Some(&self.region), false, out);
        out.push(Move::Pass);
    }

    fn play(&mut self, m: Move) {
        self.board.play(m, false).expect("one-eye: a legal move");
        self.passes = if m == Move::Pass { self.passes + 1 } else { 0 };
    }

    #[inline]
    fn key(&self) -> u64 {
        let mut k = self.board.key();
        if self.board.to_move() == Color::White {
            k ^= WHITE_TO_MOVE;
        }
        match self.passes {
            0 => k,
            1 => k ^ ONE_PASS,
            _ => k ^ TWO_PASSES,
        }
    }

    fn repetition(&self) -> Repetition {
        Repetition::CurrentPlayerLoss
    }
}

impl Notation for OneEye {
    fn parse_position(s: &str) -> Result<Self, GameError> {
        let t = s.trim();
        if t.starts_with('(') {
            return Self::from_sgf(t);
        }
        if t.ends_with(".sgf") || t.ends_with(".SGF") {
            let text = std::fs::read_to_string(t)
                .map_err(|e| GameError::new(format!("cannot read {t}: {e}")))?;
            return Self::from_sgf(&text);
        }
        if t.contains('=') {
            return parse_spec(t);
        }
        Err(GameError::new(format!(
            "'{t}' is not a one-eye problem (an SGF record, a .sgf file, or points=K,seed=S[,first=defender|attacker])"
        )))
    }

    fn parse_move(&self, s: &str) -> Result<Move, GameError> {
        let m = self.board.parse_vertex(s).map_err(GameError::new)?;
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        if !legal.contains(&m) {
            return Err(GameError::new(format!(
                "{} is not a legal move here (outside the region, occupied or suicide)",
                s.trim()
            )));
        }
        Ok(m)
    }

    fn format_move(&self, m: Move) -> String {
        self.vertex(m)
    }

    fn render(&self) -> String {
        let b = &self.board;
        let n = b.size();
        let mut s = String::new();
        for y in 0..n {
            s.push_str(&format!("{:>2}", n - y));
            for x in 0..n {
                let p = y * STRIDE + x;
                s.push(' ');
                s.push(match (b.color_at(p), self.region.get(p)) {
                    (Some(Color::Black), _) => 'X',
                    (Some(Color::White), _) => 'O',
                    (None, true) => '+',
                    (None, false) => '.',
                });
            }
            s.push('\n');
        }
        let cols: String = b"ABCDEFGHJKLMNOPQRST"[..n]
            .iter()
            .map(|&c| format!(" {}", c as char))
            .collect();
        s.push_str(&format!("  {cols}\n"));
        s.push_str(&format!(
            "{} to move; defender {}; region {} points (+ empty); passes {}",
            b.to_move(),
            self.defender,
            self.region.count(),
            self.passes
        ));
        s
    }
}

impl SearchHooks for OneEye {}
impl Shortcuts for OneEye {}
impl Playout for OneEye {}

/// The parameters of a generated problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GenParams {
    /// Points of the region (2 to 20).
    pub points: usize,
    pub seed: u64,
    /// Whether the defender moves first.
    pub defender_first: bool,
}

impl GenParams {
    pub fn notation(&self) -> String {
        format!(
            "points={},seed={},first={}",
            self.points,
            self.seed,
            if self.defender_first {
                "defender"
            } else {
                "attacker"
            }
        )
    }
}

fn parse_spec(t: &str) -> Result<OneEye, GameError> {
    let mut p = GenParams {
        points: 0,
        seed: 1,
        defender_first: true,
    };
    for kv in t.split(',') {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| GameError::new(format!("'{kv}' is not name=value")))?;
        let num = || {
            v.parse::<u64>()
                .map_err(|_| GameError::new(format!("{k}: '{v}' is not a number")))
        };
        match k {
            "points" => p.points = num()? as usize,
            "seed" => p.seed = num()?,
            "first" => {
                p.defender_first = match v {
                    "defender" => true,
                    "attacker" => false,
                    _ => {
                        return Err(GameError::new(format!(
                            "first: '{v}' is not defender or attacker"
                        )))
                    }
                }
            }
            _ => {
                return Err(GameError::new(format!(
                    "unknown parameter '{k}' (points, seed, first)"
                )))
            }
        }
    }
    generate(p)
}

/// Board size of generated problems.
pub const GEN_SIZE: usize = 9;
/// Region sizes the generator takes.
pub const GEN_POINTS: std::ops::RangeInclusive<usize> = 2..=20;

/// A seeded one-eye problem (Black defends): a room of `points` points
/// grown at random on a 9x9 board (so it may touch the edges or a corner),
/// walled by the points next to it, each wall stone the defender's with
/// probability 3/5, and a few stones of either colour inside (up to a
/// third of the room). Draws are retried until every block has a liberty,
/// every wall block has one outside the room (the walls are safe), the
/// defender owns some wall and there is no eye yet. Graded by `points`.
pub fn generate(p: GenParams) -> Result<OneEye, GameError> {
    if !GEN_POINTS.contains(&p.points) {
        return Err(GameError::new(format!(
            "points: {} is not between {} and {}",
            p.points,
            GEN_POINTS.start(),
            GEN_POINTS.end()
        )));
    }
    let mut rng = Rng::new(splitmix64(
        p.seed ^ 0x6f6e_6565_7965 ^ (p.points as u64) << 48,
    ));
    let empty = Board::new(GEN_SIZE).expect("size");
    let mask = *empty.mask();
    for _ in 0..10_000 {
        // The room.
        let start = loop {
            let q = rng.below((GEN_SIZE * STRIDE) as u64) as usize;
            if mask.get(q) {
                break q;
            }
        };
        let mut room = Bits::single(start);
        while (room.count() as usize) < p.points {
            let border: Vec<usize> = room.border(&mask).iter().collect();
            room.set(border[rng.below(border.len() as u64) as usize]);
        }
        let walls = room.border(&mask);
        let mut b = empty;
        for q in walls.iter() {
            let c = if rng.below(5) < 3 {
                Color::Black
            } else {
                Color::White
            };
            b.set(q, Some(c));
        }
        // Stones inside.
        let inside = rng.below(p.points as u64 / 3 + 1);
        let cells: Vec<usize> = room.iter().collect();
        for _ in 0..inside {
            let q = cells[rng.below(cells.len() as u64) as usize];
            let c = if rng.below(2) == 0 {
                Color::Black
            } else {
                Color::White
            };
            b.set(q, Some(c));
        }
        let outside_empty = b.empty().minus(&room);
        let walls_safe = [Color::Black, Color::White].iter().all(|&c| {
            b.blocks(c)
                .iter()
                .filter(|blk| blk.intersects(&walls))
                .all(|blk| blk.border(&mask).intersects(&outside_empty))
        });
        if !walls_safe || !b.stones(Color::Black).intersects(&walls) {
            continue;
        }
        b.set_to_move(if p.defender_first {
            Color::Black
        } else {
            Color::White
        });
        let Ok(g) = OneEye::new(b, room, Color::Black) else {
            continue;
        };
        if g.has_eye() {
            continue;
        }
        return Ok(g);
    }
    Err(GameError::new(format!(
        "no problem found for {}",
        p.notation()
    )))
}

/// The exact value by the tree method: `Some(true)` when the player to
/// move in `g` wins, `None` when more than `max_nodes` positions would be
/// visited. Every line is searched in full from `g` (its root on the
/// line), each repetition a loss for the player who makes it.
pub fn tree_oracle(g: &OneEye, max_nodes: u64) -> Option<bool> {
    tree_oracle_line(std::slice::from_ref(g), max_nodes)
}

/// [`tree_oracle`] for the last position of `line` (oldest first), the
/// earlier ones on the line: a move back to any of them repeats.
pub fn tree_oracle_line(line: &[OneEye], max_nodes: u64) -> Option<bool> {
    let g = line.last().expect("a position");
    let mut keys: Vec<u64> = line.iter().map(|p| p.key()).collect();
    let mut budget = max_nodes;
    tree(g, &mut keys, &mut budget)
}

fn tree(g: &OneEye, line: &mut Vec<u64>, budget: &mut u64) -> Option<bool> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    if let Some(o) = g.outcome() {
        return Some(o == Outcome::Win);
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    for m in moves {
        let mut c = *g;
        c.play(m);
        let k = c.key();
        if line.contains(&k) {
            // The mover repeats: a loss for it.
            continue;
        }
        line.push(k);
        let v = tree(&c, line, budget);
        line.pop();
        if !v? {
            return Some(true);
        }
    }
    Some(false)
}

/// The GTP answer to `one_eye` (`defender_first`) or `one_eye_attack` on
/// the stone at `target` of `game`'s board, the region from the loaded
/// SGF: `1 MOVE` when the side moving first achieves its aim (the
/// defender makes an eye; the attacker prevents every eye) with MOVE its
/// first move, `0` when not, an error at the visit limit, past `time` or
/// once `stop` is set.
pub fn gtp_answer(
    game: &GoGame,
    region: Option<Bits>,
    target: usize,
    defender_first: bool,
    visits: u64,
    time: Option<std::time::Duration>,
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
) -> Result<String, String> {
    use pns_core::solve::{solve, SolveOptions};
    let region = region
        .ok_or("no region: loadsgf a record whose root marks the region with SQ".to_string())?;
    let b = game.board();
    let defender = b
        .color_at(target)
        .ok_or_else(|| format!("{} is empty", b.vertex(target)))?;
    let first = if defender_first {
        defender
    } else {
        defender.opponent()
    };
    let g = OneEye::new(*b, region, defender)
        .map_err(|e| e.0)?
        .with_first(first);
    let opts = SolveOptions {
        limits: pns_core::Limits {
            visits: Some(visits),
            time,
            stop,
            ..Default::default()
        },
        best_move: true,
        ..Default::default()
    };
    let r = solve(&g, "", &opts, &mut pns_core::Table::with_mb(64));
    match r.value {
        Some(Outcome::Win) => Ok(match r.best_move {
            Some(m) => format!("1 {}", g.format_move(m)),
            None => "1".into(),
        }),
        Some(_) => Ok("0".into()),
        None => Err(crate::gtp::unknown_within(visits, time)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 5x5 corner: Black walls round a four-point room at the top left.
    fn corner_room() -> OneEye {
        OneEye::from_sgf("(;FF[4]SZ[5]AB[ca][cb][ac][bc]PL[W]SQ[aa][ba][ab][bb]TR[ca])").unwrap()
    }

    #[test]
    fn eyes_need_safe_neighbours() {
        let mut g = corner_room();
        assert!(!g.has_eye());
        assert_eq!(g.defender(), Color::Black);
        // One black stone at B5 leaves no eye; with A4 too, both A5 and
        // B4 are surrounded by safe black stones.
        g.board.set(1, Some(Color::Black));
        assert!(!g.has_eye());
        g.board.set(STRIDE, Some(Color::Black));
        assert_eq!(g.eyes(), Bits::single(0) | Bits::single(STRIDE + 1));
        // Stones in the room only, no wall: nothing is safe.
        let lone = OneEye::from_sgf(
            "(;FF[4]SZ[5]AB[ba][ab]AW[ca][cb][ac][bc][bb]PL[W]SQ[aa][ba][ab]TR[ba])",
        );
        assert!(lone.is_err() || !lone.unwrap().has_eye());
    }

    #[test]
    fn passes_end_the_game_and_keys_tell_them_apart() {
        let g = corner_room();
        let mut p = g;
        p.play(Move::Pass);
        assert_ne!(p.key(), g.key());
        assert_eq!(p.outcome(), None);
        let mut q = p;
        q.play(Move::Pass);
        // Two passes, no eye: the attacker (White) won; Black is to move.
        assert_eq!(q.side_to_move(), Side::Second);
        assert_eq!(q.board.to_move(), Color::White);
        assert_eq!(q.outcome(), Some(Outcome::Win));
        assert_ne!(q.key(), g.key());
    }

    #[test]
    fn the_oracle_solves_a_small_room() {
        // Four empty points, Black walls: White to move cannot stop an eye
        // in the corner, and Black to move makes one at once.
        let g = corner_room();
        assert_eq!(tree_oracle(&g, 1_000_000), Some(false));
        let b = g.with_first(Color::Black);
        assert_eq!(tree_oracle(&b, 1_000_000), Some(true));
        assert_eq!(tree_oracle(&b, 1), None);
    }

    #[test]
    fn generated_problems_are_valid_and_round_trip() {
        for points in [2, 4, 8, 12, 20] {
            for seed in 0..20 {
                let p = GenParams {
                    points,
                    seed,
                    defender_first: seed % 2 == 0,
                };
                let g = generate(p).unwrap();
                assert_eq!(g.region().count() as usize, points);
                assert!(!g.has_eye() && g.outcome().is_none());
                let back = OneEye::parse_position(&g.to_sgf("x")).unwrap();
                assert_eq!(back, g, "{}", p.notation());
                assert_eq!(OneEye::parse_position(&p.notation()).unwrap(), g);
            }
        }
        assert!(OneEye::parse_position("points=1,seed=1").is_err());
        assert!(OneEye::parse_position("points=4,colour=b").is_err());
        assert!(OneEye::parse_position("nonsense").is_err());
    }
}
