//! Capturing problems: can the attacker capture a target block, or can its
//! owner save it (Yoshizoe, Kishimoto and Müller, "Lambda depth-first
//! proof number search and its application to Go", IJCAI 2007, §4: the
//! capturing problems of GNU Go's reading suite; see
//! `../shared/papers/README.md` for the clean summary of
//! `lambda-dfpn-go-capturing.txt`).
//!
//! # The problem
//!
//! A position, a *target* stone (its block is the target block; the
//! *defender* owns it, the *attacker* is the other colour) and the player
//! to move. The attacker wins when the target stone is gone from the
//! board (captured); the defender wins when the target block reaches
//! [`Capture::escape_libs`] liberties ([`DEFAULT_ESCAPE_LIBS`] = 5 unless
//! set: GNU Go's reading treats a block with about 4-5 liberties as safe,
//! and the suite's answers are GNU Go's) or is unconditionally alive by
//! Benson's rule ([`crate::benson`]: no attacker moves can capture it, so
//! this ends only lines the attacker could never win; the game's value is
//! the same). Both sides may pass.
//!
//! GNU Go's snapback rule ([`Capture::with_snapback`], on unless
//! `snapback=off`): a one-stone target taken into a *proper snapback* (the
//! capturing stones left with the target's point as their one liberty,
//! two of them next to it, so that the owner's stone played back there
//! takes them and keeps two liberties) is not captured, as GNU Go's
//! `attack1` (`engine/reading.c`) counts it: that capture ends the problem
//! as an escape.
//!
//! Optionally GNU Go's reading horizon ([`Horizon`], `horizon=gnugo`):
//! four liberties escape once more than 7 moves have been played since
//! the question's position, three once more than 16. Capture proofs are
//! searched under a horizon whatever the rule ([`capture_question`],
//! [`CAPTURE_HORIZON`]): a capture under one is a capture without it.
//!
//! # Ko and repetition
//!
//! Simple ko, as GNU Go reads: the board's ko point is illegal for the
//! player to move and is part of the position's key. Longer cycles (double
//! and triple ko, passes) are left to the engine's line: a repetition is a
//! loss for the side the question is about (`Repetition::FirstPlayerLoss`,
//! the root's side to move). [`attack`] always asks with the attacker to
//! move, and [`defend`] asks one attack question per defender reply, so
//! through them a cycle always counts as the attacker failing.
//!
//! GNU Go's ko results ([`attack_coded`], [`defend_coded`]) model ko
//! threats by exempting one side from the simple-ko ban: it may retake at
//! once, as a player with threats to spend. Nobody exempt, the first to
//! take a ko wins it. With the defender exempt, a capture of a one-stone
//! target by a ko capture is not final: the defender may retake at once
//! (a pending retake), as GNU Go does not count such a capture as
//! unconditional.
//!
//! # Move generators
//!
//! The paper's three (§4): [`Generator::H1`] (the target's liberties, the
//! liberties of adjacent attacker blocks short of liberties, and the
//! target's second liberties), [`Generator::H2`] (H1 and the points next
//! to them) and [`Generator::Board`] (every legal point). The generator
//! bounds the moves of both sides, and the pass is always one of them.
//!
//! # Notation
//!
//! `SGF|target=VERTEX[,first=attacker|defender][,move=N][,libs=K][,gen=h1|h2|board][,benson=on|off][,horizon=off|gnugo|F/T][,snapback=on|off]`
//! where SGF is a `.sgf` file name or an inline record (`(;FF[4]...)`),
//! loaded up to move N (the position before it; all moves when absent).
//! Moves are GTP vertices or `pass`.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use pns_core::dfpn::Plain;
use pns_core::prelude::*;
use pns_core::{
    GameError, Goal, GoalContext, GoalProblem, Outcome, Repetition, Side, Status, Table,
};

use crate::bits::Bits;
use crate::board::{Board, Color, Move};
use crate::game::KoRule;
pub use crate::halves::{Stopper, Tables};
use crate::lambda::LambdaParams;

/// Liberties at which the target block has escaped, unless set.
pub const DEFAULT_ESCAPE_LIBS: u32 = 5;

/// The horizon capture proofs are searched under unless set
/// ([`capture_question`]): four liberties an escape after 4 plies, three
/// after 10. Any horizon is sound there; this one, tighter than GNU Go's
/// 7/16, answered the most of GNU Go's passing cases at 3,000 visits
/// (53 of 113 against 52 with 7/16 and 49 without; 3/8, 4/8 and 5/12
/// gave 53 too, 2/6 and 7/12 52, 9/20 50: `docs/experiments/lambda.md`,
/// "A horizon for capture proofs").
pub const CAPTURE_HORIZON: Horizon = Horizon { four: 4, three: 10 };

/// The table of one `attack` or `defend` question, in MiB.
pub(crate) const TABLE_MB: usize = 16;

/// Hashed into the key with the simple-ko point.
const KO_SALT: u64 = 0x9e37_79b9_7f4a_7c15;

/// Hashed into the key with a pending retake (`Capture::retake`).
const RETAKE_SALT: u64 = 0x2545_f491_4f6c_dd1d;

/// Hashed into the key of a position whose target was taken into a
/// proper snapback (the same stones as a plain capture, another outcome).
const SNAPPED_SALT: u64 = 0x3c6e_f372_fe94_f82b;
const PASSED_SALT: u64 = 0x5be0_cd19_137e_2179;
const ENDED_SALT: u64 = 0x1f83_d9ab_fb41_bd6b;

/// Hashed into the key with the side that plays every point and the
/// generator.
const QUESTION_SALT: u64 = 0x51ed_270b_2f4a_99c3;

/// Hashed into the key with the ply under a reading horizon.
const PLY_SALT: u64 = 0x6a09_e667_f3bc_c909;

/// Hashed into the key with what defines the problem besides the
/// question: the target, the escape threshold, Benson's rule and the
/// snapback rule.
const PROBLEM_SALT: u64 = 0xbb67_ae85_84ca_a73b;

/// GNU Go's reading horizon: deeper in the reading, fewer liberties are
/// an escape. GNU Go's tactical reader (`engine/reading.c`, the comment
/// above `defend1`, with `FOURLIB_DEPTH` 7 and `DEPTH` 16 in
/// `engine/utils.c`) counts a block alive with 5 liberties, with 4 once
/// more than 7 moves have been played in the reading, and with 3 once
/// more than 16: its answers, and so the regression suite's expected
/// answers, are those of this game. With a horizon the escape threshold
/// of a position depends on its ply (moves, passes included, played since
/// the question's position), and the ply is part of the key.
///
/// A horizon only lowers the threshold, so the defender wins every line it
/// wins without one: a capture proven under a horizon is also a capture
/// without it (at the plain threshold); an escape proven under it is an
/// escape by GNU Go's convention only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Horizon {
    /// After this many plies, four liberties are an escape.
    pub four: u8,
    /// After this many plies, three liberties are.
    pub three: u8,
}

/// A question's two horizons: the rule's ([`Capture::with_horizon`]) and
/// the one its capture proofs are searched under
/// ([`Capture::with_capture_horizon`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Horizons {
    pub rule: Option<Horizon>,
    pub capture: Option<Horizon>,
}

impl Default for Horizons {
    /// No horizon in the rule, [`CAPTURE_HORIZON`] for capture proofs.
    fn default() -> Self {
        Horizons {
            rule: None,
            capture: Some(CAPTURE_HORIZON),
        }
    }
}

impl Horizon {
    /// The GNU Go 3.8 default depths (`FOURLIB_DEPTH`, `DEPTH`).
    pub const GNUGO: Horizon = Horizon { four: 7, three: 16 };

    /// `off`, `gnugo` (7/16) or `FOUR/THREE` (plies, at most 200 each).
    pub fn parse(v: &str) -> Result<Option<Horizon>, String> {
        match v {
            "off" | "none" => Ok(None),
            "gnugo" | "on" => Ok(Some(Horizon::GNUGO)),
            _ => {
                let bad = || format!("horizon: '{v}' is not off, gnugo or FOUR/THREE (plies)");
                let (f, t) = v.split_once('/').ok_or_else(bad)?;
                let n = |x: &str| x.trim().parse::<u8>().ok().filter(|n| *n <= 200);
                Ok(Some(Horizon {
                    four: n(f).ok_or_else(bad)?,
                    three: n(t).ok_or_else(bad)?,
                }))
            }
        }
    }

    /// The text [`Horizon::parse`] reads.
    pub fn describe(h: Option<Horizon>) -> String {
        match h {
            None => "off".to_string(),
            Some(h) => format!("{}/{}", h.four, h.three),
        }
    }

    /// The plies after which every threshold is the same: positions this
    /// deep or deeper share their key.
    fn last(self) -> u8 {
        self.four.max(self.three).saturating_add(1)
    }
}

/// Which moves a capturing search considers (the paper's §4 generators).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Generator {
    /// The target's liberties, the liberties of the attacker blocks next
    /// to it with fewer than the escape liberties, and second liberties.
    H1,
    /// H1 and the points next to those.
    H2,
    /// Every legal point.
    Board,
}

impl Generator {
    pub const ALL: [Generator; 3] = [Generator::H1, Generator::H2, Generator::Board];

    pub fn name(self) -> &'static str {
        match self {
            Generator::H1 => "h1",
            Generator::H2 => "h2",
            Generator::Board => "board",
        }
    }

    /// The generators whose points this one's include, narrowest first:
    /// what `widen` asks before it, on the same table, when the question
    /// starts at h1 (the default).
    pub fn narrower(self) -> &'static [Generator] {
        match self {
            Generator::H1 => &[],
            Generator::H2 => &[Generator::H1],
            Generator::Board => &[Generator::H1, Generator::H2],
        }
    }

    pub fn from_name(s: &str) -> Option<Generator> {
        match s {
            "h1" | "heuristic1" => Some(Generator::H1),
            "h2" | "heuristic2" => Some(Generator::H2),
            "board" => Some(Generator::Board),
            _ => None,
        }
    }
}

/// What the attacker's capture of a one-stone target at its liberty would
/// do (GNU Go's snapback test, `attack1` in `engine/reading.c`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SnapShape {
    /// The capturing stones: the liberty and the attacker blocks next to it.
    pub stones: Bits,
    /// Their liberties besides the target's point, before the capture.
    pub others: Bits,
    /// Whether two of them touch the target's point: the owner's stone
    /// played back there would have two liberties.
    pub twice: bool,
}

impl SnapShape {
    /// The capture of the one-stone target `t` by `attacker` at `p`, its
    /// liberty, on `b`.
    pub(crate) fn at(b: &Board, t: usize, p: usize, attacker: Color) -> SnapShape {
        let mut stones = Bits::single(p);
        let mut near = b.neighbours(p) & b.stones(attacker);
        while let Some(q) = near.first() {
            let blk = b.block(q);
            near = near.minus(&blk);
            stones |= blk;
        }
        SnapShape {
            stones,
            others: b.liberties(&stones),
            twice: (b.neighbours(t) & stones).count() >= 2,
        }
    }

    /// Whether the capture may be a proper snapback. Read before the move:
    /// a capture that also takes another defender block gives the stones
    /// liberties this does not see, so it can say yes where the capture
    /// is not one (`play_capturing` decides after the move, as GNU Go
    /// does), never the other way, and the shortcuts that read it (the
    /// capture at once, the ladder rule's cut) only hold back then.
    pub(crate) fn snaps_back(&self) -> bool {
        self.twice && self.others.is_empty()
    }
}

/// A position of a capturing problem.
#[derive(Clone, Copy)]
pub struct Capture {
    board: Board,
    target: u16,
    defender: Color,
    escape_libs: u32,
    gen: Generator,
    /// The side that may play every legal point whatever the generator:
    /// a capture proven with the defender complete, or an escape proven
    /// with the attacker complete, holds in Go and not only within the
    /// generator (see [`attack`]).
    complete: Option<Color>,
    /// The side exempt from the simple-ko ban, if any: it may retake a ko
    /// at once, as a player with unlimited ko threats could (GNU Go's ko
    /// results, [`attack_coded`]).
    ko_exempt: Option<Color>,
    /// The target block, kept as moves are played (empty once captured):
    /// every node reads it for the outcome, the heuristic and the moves,
    /// and a flood fill of a large block each time dominated the search.
    block: Bits,
    /// The target block's liberties, kept with it (read at every node by
    /// the outcome, the escape rule, the heuristic and the move order:
    /// reading the border at each of them cost 6 % of a capture search's
    /// instructions, docs/PERFORMANCE.md). Derived from the board and the
    /// block, so left out of equality and the key.
    libs: Bits,
    /// With the defender exempt from the ko ban: the target's point just
    /// after the attacker took a one-stone target by a ko capture. The
    /// defender may retake there at once, so the capture is not yet final
    /// (GNU Go does not count a capture the owner can take back by ko as
    /// unconditional); any other reply leaves it captured.
    retake: Option<u16>,
    /// Whether a target alive by Benson's rule counts as escaped (the
    /// default; [`Capture::with_benson`]).
    benson: bool,
    /// Where the target is known not alive by Benson's rule
    /// ([`crate::benson::dead_reads`]): the points that verdict read.
    /// Carried from move to move while no move lands on them and nothing
    /// is captured, so that most children of a wide node need no Benson's
    /// steps (they were a fifth of an escape search's time). Not part of
    /// the position: equality and hashing leave it out.
    dead_reads: Option<Bits>,
    /// GNU Go's reading horizon, if any ([`Horizon`]).
    horizon: Option<Horizon>,
    /// The problem's part of every key ([`Capture::problem_salt`]), fixed
    /// with the problem and hashed once, not at every key.
    problem_salt: u64,
    /// Whether a proper snapback fails the capture (the default;
    /// [`Capture::with_snapback`]).
    snapback: bool,
    /// The attacker has just taken the one-stone target into a proper
    /// snapback: the capture failed, and the defender has won.
    snapped: bool,
    /// The last move was a pass made where the mover had no ko ban: a
    /// second pass now would return to the state before the first.
    passed: bool,
    /// Two passes in a row ended the problem, the attacker failing
    /// ([`Capture::ended`]).
    ended: bool,
    /// Moves (passes included) played since the question's position,
    /// saturating; read only under a horizon.
    ply: u8,
    /// The horizon that [`capture_question`] searches capture proofs
    /// under (a search setting, not a rule: not in the key).
    capture_horizon: Option<Horizon>,
}

impl PartialEq for Capture {
    fn eq(&self, o: &Self) -> bool {
        self.board == o.board
            && self.target == o.target
            && self.escape_libs == o.escape_libs
            && self.gen == o.gen
            && self.complete == o.complete
            && self.ko_exempt == o.ko_exempt
            && self.retake == o.retake
            && self.benson == o.benson
            && self.snapback == o.snapback
            && self.snapped == o.snapped
            && self.passed == o.passed
            && self.ended == o.ended
            && self.horizon == o.horizon
            && self.ply_band() == o.ply_band()
            && self.capture_horizon == o.capture_horizon
    }
}

impl Eq for Capture {}

impl Hash for Capture {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.key().hash(h);
    }
}

impl Capture {
    /// The problem on `board` (its player to move first) for the block at
    /// `target`. Errors: an empty target, a block without liberties, a
    /// threshold below 2.
    pub fn new(
        board: Board,
        target: usize,
        escape_libs: u32,
        gen: Generator,
    ) -> Result<Capture, GameError> {
        let defender = board.color_at(target).ok_or_else(|| {
            GameError::new(format!("the target {} is empty", board.vertex(target)))
        })?;
        if escape_libs < 2 {
            return Err(GameError::new(
                "the escape threshold must be at least 2 liberties",
            ));
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
        let block = board.block(target);
        let mut g = Capture {
            board,
            target: target as u16,
            defender,
            escape_libs,
            gen,
            complete: None,
            ko_exempt: None,
            block,
            libs: board.liberties(&block),
            retake: None,
            benson: true,
            dead_reads: None,
            horizon: None,
            problem_salt: 0,
            snapback: true,
            snapped: false,
            passed: false,
            ended: false,
            ply: 0,
            capture_horizon: Some(CAPTURE_HORIZON),
        };
        g.problem_salt = g.problem_salt();
        Ok(g)
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn target(&self) -> usize {
        self.target as usize
    }

    pub fn defender(&self) -> Color {
        self.defender
    }

    pub fn attacker(&self) -> Color {
        self.defender.opponent()
    }

    /// Whether the defender is to retake a ko capture of its one-stone
    /// target (it may play only that or pass).
    pub(crate) fn pending_retake(&self) -> bool {
        self.retake.is_some()
    }

    /// The escape threshold of the question's position (the parameter;
    /// under a [`Horizon`] deeper positions may need fewer:
    /// [`Capture::threshold`]).
    pub fn escape_libs(&self) -> u32 {
        self.escape_libs
    }

    /// The liberties at which the target has escaped in this position.
    #[inline]
    pub fn threshold(&self) -> u32 {
        self.threshold_at(self.ply)
    }

    /// The threshold `plies` moves later.
    #[inline]
    pub(crate) fn threshold_after(&self, plies: u8) -> u32 {
        self.threshold_at(self.ply.saturating_add(plies))
    }

    #[inline]
    fn threshold_at(&self, ply: u8) -> u32 {
        let mut t = self.escape_libs;
        if let Some(h) = self.horizon {
            if ply > h.four {
                t = t.min(4);
            }
            if ply > h.three {
                t = t.min(3);
            }
        }
        t
    }

    /// The reading horizon, if any.
    pub fn horizon(&self) -> Option<Horizon> {
        self.horizon
    }

    /// The same problem under `h` (GNU Go's reading horizon, or none),
    /// its position the question's (ply 0).
    pub fn with_horizon(mut self, h: Option<Horizon>) -> Capture {
        self.horizon = h;
        self.ply = 0;
        self
    }

    /// The same problem with capture proofs searched under `h`
    /// ([`capture_question`]; `None`: under the problem's own rule).
    pub fn with_capture_horizon(mut self, h: Option<Horizon>) -> Capture {
        self.capture_horizon = h;
        self
    }

    /// The same problem with both horizons set.
    pub fn with_horizons(self, h: Horizons) -> Capture {
        self.with_horizon(h.rule).with_capture_horizon(h.capture)
    }

    /// The horizon capture proofs are searched under, if any.
    pub fn capture_horizon(&self) -> Option<Horizon> {
        self.capture_horizon
    }

    /// Moves played since the question's position (saturating at 255).
    pub fn ply(&self) -> u8 {
        self.ply
    }

    /// The ply as far as it matters: 0 without a horizon, and one value
    /// for every ply past the horizon's last change.
    #[inline]
    fn ply_band(&self) -> u8 {
        match self.horizon {
            None => 0,
            Some(h) => self.ply.min(h.last()),
        }
    }

    pub fn generator(&self) -> Generator {
        self.gen
    }

    /// The same problem with `c` to move (the ko point is kept only when
    /// the player to move does not change).
    pub fn with_first(mut self, c: Color) -> Capture {
        if self.board.to_move() != c {
            self.board.set_to_move(c);
        }
        self
    }

    /// The same problem with `c` playing every legal point.
    pub fn with_complete(mut self, c: Option<Color>) -> Capture {
        self.complete = c;
        self
    }

    /// The same problem with `c` exempt from the simple-ko ban (the ban
    /// lifted now if `c` is to move).
    pub fn with_ko_exempt(mut self, c: Option<Color>) -> Capture {
        self.ko_exempt = c;
        if c == Some(self.board.to_move()) {
            self.board.clear_ko();
        }
        self
    }

    /// The same problem with (`true`, the default) or without Benson's
    /// rule: without it the target escapes at the threshold alone, and a
    /// two-eyed target below it is left to the search (its value is the
    /// same: the attacker never captures it).
    pub fn with_benson(mut self, on: bool) -> Capture {
        self.benson = on;
        self.problem_salt = self.problem_salt();
        self
    }

    /// Whether Benson's rule ends the problem ([`Capture::with_benson`]).
    pub fn benson(&self) -> bool {
        self.benson
    }

    /// The side exempt from the simple-ko ban, if any.
    pub fn ko_exempt(&self) -> Option<Color> {
        self.ko_exempt
    }

    /// The side that plays every legal point, if any.
    pub fn complete(&self) -> Option<Color> {
        self.complete
    }

    /// Which side plays every point and which is exempt from the ko ban,
    /// as one small number: the question's part that a generator leaves
    /// alone ([`generator_delta`]).
    #[inline]
    pub(crate) fn sides_code(&self) -> u64 {
        let side = |c: Option<Color>| match c {
            None => 0,
            Some(Color::Black) => 1,
            Some(Color::White) => 2,
        };
        side(self.complete) + 3 * side(self.ko_exempt)
    }

    /// Plays `m` (legal) and returns the stones it captured.
    pub(crate) fn play_capturing(&mut self, m: Move) -> Bits {
        let mover = self.board.to_move();
        self.ply = self.ply.saturating_add(1);
        if m == Move::Pass {
            if self.passed {
                self.ended = true;
            }
            self.passed = self.board.ko_point().is_none();
        } else {
            self.passed = false;
        }
        let dead = match self.dead_reads {
            Some(r) => Some(r),
            None if self.benson && !self.block.is_empty() => {
                crate::benson::dead_reads(&self.board, &self.block)
            }
            None => None,
        };
        let captured = self.board.play(m, true).expect("capture: a legal move");
        // The verdict read nothing this move changes: the blocks and the
        // regions it read are the same (the reads hold the points next to
        // the target, so the target has not grown either).
        self.dead_reads = dead
            .filter(|r| captured.is_empty() && !matches!(m, Move::Play(p) if r.get(p as usize)));
        if let Some(r) = self.retake.take() {
            // The defender retakes the ko: the target stands again as the
            // new stone (any other reply leaves it captured for good).
            if m == Move::Play(r) {
                self.block = Bits::single(r as usize);
            }
        } else {
            // Only an exempt defender's one-stone target can be retaken.
            let single = self.block.count() == 1;
            let one_stone = self.ko_exempt == Some(self.defender) && single;
            self.follow_block(mover, m, &captured);
            if let Move::Play(p) = m {
                if self.snapback && single && self.block.is_empty() {
                    // GNU Go's proper snapback (`attack1`): the capturing
                    // stones left with the target's point as their one
                    // liberty, and two of them next to it.
                    let t = self.target as usize;
                    let c = self.board.block(p as usize);
                    self.snapped = self.board.liberties(&c) == Bits::single(t)
                        && (self.board.neighbours(t) & c).count() >= 2;
                }
            }
            if one_stone
                && self.block.is_empty()
                && self.board.ko_point() == Some(self.target as usize)
            {
                self.retake = Some(self.target);
            }
        }
        if self.ko_exempt == Some(self.board.to_move()) {
            self.board.clear_ko();
        }
        self.libs = self.board.liberties(&self.block);
        captured
    }

    /// A pass that is no move of the game (λ-df-pn's pass below the
    /// unrestricted level, whose answer is a threat check): played as a
    /// pass, but two of them do not end the problem.
    pub(crate) fn play_pseudo_pass(&mut self) {
        self.play_capturing(Move::Pass);
        self.passed = false;
        self.ended = false;
    }

    /// Whether the attacker's capture of the target at `p` (its one
    /// liberty) could be taken back at once: a one-stone target taken by
    /// a ko capture while the defender is exempt from the ban.
    ///
    /// Read from the neighbours of `p`, without playing the move (every
    /// node's [`SearchHooks::known_outcome`] asks this where the target is
    /// one stone in atari: playing it on a copy of the board took a tenth
    /// of the search's time on `reading 5`). The capture is legal unless
    /// `p` is the ko point, and it is a ko capture (the board's rule) when
    /// it takes the target alone and leaves the new stone with the
    /// target's point as its one liberty: every other neighbour of `p` a
    /// defender stone whose block keeps a liberty besides `p`.
    pub(crate) fn capture_is_retakable(&self, p: usize) -> bool {
        if self.ko_exempt != Some(self.defender) || self.block.count() != 1 {
            return false;
        }
        let b = &self.board;
        if b.to_move() != self.attacker() || b.ko_point() == Some(p) {
            return false;
        }
        let nb = b.neighbours(p);
        if !nb.intersects(&self.block) || nb.intersects(&b.stones(self.attacker())) {
            return false;
        }
        let here = Bits::single(p);
        let mut others = nb.minus(&self.block);
        while let Some(q) = others.first() {
            // Occupied by a defender stone, or empty (a second liberty).
            let blk = b.block(q);
            if blk.is_empty() {
                return false;
            }
            others = others.minus(&blk);
            if b.liberties(&blk) == here {
                // Taken with the target: two stones, no ko.
                return false;
            }
        }
        true
    }

    /// [`Capture::capture_is_retakable`] by playing the capture on a copy
    /// of the board: the definition the fast reading is tested against.
    #[cfg(test)]
    fn capture_is_retakable_by_play(&self, p: usize) -> bool {
        if self.ko_exempt != Some(self.defender) || self.block.count() != 1 {
            return false;
        }
        let mut b = self.board;
        b.play(Move::Play(p as u16), true).is_ok() && b.ko_point() == self.block.first()
    }

    /// Where the target is one stone in atari and a proper snapback can
    /// fail its capture ([`Capture::with_snapback`]): what a capture at its
    /// liberty would do ([`SnapShape`]).
    pub(crate) fn snap_shape(&self) -> Option<SnapShape> {
        if !self.snapback || self.block.count() != 1 || self.retake.is_some() {
            return None;
        }
        let libs = self.target_libs();
        if libs.count() != 1 {
            return None;
        }
        let p = libs.first()?;
        Some(SnapShape::at(
            &self.board,
            self.target as usize,
            p,
            self.attacker(),
        ))
    }

    /// Whether the attacker's capture of the target at `p` fails: taken
    /// back by ko ([`Capture::capture_is_retakable`]) or caught in a proper
    /// snapback.
    pub(crate) fn capture_fails(&self, p: usize) -> bool {
        self.capture_is_retakable(p) || self.snap_shape().is_some_and(|s| s.snaps_back())
    }

    /// Keeps [`Capture::block`] after `mover` played `m`, capturing
    /// `captured`: the block only grows by the defender's moves next to it
    /// and only goes by a capture (a block is captured whole).
    #[inline]
    fn follow_block(&mut self, mover: Color, m: Move, captured: &Bits) {
        if self.block.is_empty() {
            return;
        }
        if mover == self.defender {
            if let Move::Play(p) = m {
                if self.block.dilate(self.board.mask()).get(p as usize) {
                    self.block = Bits::flood(
                        self.block | Bits::single(p as usize),
                        &self.board.stones(self.defender),
                    );
                }
            }
        } else if captured.intersects(&self.block) {
            self.block = Bits::EMPTY;
        }
    }

    pub fn with_generator(mut self, g: Generator) -> Capture {
        self.gen = g;
        self
    }

    /// Whether two passes in a row ended the problem: the attacker failed.
    /// The first pass counts only where its player had no ko ban, so the
    /// two passes return to the state before them. That return was a
    /// repetition before this rule, which the attacker loses too (the
    /// answers are the same), but a repetition's value depends on the
    /// line and is kept in twin entries, which no zone walk reads: the
    /// end of the problem is a terminal of its own, and the relevance
    /// zones can read back a seki or any other escape where the defender
    /// ends by passing (`zone.rs`, "Two passes").
    #[inline]
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// Whether the target has been taken off the board (by a capture, or
    /// into a proper snapback, which counts as an escape: [`Capture::snapped`]).
    #[inline]
    pub fn captured(&self) -> bool {
        self.block.is_empty()
    }

    /// Whether the target was just taken into a proper snapback: the
    /// capture failed ([`Capture::with_snapback`]).
    #[inline]
    pub fn snapped(&self) -> bool {
        self.snapped
    }

    /// The same problem with (`true`, the default) or without GNU Go's
    /// snapback rule. GNU Go's `attack1` (`engine/reading.c`) does not count
    /// the capture of a one-stone target as a success when it is a *proper
    /// snapback*: the capturing stones are left with one liberty, the
    /// target's point, and the owner's stone played back there takes them
    /// and has two liberties or more (it touches two of them). Here such a
    /// capture ends the problem as an escape. Without the rule every
    /// capture counts, and the snapback is left to the owner's retake
    /// after it (which the problem does not read).
    pub fn with_snapback(mut self, on: bool) -> Capture {
        self.snapback = on;
        self.problem_salt = self.problem_salt();
        self
    }

    /// What the key holds of the problem itself: the target, the
    /// threshold, Benson's and the snapback rule.
    fn problem_salt(&self) -> u64 {
        let problem = self.target as u64
            | (self.escape_libs as u64) << 16
            | (self.benson as u64) << 48
            | (self.snapback as u64) << 49;
        pns_core::rng::splitmix64(PROBLEM_SALT ^ problem)
    }

    /// Whether the snapback rule is on ([`Capture::with_snapback`]).
    pub fn snapback(&self) -> bool {
        self.snapback
    }

    /// Whether the target has escaped: on the board with the threshold's
    /// liberties, unconditionally alive ([`crate::benson`]), or taken into
    /// a proper snapback ([`Capture::snapped`]).
    #[inline]
    pub fn escaped(&self) -> bool {
        self.snapped
            || (!self.captured()
                && (self.target_libs().count() >= self.threshold()
                    || (self.benson
                        && self.dead_reads.is_none()
                        && crate::benson::alive(&self.board, &self.block))))
    }

    /// Where the target (on the board, below the threshold) is
    /// unconditionally alive: the points that life rests on
    /// ([`crate::benson::alive_area`]).
    pub fn alive_area(&self) -> Option<Bits> {
        crate::benson::alive_area(&self.board, &self.block)
    }

    /// The target block (empty once captured).
    #[inline]
    pub fn target_block(&self) -> Bits {
        self.block
    }

    /// The distance initialisation (the paper's Go-specific one), as the
    /// proof and disproof numbers of "the attacker captures": about as many
    /// moves to capture as the target has liberties, to escape as it lacks.
    #[inline]
    pub fn distance(&self) -> (u64, u64) {
        let need = self.threshold();
        let libs = self.target_libs().count().min(need) as u64;
        (libs.max(1), (need as u64 - libs).max(1))
    }

    /// The target block's liberties.
    #[inline]
    pub fn target_libs(&self) -> Bits {
        debug_assert_eq!(self.libs, self.board.liberties(&self.block));
        self.libs
    }

    /// [`SearchHooks::search_moves`] kept to the points of `region` (and
    /// the pass): the same moves in the same order, without the legality
    /// of the points off `region` checked (the zones' kept moves and the
    /// ladder rule's lifts are a few points of 361).
    pub(crate) fn search_moves_within(&self, region: &Bits, out: &mut Vec<Move>) {
        let start = out.len();
        self.legal_within(Some(region), out);
        self.liberties_first(out, start);
    }

    /// The legal moves (`Rules::legal_moves`) on the points of `region`
    /// (all of them with `None`), the pass last.
    fn legal_within(&self, region: Option<&Bits>, out: &mut Vec<Move>) {
        if let Some(r) = self.retake {
            // Retake or lose the target.
            if region.is_none_or(|z| z.get(r as usize)) {
                out.push(Move::Play(r));
            }
            out.push(Move::Pass);
            return;
        }
        let mut c = self.candidates();
        if let Some(z) = region {
            c &= *z;
        }
        self.board.legal_points(Some(&c), true, out);
        out.push(Move::Pass);
    }

    /// `out[start..]` (the pass last, if there) with the target's
    /// liberties first, each part in its order: the few liberties are
    /// rotated to the front one by one, where a stable sort of some 250
    /// moves allocated at every expansion (a tenth of an escape search's
    /// time on 19x19).
    fn liberties_first(&self, out: &mut [Move], start: usize) {
        let libs = self.target_libs();
        let mut front = start;
        for i in start..out.len() {
            if matches!(out[i], Move::Play(p) if libs.get(p as usize)) {
                out[front..=i].rotate_right(1);
                front += 1;
            }
        }
        debug_assert!(out[start..]
            .iter()
            .position(|m| *m == Move::Pass)
            .is_none_or(|i| start + i == out.len() - 1));
    }

    /// The points the generator allows (occupied ones included; legality
    /// is checked apart).
    pub fn candidates(&self) -> Bits {
        let b = &self.board;
        let mask = b.mask();
        if self.gen == Generator::Board || self.complete == Some(b.to_move()) {
            return b.empty();
        }
        let blk = self.target_block();
        let libs = self.target_libs();
        let mut set = libs | libs.adjacent(mask);
        for a in b.adjacent_blocks(&blk) {
            let l = b.liberties(&a);
            // The question's threshold, not the ply's: under a horizon the
            // moves stay those of the plain rule, so that a horizon only
            // adds escapes (`capture_question`).
            if l.count() < self.escape_libs {
                set |= l;
            }
        }
        if self.gen == Generator::H2 {
            set = set.dilate(mask);
        }
        set & b.empty()
    }
}

impl fmt::Debug for Capture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Notation::render(self))
    }
}

impl Rules for Capture {
    type Move = Move;
    const NAME: &'static str = "go-capture";
    const HAS_DRAWS: bool = false;

    #[inline]
    fn side_to_move(&self) -> Side {
        self.board.to_move().side()
    }

    fn outcome(&self) -> Option<Outcome> {
        let attacker_wins = if self.snapped || self.ended {
            false
        } else if self.captured() {
            if self.retake.is_some() {
                return None;
            }
            true
        } else if self.escaped() {
            false
        } else {
            return None;
        };
        let attacker_to_move = self.board.to_move() == self.attacker();
        Some(if attacker_wins == attacker_to_move {
            Outcome::Win
        } else {
            Outcome::Loss
        })
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.legal_within(None, out);
    }

    fn play(&mut self, m: Move) {
        self.play_capturing(m);
    }

    /// The position, the question, the state of the problem's rules and
    /// the problem itself (the target, the threshold, Benson's and the
    /// snapback rule): two problems on one board never share an entry, so
    /// a table may hold the searches of several targets
    /// (`either::split_capture` asks about two) or thresholds.
    #[inline]
    fn key(&self) -> u64 {
        let mut k = self.history_key() ^ self.problem_salt;
        debug_assert_eq!(self.problem_salt, self.problem_salt());
        if self.passed {
            k ^= PASSED_SALT;
        }
        if self.ended {
            k ^= ENDED_SALT;
        }
        if let Some(h) = self.horizon {
            // The horizon's depths and how deep this position is in it.
            let band = self.ply_band() as u64 | (h.four as u64) << 8 | (h.three as u64) << 16;
            k ^= pns_core::rng::splitmix64(PLY_SALT ^ band);
        }
        k
    }

    fn repetition(&self) -> Repetition {
        Repetition::FirstPlayerLoss
    }

    /// A repetition is the attacker's failure also when the target's owner
    /// is to move and the question is whether it saves the target.
    fn repetition_loser(&self) -> Option<Side> {
        Some(self.attacker().side())
    }

    /// The position and the question without the ply: under a horizon the
    /// same position deeper in the reading is a repetition all the same,
    /// so a horizon changes no line's repetition, only its thresholds
    /// (and a capture proven under it stays one without it).
    #[inline]
    fn history_key(&self) -> u64 {
        let mut k = self.board.situational_key();
        if let Some(p) = self.board.ko_point() {
            k ^= pns_core::rng::splitmix64(KO_SALT ^ p as u64);
        }
        // The question, too: which side plays every point and the
        // generator. `attack` and `defend` run the defender-complete and
        // the attacker-complete searches on one table, and a disproof with
        // the attacker bounded by the generator is no disproof where it
        // plays every point (nor a proof with the defender bounded one
        // where the defender plays every point).
        if let Some(r) = self.retake {
            k ^= pns_core::rng::splitmix64(RETAKE_SALT ^ r as u64);
        }
        if self.snapped {
            k ^= SNAPPED_SALT;
        }
        k ^ question_word(self.sides_code(), self.gen)
    }
}

/// The key's word for the question: the sides ([`Capture::sides_code`])
/// and the generator.
#[inline]
fn question_word(sides: u64, gen: Generator) -> u64 {
    let q = sides % 3 + 3 * gen as u64 + 9 * (sides / 3);
    pns_core::rng::splitmix64(QUESTION_SALT ^ q)
}

/// The XOR that turns a position's key under generator `a` into its key
/// under `b`, the sides ([`Capture::sides_code`]) the same: the generator
/// is in the key through the question's word alone, so the same position
/// under a narrower generator is found without computing its key again
/// (λ-df-pn reads narrower questions' results at every child it creates).
#[inline]
pub(crate) fn generator_delta(sides: u64, a: Generator, b: Generator) -> u64 {
    question_word(sides, a) ^ question_word(sides, b)
}

impl SearchHooks for Capture {
    /// An attacker to move with the target in atari captures at once
    /// (unless the liberty is the ko point or suicide).
    fn known_outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.outcome() {
            return Some(o);
        }
        if self.board.to_move() == self.attacker() {
            let libs = self.target_libs();
            if libs.count() == 1 {
                let p = libs.first().expect("one liberty");
                // The capture at the target's one liberty is legal but
                // on the ko point (it takes the target).
                if self.board.ko_point() != Some(p) && !self.capture_fails(p) {
                    return Some(Outcome::Win);
                }
            }
        }
        None
    }

    /// The attacker's moves first at the target's liberties (the paper's
    /// move ordering is by distance to the target).
    fn search_moves(&self, out: &mut Vec<Move>) {
        // Only what this call appends is ordered: a caller may keep the
        // moves of other nodes below them (Kawano's simulation once did).
        let start = out.len();
        self.legal_moves(out);
        self.liberties_first(out, start);
    }

    /// Distance to the target's fate (the paper's Go-specific
    /// initialisation): proving a capture costs about as many moves as the
    /// target has liberties, disproving it about as many as it lacks.
    fn heuristic(&self, ctx: GoalContext) -> (u64, u64) {
        let (to_capture, to_escape) = self.distance();
        if ctx.attacker == self.attacker().side() {
            (to_capture, to_escape)
        } else {
            (to_escape, to_capture)
        }
    }
}

impl Shortcuts for Capture {}
impl Playout for Capture {}

/// The options of a problem's notation, after `|`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    pub target: String,
    pub attacker_first: bool,
    pub move_number: Option<usize>,
    pub escape_libs: u32,
    pub gen: Generator,
    /// The side that plays every legal point ([`Capture::with_complete`]):
    /// `Some(true)` the attacker, `Some(false)` the defender.
    pub complete: Option<bool>,
    /// The side exempt from the simple-ko ban ([`Capture::with_ko_exempt`]):
    /// `Some(true)` the attacker, `Some(false)` the defender.
    pub exempt: Option<bool>,
    /// Benson's rule ([`Capture::with_benson`]): `benson=off` leaves it out.
    pub benson: bool,
    /// GNU Go's reading horizon ([`Horizon`]): `horizon=gnugo` or `7/16`.
    pub horizon: Option<Horizon>,
    /// GNU Go's snapback rule ([`Capture::with_snapback`]): `snapback=off`
    /// counts every capture.
    pub snapback: bool,
}

/// `attacker` → `Some(true)`, `defender` → `Some(false)`, `none` → `None`.
fn role(k: &str, v: &str) -> Result<Option<bool>, GameError> {
    match v {
        "attacker" => Ok(Some(true)),
        "defender" => Ok(Some(false)),
        "none" => Ok(None),
        _ => Err(GameError::new(format!(
            "{k}: '{v}' is not attacker, defender or none"
        ))),
    }
}

/// The name [`role`] reads.
fn role_name(r: Option<bool>) -> &'static str {
    match r {
        Some(true) => "attacker",
        Some(false) => "defender",
        None => "none",
    }
}

impl Spec {
    /// Reads `target=V,first=attacker|defender,move=N,libs=K,gen=G,
    /// complete=attacker|defender|none,exempt=attacker|defender|none,
    /// benson=on|off,horizon=off|gnugo|FOUR/THREE,snapback=on|off`.
    pub fn parse(s: &str) -> Result<Spec, GameError> {
        let mut spec = Spec {
            target: String::new(),
            attacker_first: true,
            move_number: None,
            escape_libs: DEFAULT_ESCAPE_LIBS,
            gen: Generator::H1,
            complete: None,
            exempt: None,
            benson: true,
            horizon: None,
            snapback: true,
        };
        for kv in s.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| GameError::new(format!("'{kv}' is not name=value")))?;
            let num = || {
                v.parse::<u64>()
                    .map_err(|_| GameError::new(format!("{k}: '{v}' is not a number")))
            };
            match k {
                "target" => spec.target = v.to_string(),
                "first" => {
                    spec.attacker_first = match v {
                        "attacker" => true,
                        "defender" => false,
                        _ => {
                            return Err(GameError::new(format!(
                                "first: '{v}' is not attacker or defender"
                            )))
                        }
                    }
                }
                "move" => spec.move_number = Some(num()? as usize),
                "libs" => spec.escape_libs = num()?.min(400) as u32,
                "gen" => {
                    spec.gen = Generator::from_name(v).ok_or_else(|| {
                        GameError::new(format!("gen: '{v}' is not h1, h2 or board"))
                    })?
                }
                "complete" => spec.complete = role(k, v)?,
                "exempt" => spec.exempt = role(k, v)?,
                "benson" => spec.benson = crate::lambda::on_off(k, v).map_err(GameError::new)?,
                "horizon" => spec.horizon = Horizon::parse(v).map_err(GameError::new)?,
                "snapback" => {
                    spec.snapback = crate::lambda::on_off(k, v).map_err(GameError::new)?
                }
                _ => {
                    return Err(GameError::new(format!(
                        "unknown option '{k}' (target, first, move, libs, gen, complete, exempt, benson, horizon, snapback)"
                    )))
                }
            }
        }
        if spec.target.is_empty() {
            return Err(GameError::new("no target: add target=VERTEX"));
        }
        Ok(spec)
    }

    /// The options of the question `g` asks about its target `target`
    /// (a vertex) in the text [`Spec::parse`] reads: who moves first, the
    /// threshold, the generator, the complete side and the ko exemption
    /// (and Benson's rule and the snapback rule where they are off).
    pub fn describe(g: &Capture, target: &str, move_number: Option<usize>) -> String {
        let who = |c: Option<Color>| c.map(|c| c == g.attacker());
        let mut s = format!(
            "target={target},first={}",
            if g.board().to_move() == g.attacker() {
                "attacker"
            } else {
                "defender"
            }
        );
        if let Some(n) = move_number {
            s += &format!(",move={n}");
        }
        s += &format!(
            ",libs={},gen={},complete={},exempt={}",
            g.escape_libs(),
            g.generator().name(),
            role_name(who(g.complete())),
            role_name(who(g.ko_exempt()))
        );
        if !g.benson() {
            s += ",benson=off";
        }
        if g.horizon().is_some() {
            s += &format!(",horizon={}", Horizon::describe(g.horizon()));
        }
        if !g.snapback() {
            s += ",snapback=off";
        }
        s
    }
}

/// Builds a problem from an SGF text and its options.
pub fn from_sgf(text: &str, spec: &Spec) -> Result<Capture, GameError> {
    let l = crate::sgf::load(text, spec.move_number, KoRule::Simple).map_err(GameError::new)?;
    let b = *l.game.board();
    let Move::Play(t) = b.parse_vertex(&spec.target).map_err(GameError::new)? else {
        return Err(GameError::new("the target is a stone, not pass"));
    };
    let g = Capture::new(b, t as usize, spec.escape_libs, spec.gen)?;
    let side = |attacker: bool| {
        if attacker {
            g.attacker()
        } else {
            g.defender()
        }
    };
    Ok(g.with_first(side(spec.attacker_first))
        .with_complete(spec.complete.map(side))
        .with_ko_exempt(spec.exempt.map(side))
        .with_benson(spec.benson)
        .with_snapback(spec.snapback)
        .with_horizon(spec.horizon))
}

impl Notation for Capture {
    fn parse_position(s: &str) -> Result<Self, GameError> {
        let (sgf, opts) = s.rsplit_once('|').ok_or_else(|| {
            GameError::new(
                "a capturing problem is SGF|target=VERTEX[,first=..,move=N,libs=K,gen=..,complete=..,exempt=..,benson=on|off,horizon=off|gnugo|F/T,snapback=on|off]",
            )
        })?;
        let spec = Spec::parse(opts)?;
        let t = sgf.trim();
        let text = if t.starts_with('(') {
            t.to_string()
        } else {
            crate::sgf::read_text(std::path::Path::new(t)).map_err(GameError::new)?
        };
        from_sgf(&text, &spec)
    }

    fn parse_move(&self, s: &str) -> Result<Move, GameError> {
        let m = self.board.parse_vertex(s).map_err(GameError::new)?;
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        if !legal.contains(&m) {
            return Err(GameError::new(format!(
                "{} is not a legal move here (occupied, suicide, ko or outside the generator's moves)",
                s.trim()
            )));
        }
        Ok(m)
    }

    fn format_move(&self, m: Move) -> String {
        self.board.format_move(m)
    }

    fn render(&self) -> String {
        format!(
            "{}\n{} to move; target {} ({}, {} liberties, escapes at {}); generator {}{}",
            self.board.render(),
            self.board.to_move(),
            self.board.vertex(self.target()),
            self.defender,
            self.target_libs().count(),
            self.threshold(),
            self.gen.name(),
            match self.ko_exempt {
                Some(c) => format!("; {c} exempt from the ko ban"),
                None => String::new(),
            } + if self.benson {
                ""
            } else {
                "; Benson's rule off"
            } + if self.snapback {
                ""
            } else {
                "; snapback rule off"
            } + &match self.horizon {
                Some(h) => format!(
                    "; GNU Go's horizon: 4 after {} plies, 3 after {} (ply {})",
                    h.four, h.three, self.ply
                ),
                None => String::new(),
            }
        )
    }
}

/// The answer to a capturing question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The side asked about succeeds, with a first move (`None` when it
    /// has already succeeded).
    Succeeds(Option<Move>),
    /// It fails.
    Fails,
    /// No answer within the limits.
    Unknown,
}

/// What a solving call spent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effort {
    pub visits: u64,
    pub searches: u64,
}

impl Effort {
    /// Counts one search with these statistics (its visits, nested
    /// searches' included) and returns its `status`.
    pub fn count(&mut self, stats: &pns_core::Stats, status: pns_core::Status) -> pns_core::Status {
        self.visits += stats.visits;
        self.searches += 1;
        status
    }

    /// Adds `other`'s effort (a search run on another thread).
    pub fn add(&mut self, other: &Effort) {
        self.visits += other.visits;
        self.searches += other.searches;
    }
}

/// How a question runs besides its search: its threads (2 or more run
/// its capture and escape halves, and its two ko questions, at once:
/// [`attack_decided`]) and a stop request from outside ([`Stopper`]: a
/// time limit, [`Stopper::within`]), after which it answers unknown; and
/// the tables its searches keep for the next round of a deepening
/// question ([`ask`]), none for fresh tables.
#[derive(Clone, Copy, Default)]
pub struct Run<'a> {
    pub threads: usize,
    pub stop: Option<&'a Stopper>,
    pub tables: Option<&'a Tables>,
}

impl Run<'_> {
    /// `threads` threads, no stop request, fresh tables.
    pub fn threads(threads: usize) -> Run<'static> {
        Run::stopping(threads, None)
    }

    /// `threads` threads stopped by `stop`, fresh tables.
    pub fn stopping(threads: usize, stop: Option<&Stopper>) -> Run<'_> {
        Run {
            threads,
            stop,
            tables: None,
        }
    }

    /// Whether the stop request came.
    fn stopped(&self) -> bool {
        self.stop.is_some_and(Stopper::stopped)
    }
}

/// The GHI treatment of every capturing search: DUP (twin entries per
/// path, the GHI paper §3.1-3.2; GHI-safe). Not the engine's default
/// NOCYCLE, whose simulations are not bounded by the visit limit: on GNU
/// Go's case nando 151 one df-pn search of 1,000 visits replayed 9 million
/// nodes in 796 simulations and took a minute, with DUP 0.4 s.
pub fn path_options() -> pns_core::dfpn::PathOptions<'static> {
    pns_core::dfpn::PathOptions {
        mode: pns_core::dfpn::GhiMode::Dup,
        ..Default::default()
    }
}

/// Plain df-pn with the heuristic initialisation on "the attacker
/// captures" from `g` (either side to move; the attacker is the goal's
/// side, so a repetition counts as the attacker failing): Proven,
/// Disproven or Unknown.
pub fn attack_status(
    g: &Capture,
    visits: u64,
    tt: &Table,
    effort: &mut Effort,
) -> pns_core::Status {
    attack_status_with(g, Plain::default(), visits, tt, effort)
}

/// [`attack_status`] with the df-pn policy `pol` (plain df-pn, or df-pn
/// with Kawano's simulation, the paper's baseline: [`Solver::Kawano`]).
pub fn attack_status_with<Pol: pns_core::dfpn::DfpnPolicy>(
    g: &Capture,
    pol: Pol,
    visits: u64,
    tt: &Table,
    effort: &mut Effort,
) -> pns_core::Status {
    let r = attack_search_on_line(g, pol, visits, tt, &[]);
    effort.count(&r.stats, r.status)
}

/// df-pn with `pol` on "the attacker captures" from `g` reached by a line
/// (`prefix`: the history keys of the positions before it, oldest first;
/// a repetition of one is the attacker's failure), under DUP.
pub fn attack_search_on_line<Pol: pns_core::dfpn::DfpnPolicy>(
    g: &Capture,
    pol: Pol,
    visits: u64,
    tt: &Table,
    prefix: &[u64],
) -> pns_core::SearchResult {
    let limits = pns_core::Limits {
        visits: Some(visits),
        ..Default::default()
    };
    attack_search_limited(g, pol, &limits, tt, prefix)
}

/// [`attack_search_on_line`] within `limits`.
pub(crate) fn attack_search_limited<Pol: pns_core::dfpn::DfpnPolicy>(
    g: &Capture,
    pol: Pol,
    limits: &pns_core::Limits,
    tt: &Table,
    prefix: &[u64],
) -> pns_core::SearchResult {
    let mut p = GoalProblem::with_attacker(*g, Goal::Win, g.attacker().side());
    let paths = pns_core::dfpn::PathOptions {
        prefix,
        ..path_options()
    };
    pns_core::dfpn::search_with(&mut p, pol, tt, limits, &paths)
}

/// The search behind [`attack_with`] and [`defend_with`]: plain df-pn
/// with the distance initialisation, the same with Kawano's simulation
/// (the paper's baseline, §4: "df-pn with ... Kawano's simulation") or
/// λ-df-pn ([`crate::lambda`], pseudo λ-search and simulation among its
/// parameters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Solver {
    #[default]
    Dfpn,
    /// df-pn with Kawano's simulation ([`pns_core::dfpn::kawano`]):
    /// `dfpn:kawano=on`.
    Kawano,
    Lambda(LambdaParams),
    /// df-pn with the complete side zoned ([`crate::zone`]).
    Zone(crate::zone::ZoneParams),
    /// Classical λ-search (Thomsen 2000, [`crate::thomsen`]): one df-pn
    /// search per order, threats checked by nested searches.
    LambdaSearch(crate::thomsen::ThomsenParams),
}

impl Solver {
    /// `dfpn[:kawano=on|off]`, `lambda[:order=N,eorder=N,grow=G,ladder=on|off,
    /// bound=on|off,escape=on|off,zones=on|off,kawano=on|off,dual=on|off]`,
    /// `lambda-zones[:...]` ([`LambdaParams::zoned`], the GTP default) or
    /// `pseudo-lambda[:...]` (`sim` is
    /// read as `kawano`), `zone[:...]`, or `lambda-search[:order=N,
    /// ladder=on|off]` (classical λ-search, [`crate::thomsen`]).
    pub fn parse(s: &str) -> Result<Solver, String> {
        let (name, opts) = s.split_once(':').unwrap_or((s, ""));
        match name.trim() {
            "dfpn" | "df-pn" if opts.is_empty() => Ok(Solver::Dfpn),
            "dfpn" | "df-pn" => match opts.trim().split_once('=') {
                Some(("kawano" | "sim", v)) => match crate::lambda::on_off("kawano", v)? {
                    true => Ok(Solver::Kawano),
                    false => Ok(Solver::Dfpn),
                },
                _ => Err(format!("dfpn: unknown option '{opts}' (kawano=on|off)")),
            },
            "lambda" | "lambda-dfpn" => Ok(Solver::Lambda(LambdaParams::default().parse(opts)?)),
            "lambda-zones" => Ok(Solver::Lambda(LambdaParams::zoned().parse(opts)?)),
            "pseudo-lambda" | "pseudo" => Ok(Solver::Lambda(LambdaParams::pseudo().parse(opts)?)),
            "zone" | "zone-dfpn" => Ok(Solver::Zone(
                crate::zone::ZoneParams::default().parse(opts)?,
            )),
            "lambda-search" | "thomsen" => Ok(Solver::LambdaSearch(
                crate::thomsen::ThomsenParams::default().parse(opts)?,
            )),
            _ => Err(format!(
                "unknown capture search '{s}' (dfpn[:kawano=on], lambda[:order=N,eorder=N,grow=G,ladder=on|off,bound=on|off,escape=on|off,zones=on|off,kawano=on|off,dual=on|off], lambda-zones[:...], pseudo-lambda[:...], zone[:nested=N,depth=D,min=M,budget=F,ladder=on|off], lambda-search[:order=N,ladder=on|off] (classical λ-search, Thomsen 2000))"
            )),
        }
    }

    /// The name `parse` reads back.
    pub fn describe(&self) -> String {
        match self {
            Solver::Dfpn => "dfpn".into(),
            Solver::Kawano => "dfpn:kawano=on".into(),
            Solver::Lambda(p) if p.growth == crate::lambda::PSEUDO_GROWTH => {
                format!("pseudo-lambda:{}", p.describe())
            }
            Solver::Lambda(p) => format!("lambda:{}", p.describe()),
            Solver::Zone(p) => format!("zone:{}", p.describe()),
            Solver::LambdaSearch(p) => format!("lambda-search:{}", p.describe()),
        }
    }

    /// "The attacker captures" from `g`, at most `visits` node visits.
    pub fn status(
        &self,
        g: &Capture,
        visits: u64,
        tt: &Table,
        effort: &mut Effort,
    ) -> pns_core::Status {
        self.status_until(g, visits, tt, effort, None)
    }

    /// [`Solver::status`], ended early (unknown) once `stop` is set (every
    /// search reads it: df-pn and λ-df-pn through the limits' adaptive
    /// check, the zone search and classical λ-search at each visit).
    pub fn status_until(
        &self,
        g: &Capture,
        visits: u64,
        tt: &Table,
        effort: &mut Effort,
        stop: Option<&Arc<AtomicBool>>,
    ) -> pns_core::Status {
        let limits = pns_core::Limits {
            visits: Some(visits),
            stop: stop.cloned(),
            ..Default::default()
        };
        let r = match self {
            Solver::Dfpn => attack_search_limited(g, Plain::default(), &limits, tt, &[]),
            Solver::Kawano => {
                let pol = pns_core::dfpn::Kawano::new(Plain::default());
                attack_search_limited(g, pol, &limits, tt, &[])
            }
            Solver::Lambda(p) => crate::lambda::search_limited(g, p, &limits, tt, (&[], None)).0,
            Solver::Zone(p) => return crate::zone::attack_status(g, p, visits, tt, effort, stop),
            Solver::LambdaSearch(p) => {
                return crate::thomsen::attack_status(g, p, visits, tt, effort, stop)
            }
        };
        effort.count(&r.stats, r.status)
    }

    /// A capturing first move from `g` (the attacker to move) after this
    /// search proved it on `tt`; the searches that read it back stop with
    /// `stop`.
    fn proven_move(
        &self,
        g: &Capture,
        visits: u64,
        tt: &Table,
        stop: Option<&Arc<AtomicBool>>,
    ) -> Option<Move> {
        use pns_core::certificate::Extractor;
        match self {
            Solver::Dfpn | Solver::Kawano => {
                let lim = pns_core::Limits {
                    visits: Some(visits),
                    stop: stop.cloned(),
                    ..Default::default()
                };
                let mut ex = Extractor::new(g, Goal::Win, pns_core::Status::Proven, tt, lim);
                ex.choose(g)
            }
            Solver::Lambda(p) => crate::lambda::proven_move(g, p, visits, tt, stop),
            Solver::Zone(p) => crate::zone::proven_move(g, p, visits, tt, stop),
            Solver::LambdaSearch(p) => crate::thomsen::proven_move(g, p, visits, tt, stop),
        }
    }
}

/// The first of `moves`, each played from `g`, whose position `status`
/// (given the position and a visit budget) finds `want`: the searches that
/// read an answer's move back from a proof (the capturing move, the saving
/// move). Each move is searched with a small budget first, since most
/// moves are read from the table at once, then with the whole limit each,
/// since a proof found under DUP may sit in path-dependent twin entries
/// that a search from the child cannot use (with 1/20 of the limit alone,
/// `attack` answered `1` without its move on 7 of GNU Go's unconditional
/// cases at 3,000 visits).
pub(crate) fn read_back(
    g: &Capture,
    moves: &[Move],
    visits: u64,
    want: pns_core::Status,
    mut status: impl FnMut(&Capture, u64) -> pns_core::Status,
) -> Option<Move> {
    for budget in [(visits / 20).max(50), visits] {
        for &m in moves {
            let mut c = *g;
            c.play(m);
            if status(&c, budget) == want {
                return Some(m);
            }
        }
    }
    None
}

/// `attack` with plain df-pn ([`attack_with`]).
pub fn attack(g: &Capture, visits: u64, effort: &mut Effort) -> Answer {
    attack_with(g, &Solver::Dfpn, visits, effort)
}

/// `defend` with plain df-pn ([`defend_with`]).
pub fn defend(g: &Capture, visits: u64, effort: &mut Effort) -> Answer {
    defend_with(g, &Solver::Dfpn, visits, effort)
}

/// `attack`: the attacker moves first; a capturing first move when it
/// succeeds. `visits` bounds the node visits of each search. Sound both
/// ways: the capture is proven with the defender playing any legal point
/// (the attacker within the generator), the failure with the attacker
/// playing any legal point (the defender within the generator), so the
/// generator can make an answer unknown, never wrong.
///
/// When the generator itself is what stopped a search (the attacker
/// within it cannot capture, or the defender within it cannot escape),
/// that search is asked again with the bounded side's generator widened a
/// step at a time, h2, then the board (`widen`), the complete side
/// keeping its zones: on GNU Go's small reading puzzles the capturing
/// move is often outside the target's liberties (`reading 112`, `attack
/// H5`: `H2`), and the saving one outside h1 (`reading 192`, `attack D4`:
/// 0, settled with the defender within h2). Until 2026-11-28 the one
/// widened search let both sides play every point with the defender
/// complete, whose escapes, the attacker's moves without zones, were
/// almost never proven.
pub fn attack_with(g: &Capture, solver: &Solver, visits: u64, effort: &mut Effort) -> Answer {
    attack_decided(g, solver, visits, Run::threads(1), effort).0
}

/// The search that settled an answer: the question it asked (with its
/// side to move, complete side, generator and ko exemption) and the
/// status of "the attacker captures" it found. [`crate::certify::certificate`] proves it
/// again as a tree of Go moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    pub question: Capture,
    pub status: pns_core::Status,
}

/// [`attack_with`] and the search that settled its answer (none when the
/// target was already captured or the answer is unknown). With
/// `run.threads` above 1 the capture half and the escape half run at once,
/// each on its own table (`halves.rs`): the same answer, sooner; once
/// `run.stop` stops, the answer is unknown.
///
/// The searches, in the order one thread asks them, and the proofs that
/// settle the answer (the first found in this order wins):
///
/// 1. the capture with the defender complete (`d`, under the capture
///    horizon): its proof is a capture; with the board's generator and
///    no horizon of its own, its disproof an escape;
/// 2. the escape with the attacker complete (`a`): its disproof is an
///    escape; with the board's generator, its proof a capture;
/// 3. `a` widened (`widen`), if its bounded defender lost;
/// 4. `d` widened, if its bounded attacker failed.
pub fn attack_decided(
    g: &Capture,
    solver: &Solver,
    visits: u64,
    run: Run,
    effort: &mut Effort,
) -> (Answer, Option<Decision>) {
    use crate::halves::{Proof, Question, Step};
    let g = g.with_first(g.attacker());
    if g.captured() {
        return (Answer::Succeeds(None), None);
    }
    let board = g.gen == Generator::Board;
    let d = capture_question(&g);
    let a = g.with_complete(Some(g.attacker()));
    // The board's disproof of `d` is an escape only without a horizon of
    // its own (the capture horizon ends lines the rule does not).
    let d_escapes = board && d.horizon() == g.horizon();
    let question = Question {
        halves: [
            vec![
                Step::search(
                    d,
                    Some(Proof::capture(1)),
                    d_escapes.then_some(Proof::escape(2)),
                ),
                Step::widening(d, 6),
            ],
            // With the board's generator, `a`'s proof is a capture the
            // horizon hid from the first search (both sides on every point).
            vec![
                Step::search(
                    a,
                    board.then_some(Proof::capture(4)),
                    Some(Proof::escape(3)),
                ),
                Step::widening(a, 5),
            ],
        ],
        order: vec![0, 1, 1, 0],
        key: g.key(),
    };
    let settled = crate::halves::settle(question, solver, visits, run, effort);
    let Some(f) = settled.found else {
        return (Answer::Unknown, None);
    };
    let decision = Some(Decision {
        question: f.question,
        status: f.status,
    });
    if !f.proof.capture {
        return (Answer::Fails, decision);
    }
    let tt = &settled.lane_of(&f).table;
    let flag = run.stop.map(Stopper::flag);
    let mv = solver
        .proven_move(&f.question, visits, tt, flag.as_ref())
        .filter(|m| *m != Move::Pass);
    if run.stopped() {
        // Stopped while the move was read: no answer, as the saving
        // move's read-back.
        return (Answer::Unknown, None);
    }
    (Answer::Succeeds(mv), decision)
}

/// Widens the bounded side of `q`, whose search ended in that side's loss
/// within its generator: with the other side complete, such a loss is no
/// proof in Go (the move that saves, or captures, may lie outside the
/// generator). The generator grows a step at a time, h1, h2, the board,
/// each search with the whole limit on the same table (the generator is
/// in the key), the complete side keeping its zones. Returns the first
/// wider question whose answer is a proof in Go, with its status: an
/// escape (disproven) where the attacker is complete, a capture (proven)
/// where the defender is; and a capture where the attacker is complete
/// and the defender's generator is the board, since both sides then play
/// every point. A step that ends unknown within the limit does not stop
/// the next (a wider generator is another search, not a larger one: on
/// `reading 52` the attacker within h2 stays unknown at 30,000 visits and
/// the board's capture takes 0.3 s). Never `Some` with an unknown status;
/// `None` when no step answers, the board's disproof in a capture
/// question included (under the capture horizon it says nothing).
pub(crate) fn widen(
    q: &Capture,
    mut status: impl FnMut(&Capture) -> Status,
) -> Option<(Capture, Status)> {
    let attacker_complete = q.complete == Some(q.attacker());
    let proof = if attacker_complete {
        Status::Disproven
    } else {
        Status::Proven
    };
    let wider: &[Generator] = match q.gen {
        Generator::H1 => &[Generator::H2, Generator::Board],
        Generator::H2 => &[Generator::Board],
        Generator::Board => &[],
    };
    for &gen in wider {
        let w = q.with_generator(gen);
        match status(&w) {
            // Unknown within the limit: the next step may still answer
            // (its search is another one, not a larger one).
            Status::Unknown => {}
            s if s == proof || (attacker_complete && gen == Generator::Board) => {
                return Some((w, s))
            }
            _ => {}
        }
    }
    None
}

/// The question whose proof is a capture: `g` with the defender playing
/// every point, under GNU Go's reading horizon when `g` has none. A
/// horizon only lowers the escape threshold deeper in the reading, so
/// every line it lets the defender win it would win without it too: a
/// capture proven under it is a capture at `g`'s own threshold (the
/// proof's positions are no escapes there either, its leaves the same
/// captures), and the search, whose hopeless deep lines end early, finds
/// it sooner. Its disproof says nothing without the horizon, so escapes
/// are proven apart ([`attack_decided`], [`defend_decided`]).
pub fn capture_question(g: &Capture) -> Capture {
    let d = g.with_complete(Some(g.defender()));
    match (g.horizon(), g.capture_horizon()) {
        (None, Some(h)) => d.with_horizon(Some(h)),
        _ => d,
    }
}

/// `defend`: the defender moves first and saves the target when the
/// attack from there fails (one search with the attacker as the goal's
/// side, the attacker playing any legal point); the saving reply is then
/// read from the table. The target is lost when the attack succeeds with
/// the defender playing any legal point. Sound both ways, as [`attack`],
/// and widened to both sides on every point as [`attack_with`] is.
pub fn defend_with(g: &Capture, solver: &Solver, visits: u64, effort: &mut Effort) -> Answer {
    defend_decided(g, solver, visits, Run::threads(1), effort).0
}

/// [`defend_with`] and the search that settled its answer (none when the
/// target was already captured or had escaped, or the answer is unknown);
/// `run` as in [`attack_decided`]. The searches in one thread's order:
///
/// 1. the escape with the attacker complete (`a`): its disproof saves the
///    target;
/// 2. the capture with the defender complete (`d`, under the capture
///    horizon): its proof captures it;
/// 3. with the board's generator, the proof of `a` (both sides on every
///    point) captures it;
/// 4. `a` widened, if its bounded defender lost;
/// 5. `d` widened, if its bounded attacker failed.
pub fn defend_decided(
    g: &Capture,
    solver: &Solver,
    visits: u64,
    run: Run,
    effort: &mut Effort,
) -> (Answer, Option<Decision>) {
    use crate::halves::{Proof, Question, Step};
    let g = g.with_first(g.defender());
    if g.captured() {
        return (Answer::Fails, None);
    }
    if g.outcome().is_some() {
        return (Answer::Succeeds(None), None);
    }
    let board = g.gen == Generator::Board;
    let a = g.with_complete(Some(g.attacker()));
    let d = capture_question(&g);
    let question = Question {
        halves: [
            // With the board's generator, `a`'s proof is a capture (both
            // sides on every point; the capture half searches under a
            // horizon, which can hide it).
            vec![
                Step::search(
                    a,
                    board.then_some(Proof::capture(3)),
                    Some(Proof::escape(1)),
                ),
                Step::widening(a, 4),
            ],
            vec![
                Step::search(d, Some(Proof::capture(2)), None),
                Step::widening(d, 5),
            ],
        ],
        order: vec![0, 1, 0, 1],
        key: g.key(),
    };
    let settled = crate::halves::settle(question, solver, visits, run, effort);
    let Some(f) = settled.found else {
        return (Answer::Unknown, None);
    };
    if f.proof.capture {
        let d = Decision {
            question: f.question,
            status: Status::Proven,
        };
        return (Answer::Fails, Some(d));
    }
    // A saving move read back settles the answer with the disproof.
    let tt = &settled.lane_of(&f).table;
    let answer = saving_move(&f.question, solver, visits, tt, run.stop, effort);
    let d = (answer != Answer::Unknown).then_some(Decision {
        question: f.question,
        status: Status::Disproven,
    });
    (answer, d)
}

/// After the attack from `a` (the defender to move, the attacker playing
/// every point) was disproven on `tt`: a defender move after which it is
/// still disproven. The generator's replies first (the target's liberties
/// lead), then the rest, the pass last (only passing saves it: safe as it
/// is); each mostly read from the table, with a small budget, and then,
/// if none is disproven so, with the whole limit each.
fn saving_move(
    a: &Capture,
    solver: &Solver,
    visits: u64,
    tt: &Table,
    stop: Option<&Stopper>,
    effort: &mut Effort,
) -> Answer {
    let flag = stop.map(Stopper::flag);
    let mut moves = Vec::new();
    a.search_moves(&mut moves);
    moves.retain(|m| *m != Move::Pass);
    let mut rest = Vec::new();
    a.legal_moves(&mut rest);
    rest.retain(|m| !moves.contains(m) && *m != Move::Pass);
    moves.extend(rest);
    moves.push(Move::Pass);
    // None: the root's disproof held on its line only and no reply alone
    // repeats it within the limit.
    read_back(a, &moves, visits, Status::Disproven, |c, budget| {
        solver.status_until(c, budget, tt, effort, flag.as_ref())
    })
    .filter(|_| !stop.is_some_and(Stopper::stopped))
    .map_or(Answer::Unknown, |m| Answer::Succeeds(Some(m)))
}

/// An answer with GNU Go's result code: 1 the side asked about succeeds
/// unconditionally, 0 it fails even with unlimited ko threats, 2 it
/// succeeds by a ko it takes first (GNU Go's KO_A: the opponent would need
/// a ko threat), 3 it succeeds only with a ko threat to spend (KO_B).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coded {
    pub code: u8,
    /// The first move (codes 1-3; `None` when the side has already
    /// succeeded or no move was read back).
    pub mv: Option<Move>,
}

impl Coded {
    fn of(code: u8, a: &Answer) -> Coded {
        let mv = match a {
            Answer::Succeeds(m) => *m,
            _ => None,
        };
        Coded { code, mv }
    }
}

/// `attack` with GNU Go's ko results ([`Coded`]): the capture asked
/// three ways, through [`attack_with`], as ko threats are modelled here
/// (nobody has one, so under the simple-ko ban the first to take a ko
/// wins it; a side *exempt* from the ban has unlimited threats):
///
/// * 1 when the attack succeeds with the defender exempt;
/// * 0 when it fails with the attacker exempt;
/// * 2 when it succeeds with nobody exempt and fails with the defender
///   exempt;
/// * 3 when it fails with nobody exempt and succeeds with the attacker
///   exempt.
///
/// Exemption only adds moves for its side, so the three answers are
/// ordered (a capture with the defender exempt is one with nobody exempt,
/// which is one with the attacker exempt); `None` when the searches that
/// decide the code did not all answer. Longer cycles (double ko, passes)
/// still end as the attacker's failure, exempt or not.
pub fn attack_coded(
    g: &Capture,
    solver: &Solver,
    visits: u64,
    effort: &mut Effort,
) -> Option<Coded> {
    attack_coded_decided(g, solver, visits, Run::threads(1), effort).0
}

/// [`attack_coded`] and, for codes 0 and 1, the one search that settled
/// the answer (codes 2 and 3 rest on two searches under different ko
/// exemptions, so on no single question); `run` as [`attack_decided`]
/// reads it.
pub fn attack_coded_decided(
    g: &Capture,
    solver: &Solver,
    visits: u64,
    run: Run,
    effort: &mut Effort,
) -> (Option<Coded>, Option<Decision>) {
    let g = g.with_first(g.attacker()).with_ko_exempt(None);
    coded(&g, g.defender(), run, effort, |c, e, stop| {
        attack_decided(c, solver, visits, Run { stop, ..run }, e)
    })
}

/// `defend` with GNU Go's ko results, as [`attack_coded`]: 1 when the
/// defender saves the target with the attacker exempt from the ko ban, 0
/// when it cannot with itself exempt, 2 when it saves with nobody exempt
/// and not with the attacker exempt, 3 when it cannot with nobody exempt
/// and can with itself exempt; `None` when undecided.
pub fn defend_coded(
    g: &Capture,
    solver: &Solver,
    visits: u64,
    effort: &mut Effort,
) -> Option<Coded> {
    defend_coded_decided(g, solver, visits, Run::threads(1), effort).0
}

/// [`defend_coded`] and, for codes 0 and 1, the search that settled it,
/// as [`attack_coded_decided`].
pub fn defend_coded_decided(
    g: &Capture,
    solver: &Solver,
    visits: u64,
    run: Run,
    effort: &mut Effort,
) -> (Option<Coded>, Option<Decision>) {
    let g = g.with_first(g.defender()).with_ko_exempt(None);
    coded(&g, g.attacker(), run, effort, |c, e, stop| {
        defend_decided(c, solver, visits, Run { stop, ..run }, e)
    })
}

/// The code of `ask` (does the side to move at `g` succeed?) from its
/// answers with `opponent` exempt, with the side itself exempt and with
/// nobody exempt, each asked only when the ones before leave the code
/// open and it can still decide it. The third needs a failure with the
/// opponent exempt or a success with the side exempt; asked on every
/// unknown case, it cost a quarter of the time on GNU Go's passing class
/// and decided nothing there.
fn coded(
    g: &Capture,
    opponent: Color,
    run: Run,
    effort: &mut Effort,
    ask: impl Fn(&Capture, &mut Effort, Option<&Stopper>) -> (Answer, Option<Decision>) + Sync,
) -> (Option<Coded>, Option<Decision>) {
    let me = opponent.opponent();
    let (q1, q0) = (g.with_ko_exempt(Some(opponent)), g.with_ko_exempt(Some(me)));
    let succeeds = |r: &(Answer, Option<Decision>)| matches!(r.0, Answer::Succeeds(_));
    let ((unconditional, d1), (with_threats, d0)) = if run.threads > 1 {
        // Both at once (more than one thread), each stopping the other
        // when it decides the code alone: a success with the opponent
        // exempt is code 1, a failure with the side itself exempt code 0,
        // whatever the other says (exemption orders them: the first
        // succeeds only where the second does).
        let (s1, s0) = (Stopper::child(run.stop), Stopper::child(run.stop));
        let (mut e1, mut e0) = (Effort::default(), Effort::default());
        let (r1, r0) = crate::halves::both(
            || {
                let r = ask(&q1, &mut e1, Some(&s1));
                if succeeds(&r) {
                    s0.stop();
                }
                r
            },
            || {
                let r = ask(&q0, &mut e0, Some(&s0));
                if r.0 == Answer::Fails {
                    s1.stop();
                }
                r
            },
        );
        effort.add(&e1);
        effort.add(&e0);
        (r1, r0)
    } else {
        let r1 = ask(&q1, effort, run.stop);
        if succeeds(&r1) {
            return (Some(Coded::of(1, &r1.0)), r1.1);
        }
        (r1, ask(&q0, effort, run.stop))
    };
    if matches!(unconditional, Answer::Succeeds(_)) {
        return (Some(Coded::of(1, &unconditional)), d1);
    }
    if with_threats == Answer::Fails {
        return (Some(Coded::of(0, &with_threats)), d0);
    }
    // Codes 2 and 3 each rest on one of the first two answers (a failure
    // with the opponent exempt, a success with the side itself exempt):
    // with both unknown, the third question cannot decide a code.
    if unconditional == Answer::Unknown && with_threats == Answer::Unknown {
        return (None, None);
    }
    let code = match ask(g, effort, run.stop).0 {
        r @ Answer::Succeeds(_) if unconditional == Answer::Fails => Some(Coded::of(2, &r)),
        Answer::Fails if matches!(with_threats, Answer::Succeeds(_)) => {
            Some(Coded::of(3, &with_threats))
        }
        _ => None,
    };
    (code, None)
}

/// The bounded games [`guess_coded`] reads, in order, each a generator
/// and the horizon of its rule: H2 under GNU Go's horizon first (fewer
/// wrong answers on GNU Go's cases), then H1 (more answers), then H1 under
/// [`CAPTURE_HORIZON`], nearer, which ends the deep lines that leave the
/// first two undecided.
pub const GUESS_STEPS: [(Generator, Horizon); 3] = [
    (Generator::H2, Horizon::GNUGO),
    (Generator::H1, Horizon::GNUGO),
    (Generator::H1, CAPTURE_HORIZON),
];

/// A guess at `attack` (`attack_it`) or `defend` when no proof answers:
/// the *bounded game*, both sides within the generator (no side plays
/// every point), under GNU Go's reading horizon as the rule
/// ([`Horizon::GNUGO`]; the last step a nearer one), read by plain
/// λ-df-pn (order 2, no zones), with the [`GUESS_STEPS`] in turn until one
/// answers within `visits`. This is
/// the game GNU Go's own reader plays, more or less (narrow move lists,
/// fewer liberties count as an escape deeper in the reading), so its
/// answer is GNU Go's kind of answer: **no proof in Go**, since the
/// winning side's opponent did not try every point. GNU Go's codes as
/// [`attack_coded`] reads them (the bounded game asked with the
/// opponent exempt from the ko ban, with the side itself exempt, and with
/// nobody exempt), and for codes 1-3 the first move of the bounded line
/// when one is read back. `None` when the bounded games are undecided as
/// well. `run` as [`attack_decided`] reads it: with two threads the first
/// two ko questions at once; a stop request ends the guess unknown.
///
/// Measured on GNU Go's cases (docs/experiments/lambda.md, "Guessed
/// answers"): at 3,000 visits with [`GUESS_VISITS_SCALE`], most of the
/// cases the proofs leave unknown are guessed, some wrong.
pub fn guess_coded(
    g: &Capture,
    attack_it: bool,
    visits: u64,
    run: Run,
    effort: &mut Effort,
) -> Option<Coded> {
    let first = if attack_it {
        g.attacker()
    } else {
        g.defender()
    };
    for (gen, horizon) in GUESS_STEPS {
        let q = g
            .with_first(first)
            .with_ko_exempt(None)
            .with_complete(None)
            .with_generator(gen)
            .with_horizon(Some(horizon));
        if q.captured() {
            return Some(Coded {
                code: attack_it as u8,
                mv: None,
            });
        }
        let opponent = if attack_it {
            q.defender()
        } else {
            q.attacker()
        };
        let ask = |c: &Capture, e: &mut Effort, stop: Option<&Stopper>| {
            (bounded_answer(c, attack_it, visits, stop, e), None)
        };
        // The bounded game's searches stop on request too.
        if let (Some(code), _) = coded(&q, opponent, run, effort, ask) {
            return Some(code);
        }
    }
    None
}

/// The bounded game's answer at `q` (both sides within its generator):
/// whether the side to move, the attacker when `attack_it`, succeeds, with
/// its first move read back.
fn bounded_answer(
    q: &Capture,
    attack_it: bool,
    visits: u64,
    stop: Option<&Stopper>,
    effort: &mut Effort,
) -> Answer {
    let solver = Solver::Lambda(LambdaParams::default());
    let tt = Table::with_mb(TABLE_MB);
    let flag = stop.map(Stopper::flag);
    let status =
        |c: &Capture, budget, e: &mut Effort| solver.status_until(c, budget, &tt, e, flag.as_ref());
    let captured = match status(q, visits, effort) {
        Status::Proven => true,
        Status::Disproven => false,
        Status::Unknown => return Answer::Unknown,
    };
    if captured != attack_it {
        return Answer::Fails;
    }
    if q.outcome().is_some() {
        return Answer::Succeeds(None);
    }
    let mut moves = Vec::new();
    q.search_moves(&mut moves);
    moves.retain(|m| *m != Move::Pass);
    let want = if attack_it {
        Status::Proven
    } else {
        Status::Disproven
    };
    let mv = read_back(q, &moves, visits, want, |c, budget| {
        status(c, budget, effort)
    });
    match stop {
        // Stopped while the move was read: no answer.
        Some(s) if s.stopped() => Answer::Unknown,
        _ => Answer::Succeeds(mv),
    }
}

/// [`coded_or_guess`] gives the bounded game this many times the proof
/// searches' visit limit: its visits are cheap (no nested searches, no
/// zones). On GNU Go's passing class at 3,000 visits a first version of
/// the guesses (codes 0 and 1 only) answered 18 right and 8 wrong with
/// the same limit, 24 and 9 with ten times it (+10 % time), 27 and 10 with
/// a hundred times (twice the time).
pub const GUESS_VISITS_SCALE: u64 = 10;

/// An answer and how it was reached: `proven` when a proof settled it
/// ([`attack_coded`], [`defend_coded`]), not when it is
/// [`guess_coded`]'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reached {
    pub coded: Coded,
    pub proven: bool,
}

/// [`attack_coded`] or [`defend_coded`] (`attack_it`; `run` as
/// [`attack_decided`] reads it: a stop request stops the guess too), and
/// when `guess` is set and they leave the answer unknown, [`guess_coded`]
/// with [`GUESS_VISITS_SCALE`] times `visits`: [`ask`] without deepening.
pub fn coded_or_guess(
    g: &Capture,
    attack_it: bool,
    solver: &Solver,
    visits: u64,
    run: Run,
    guess: bool,
    effort: &mut Effort,
) -> Option<Reached> {
    let how = Asking {
        guess,
        deepen: false,
    };
    ask(g, attack_it, solver, visits, run, how, effort).reached
}

/// The first per-search visit limit of a deepening question ([`ask`]):
/// the limit at which GNU Go's cases were measured, most of whose answers
/// come within it in well under a second.
pub const DEEPEN_FROM: u64 = 3_000;

/// The factor between one round's visit limit and the next in a
/// deepening question. Ten, not two: each round searches again from the
/// root, and with doubling (on fresh tables) the small rounds spent the
/// visits the large one needed (docs/experiments/lambda.md, "The limit
/// deepened per question": 56 right of 113 against 60 at the plain
/// limit); with ten the rounds before the last cost at most about a ninth
/// of it.
pub const DEEPEN_BY: u64 = 10;

/// The per-search visit limits a deepening question is asked with, in
/// turn: [`DEEPEN_FROM`], then [`DEEPEN_BY`] times the one before, the
/// last `visits` itself (the only one when `visits` is at most
/// [`DEEPEN_FROM`]).
pub fn deepening(visits: u64) -> Vec<u64> {
    let mut v = Vec::new();
    let mut next = DEEPEN_FROM;
    while next < visits {
        v.push(next);
        next = next.saturating_mul(DEEPEN_BY);
    }
    v.push(visits);
    v
}

/// How [`ask`] asks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Asking {
    /// Guess ([`guess_coded`]) where no proof answers.
    pub guess: bool,
    /// Ask with each limit of [`deepening`] in turn, until a proof answers
    /// or the stop request comes; for a time limit, whose searches at the
    /// full limit would spend the whole time on the question's first
    /// search (docs/experiments/lambda.md, "Two threads per question").
    pub deepen: bool,
}

/// What [`ask`] came to: the answer, the search that settled it (codes 0
/// and 1 of a proof), and the per-search visit limit of the round that
/// answered (the last round asked when none did).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Asked {
    pub reached: Option<Reached>,
    pub decision: Option<Decision>,
    pub visits: u64,
}

/// `attack` (`attack_it`) or `defend` with GNU Go's codes: the proofs of
/// [`attack_coded_decided`] or [`defend_coded_decided`] at `visits` per
/// search, or with `how.deepen` at each limit of [`deepening`]`(visits)`
/// in turn; with `how.guess`, where the first round leaves it unknown,
/// [`guess_coded`] with [`GUESS_VISITS_SCALE`] times that round's limit,
/// which a proof of a later round replaces. `run` as [`attack_decided`]
/// reads it: a stop request ends the round it comes in (unknown) and the
/// question, with the guess if one was made.
pub fn ask(
    g: &Capture,
    attack_it: bool,
    solver: &Solver,
    visits: u64,
    run: Run,
    how: Asking,
    effort: &mut Effort,
) -> Asked {
    let rounds = if how.deepen {
        deepening(visits)
    } else {
        vec![visits]
    };
    // Each round's searches continue on the tables of the round before.
    let tables = Tables::default();
    let run = Run {
        tables: Some(&tables),
        ..run
    };
    let mut guessed = None;
    let mut asked = Asked {
        reached: None,
        decision: None,
        visits,
    };
    for (i, &v) in rounds.iter().enumerate() {
        if i > 0 && run.stopped() {
            break;
        }
        asked.visits = v;
        let (proven, decision) = if attack_it {
            attack_coded_decided(g, solver, v, run, effort)
        } else {
            defend_coded_decided(g, solver, v, run, effort)
        };
        if let Some(coded) = proven {
            asked.reached = Some(Reached {
                coded,
                proven: true,
            });
            asked.decision = decision;
            return asked;
        }
        if i == 0 && how.guess && !run.stopped() {
            guessed = guess_coded(
                g,
                attack_it,
                v.saturating_mul(GUESS_VISITS_SCALE),
                run,
                effort,
            )
            .map(|coded| Reached {
                coded,
                proven: false,
            });
        }
    }
    asked.reached = guessed;
    asked
}

/// GNU Go's answer text: `CODE [MOVE]` (`0` alone), or an error for
/// unknown.
pub fn gtp_text(b: &Board, a: Option<Coded>, visits: u64) -> Result<String, String> {
    match a {
        Some(Coded { code, mv: Some(m) }) if code > 0 => {
            Ok(format!("{code} {}", b.format_move(m).to_uppercase()))
        }
        Some(Coded { code, .. }) => Ok(code.to_string()),
        None => Err(format!("unknown: no answer within {visits} node visits")),
    }
}

/// The GTP commands `attack` and `defend` on `b` for the block at
/// `target`, with the default threshold and generator H1, plain df-pn.
pub fn gtp_command(
    b: &Board,
    target: usize,
    attack_it: bool,
    visits: u64,
) -> Result<String, String> {
    let how = GtpOptions::default();
    gtp_command_with(b, target, attack_it, &Solver::Dfpn, how, visits).map(|(text, _)| text)
}

/// How GTP `attack` and `defend` read a question besides the search:
/// the generator, the horizons, GNU Go's snapback rule
/// ([`Capture::with_snapback`]), and how [`ask`] asks: whether an
/// unknown answer falls back on [`guess_coded`], whether it deepens.
#[derive(Clone, Debug)]
pub struct GtpOptions {
    pub gen: Generator,
    pub horizons: Horizons,
    pub snapback: bool,
    pub asking: Asking,
    /// Threads per question: 2 runs its capture half and its escape half
    /// at once ([`attack_decided`]).
    pub threads: usize,
    /// Wall-clock limit per command, its searches and guess together;
    /// past it the answer is unknown ([`Stopper::within`]).
    pub time: Option<std::time::Duration>,
    /// A flag a Ctrl-C handler sets (`pns gtp`): set while the command
    /// runs, it ends it unknown, as a time limit does. Clearing it between
    /// commands, and saying why the answer is unknown, is the caller's
    /// (`gtp::Engine`, for every solving command alike).
    pub interrupt: Option<Arc<AtomicBool>>,
}

impl Default for GtpOptions {
    /// H1, the default horizons, the snapback rule on, no guesses, one
    /// thread, no time limit, no deepening.
    fn default() -> Self {
        GtpOptions {
            gen: Generator::H1,
            horizons: Horizons::default(),
            snapback: true,
            asking: Asking::default(),
            threads: 1,
            time: None,
            interrupt: None,
        }
    }
}

/// [`gtp_command`] with a search and [`GtpOptions`]; ko results as
/// [`attack_coded`] and [`defend_coded`] give them. The answer's text and
/// whether a proof settled it (`false`: [`guess_coded`]'s guess).
pub fn gtp_command_with(
    b: &Board,
    target: usize,
    attack_it: bool,
    solver: &Solver,
    how: GtpOptions,
    visits: u64,
) -> Result<(String, bool), String> {
    let g = Capture::new(*b, target, DEFAULT_ESCAPE_LIBS, how.gen)
        .map_err(|e| e.0)?
        .with_horizons(how.horizons)
        .with_snapback(how.snapback);
    let mut e = Effort::default();
    let (a, timed_out) = Stopper::within_or(how.time, how.interrupt, None, |stop| {
        let run = Run::stopping(how.threads, stop);
        let a = ask(&g, attack_it, solver, visits, run, how.asking, &mut e).reached;
        (a, run.stopped())
    });
    match (a, how.time) {
        (None, Some(t)) if timed_out => Err(format!(
            "unknown: no answer within {} s ({}{visits} node visits per search)",
            t.as_secs_f64(),
            if how.asking.deepen {
                "deepening to "
            } else {
                ""
            }
        )),
        _ => Ok((
            gtp_text(b, a.map(|r| r.coded), visits)?,
            a.is_some_and(|r| r.proven),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(sgf: &str, opts: &str) -> Capture {
        Capture::parse_position(&format!("{sgf}|{opts}")).unwrap()
    }

    #[test]
    fn a_stone_in_atari_is_captured_and_outcomes_follow_the_rules() {
        // White C3 in a black net on 5x5, one liberty at D3.
        let g = problem("(;FF[4]SZ[5]AB[bc][cb][cd]AW[cc])", "target=C3,libs=3");
        assert_eq!(g.defender(), Color::White);
        assert_eq!(g.target_libs().count(), 1);
        let mut e = Effort::default();
        assert!(matches!(
            attack(&g, 10_000, &mut e),
            Answer::Succeeds(Some(_))
        ));
        assert_eq!(g.known_outcome(), Some(Outcome::Win));
        // The defender to move extends to D3 and has 3 liberties there.
        assert!(matches!(
            defend(&g, 10_000, &mut e),
            Answer::Succeeds(Some(_))
        ));
    }

    /// The rounds of a deepening question: from 3,000 up by ten, the
    /// visit limit itself last and never exceeded.
    #[test]
    fn a_deepening_question_ends_at_the_visit_limit() {
        assert_eq!(deepening(100), vec![100]);
        assert_eq!(deepening(3_000), vec![3_000]);
        assert_eq!(deepening(3_001), vec![3_000, 3_001]);
        assert_eq!(deepening(300_000), vec![3_000, 30_000, 300_000]);
        assert_eq!(
            deepening(1_000_000),
            vec![3_000, 30_000, 300_000, 1_000_000]
        );
        let all = deepening(u64::MAX);
        assert_eq!(all.last(), Some(&u64::MAX));
        assert!(all.windows(2).all(|w| w[0] < w[1]), "{all:?}");
        // The stone in atari is answered in the first round, deepening or
        // not, with its limit reported.
        let g = problem("(;FF[4]SZ[5]AB[bc][cb][cd]AW[cc])", "target=C3,libs=3");
        let solver = Solver::parse("lambda-zones").unwrap();
        for deepen in [false, true] {
            let how = Asking {
                guess: false,
                deepen,
            };
            let mut e = Effort::default();
            let a = ask(&g, true, &solver, 1_000_000, Run::threads(1), how, &mut e);
            assert_eq!(a.reached.map(|r| (r.coded.code, r.proven)), Some((1, true)));
            assert!(a.decision.is_some());
            assert_eq!(a.visits, if deepen { 3_000 } else { 1_000_000 });
        }
    }

    /// The bounded game's guesses on the stone in atari of the test
    /// above: the attacker takes it at D3, the defender extends there;
    /// `coded_or_guess` answers these with proofs and never guesses.
    #[test]
    fn guesses_on_a_stone_in_atari() {
        let g = problem("(;FF[4]SZ[5]AB[bc][cb][cd]AW[cc])", "target=C3,libs=3");
        let d3 = g.board.parse_vertex("D3").unwrap();
        let mut e = Effort::default();
        for attack_it in [true, false] {
            let guess = guess_coded(&g, attack_it, 10_000, Run::threads(1), &mut e);
            assert_eq!(
                guess,
                Some(Coded {
                    code: 1,
                    mv: Some(d3)
                }),
                "{attack_it}"
            );
            let r = coded_or_guess(
                &g,
                attack_it,
                &Solver::Dfpn,
                10_000,
                Run::threads(1),
                true,
                &mut e,
            );
            assert_eq!(r.map(|r| (r.coded.code, r.proven)), Some((1, true)));
        }
        // Already captured: the attack has succeeded, the defence failed.
        let mut taken = g.with_first(g.attacker());
        taken.play(d3);
        assert!(taken.captured());
        for attack_it in [true, false] {
            let guess = guess_coded(&taken, attack_it, 10_000, Run::threads(1), &mut e);
            assert_eq!(guess.map(|c| c.code), Some(attack_it as u8));
        }
    }

    /// `coded` on every combination of the three answers (the opponent
    /// exempt from the ko ban, the side itself, nobody): the code is the
    /// one all three decide, and the third is asked only where it can
    /// decide one; the first two asked at once give the same codes.
    #[test]
    fn the_code_is_read_from_the_answers_it_needs() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let g = problem("(;FF[4]SZ[5]AB[bc][cb][cd]AW[cc])", "target=C3,libs=3");
        let (me, opponent) = (g.attacker(), g.defender());
        let answer = |i: usize| [Answer::Succeeds(None), Answer::Fails, Answer::Unknown][i].clone();
        let mut third_asked = 0;
        for (u, w, n) in (0..27).map(|i| (answer(i / 9), answer(i / 3 % 3), answer(i % 3))) {
            let want = match (&u, &w, &n) {
                (Answer::Succeeds(_), ..) => Some(1),
                (_, Answer::Fails, _) => Some(0),
                (Answer::Fails, _, Answer::Succeeds(_)) => Some(2),
                (_, Answer::Succeeds(_), Answer::Fails) => Some(3),
                _ => None,
            };
            for at_once in [false, true] {
                let asked = AtomicUsize::new(0);
                let third = AtomicUsize::new(0);
                let ask = |c: &Capture, _: &mut Effort, _: Option<&Stopper>| {
                    asked.fetch_add(1, Ordering::Relaxed);
                    let a = match c.ko_exempt() {
                        Some(x) if x == opponent => &u,
                        Some(x) if x == me => &w,
                        _ => {
                            third.fetch_add(1, Ordering::Relaxed);
                            &n
                        }
                    };
                    (a.clone(), None)
                };
                let run = Run::threads(1 + usize::from(at_once));
                let code = coded(&g, opponent, run, &mut Effort::default(), ask)
                    .0
                    .map(|c| c.code);
                assert_eq!(code, want, "{u:?} {w:?} {n:?} at once: {at_once}");
                if third.load(Ordering::Relaxed) == 1 {
                    assert!(u == Answer::Fails || w != Answer::Unknown, "{u:?} {w:?}");
                    third_asked += usize::from(!at_once);
                }
                if at_once {
                    assert!(asked.load(Ordering::Relaxed) >= 2);
                }
            }
        }
        // u fails (w anything but a failure, n anything), or u unknown and
        // w a success.
        assert_eq!(third_asked, 2 * 3 + 3);
    }

    /// `search_moves`: the legal moves, the target's liberties first, each
    /// part in `legal_moves`' order, the pass last, and what the vector
    /// held before left alone.
    #[test]
    fn search_moves_put_the_liberties_first_in_order() {
        // White C3 with three liberties (B3, C2, D3; Black at C4) on 7x7.
        let g = problem("(;FF[4]SZ[7]AB[cd][ee]AW[ce][fb])", "target=C3,gen=board")
            .with_first(Color::Black);
        let mut legal = Vec::new();
        g.legal_moves(&mut legal);
        let mut got = vec![Move::Pass, Move::Play(0)];
        g.search_moves(&mut got);
        assert_eq!(&got[..2], &[Move::Pass, Move::Play(0)]);
        let got = &got[2..];
        let libs = g.target_libs();
        let is_lib = |m: &Move| matches!(m, Move::Play(p) if libs.get(*p as usize));
        let want: Vec<Move> = (legal.iter().filter(|m| is_lib(m)))
            .chain(legal.iter().filter(|m| !is_lib(m) && **m != Move::Pass))
            .chain([Move::Pass].iter())
            .copied()
            .collect();
        assert_eq!(libs.count(), 3);
        assert!(legal.len() > 40, "{}", legal.len());
        assert_eq!(got, &want[..]);
        // The liberties are not already in front in `legal_moves`' order.
        assert_ne!(&legal[..3], &want[..3]);
    }

    /// A stone of `b` (which has some) drawn at random: a target.
    fn random_stone(rng: &mut pns_core::rng::Rng, b: &Board) -> usize {
        let stones: Vec<usize> = (b.stones(Color::Black) | b.stones(Color::White))
            .iter()
            .collect();
        stones[rng.below(stones.len() as u64) as usize]
    }

    /// `search_moves_within`: on random crowded boards (suicides among the
    /// points), with either generator and either side complete, the moves
    /// of `search_moves` on the region, in the same order, for random
    /// regions.
    #[test]
    fn search_moves_within_a_region_are_search_moves_on_it() {
        let mut rng = pns_core::rng::Rng::new(29);
        let mut checked = 0;
        for i in 0..300 {
            let b = Board::random(&mut rng, 5 + i % 5, 3, 3);
            let t = random_stone(&mut rng, &b);
            let gen = [Generator::H1, Generator::H2, Generator::Board][i % 3];
            let Ok(g) = Capture::new(b, t, 5, gen) else {
                continue;
            };
            if g.target_libs().is_empty() {
                continue;
            }
            let side = if i % 2 == 0 {
                g.attacker()
            } else {
                g.defender()
            };
            let g = g.with_first(side).with_complete(Some(g.attacker()));
            let mut region = Bits::EMPTY;
            for p in g.board().mask().iter() {
                if rng.below(3) != 0 {
                    region.set(p);
                }
            }
            let mut all = Vec::new();
            g.search_moves(&mut all);
            all.retain(|m| match m {
                Move::Play(p) => region.get(*p as usize),
                Move::Pass => true,
            });
            let mut within = vec![Move::Pass];
            g.search_moves_within(&region, &mut within);
            assert_eq!(&within[1..], &all[..], "{g:?}");
            checked += (all.len() > 3) as u32;
        }
        assert!(checked > 100, "{checked}");
    }

    /// Two problems on one board never share a table entry: the key holds
    /// the target, the threshold and the two rules' switches (so one table
    /// can hold several targets' searches), while the repetition key, the
    /// line's, is the position's and the question's alone.
    #[test]
    fn a_key_holds_the_problem() {
        let mut rng = pns_core::rng::Rng::new(20261130);
        let mut compared = 0;
        for i in 0..400 {
            let b = Board::random(&mut rng, 5 + i % 5, 3, 3);
            let (t, u) = (random_stone(&mut rng, &b), random_stone(&mut rng, &b));
            let (Ok(g), Ok(h)) = (
                Capture::new(b, t, 5, Generator::H1),
                Capture::new(b, u, 5, Generator::H1),
            ) else {
                continue;
            };
            let Ok(g4) = Capture::new(b, t, 4, Generator::H1) else {
                continue;
            };
            let others = [
                g4,
                g.with_benson(!g.benson()),
                g.with_snapback(!g.snapback()),
            ];
            for o in others
                .iter()
                .chain((b.block(t) != b.block(u)).then_some(&h))
            {
                assert_ne!(g.key(), o.key(), "{g:?} {o:?}");
                if g.attacker() == o.attacker() {
                    assert_eq!(g.history_key(), o.history_key());
                }
                compared += 1;
            }
        }
        assert!(compared > 600, "{compared}");
    }

    /// The capture of a one-stone target in atari, read from its
    /// neighbours (`capture_is_retakable`, and `known_outcome`'s legality
    /// test by the ko point alone), agrees with the move played on a copy
    /// of the board: on random crowded boards with a random ko point, each
    /// side to move, the defender exempt or not; ko captures, captures of
    /// two blocks at once and banned points among them.
    #[test]
    fn a_retakable_capture_is_read_as_played() {
        let mut rng = pns_core::rng::Rng::new(20261130);
        let (mut checked, mut retakable, mut banned) = (0, 0, 0);
        for i in 0..100_000 {
            let mut b = Board::random(&mut rng, 4 + i % 6, 4, 4);
            if rng.below(2) == 0 {
                let empty: Vec<usize> = b.empty().iter().collect();
                if !empty.is_empty() {
                    b.set_ko_point(Some(empty[rng.below(empty.len() as u64) as usize]));
                }
            }
            let t = random_stone(&mut rng, &b);
            let Ok(g) = Capture::new(b, t, 5, Generator::Board) else {
                continue;
            };
            let libs = g.target_libs();
            if g.block.count() != 1 || libs.count() != 1 {
                continue;
            }
            let p = libs.first().unwrap();
            for first in [g.attacker(), g.defender()] {
                for exempt in [Some(g.defender()), None] {
                    let mut h = g.with_first(first).with_ko_exempt(exempt);
                    // `with_first` may clear the ko point: set it again.
                    h.board.set_ko_point(b.ko_point());
                    assert_eq!(
                        h.capture_is_retakable(p),
                        h.capture_is_retakable_by_play(p),
                        "{h:?}"
                    );
                    if first == g.attacker() {
                        assert_eq!(
                            h.board.ko_point() != Some(p),
                            h.board.is_legal_point(p, true),
                            "{h:?}"
                        );
                        banned += (h.board.ko_point() == Some(p)) as u32;
                    }
                    checked += 1;
                    retakable += h.capture_is_retakable(p) as u32;
                }
            }
        }
        assert!(
            checked > 5000 && retakable > 80 && banned > 150,
            "{checked} {retakable} {banned}"
        );
    }

    /// The verdict "not alive by Benson's rule" carried from move to move
    /// (`dead_reads`): along random lines on random crowded boards, every
    /// position that carries it has a target that Benson's steps, run
    /// afresh, find not alive; and it is carried often.
    #[test]
    fn a_carried_benson_verdict_is_benson_s_verdict() {
        let mut rng = pns_core::rng::Rng::new(31);
        let (mut carried, mut alive) = (0, 0);
        for i in 0..3000 {
            let b = Board::random(&mut rng, 5 + i % 5, 4, 3);
            let t = random_stone(&mut rng, &b);
            let Ok(mut g) = Capture::new(b, t, 9, Generator::Board) else {
                continue;
            };
            let mut moves = Vec::new();
            for _ in 0..40 {
                if g.block.is_empty() {
                    break;
                }
                // Read the verdict here, as a search would: the children
                // then carry it.
                let fresh = crate::benson::alive_area(&g.board, &g.block).is_some();
                alive += usize::from(fresh);
                if g.dead_reads.is_some() {
                    assert!(!fresh, "{g:?}");
                    carried += 1;
                }
                let libs = g.target_libs().count();
                assert_eq!(g.escaped(), g.snapped || fresh || libs >= g.threshold());
                if g.outcome().is_some() {
                    break;
                }
                moves.clear();
                g.legal_moves(&mut moves);
                let m = moves[rng.below(moves.len() as u64) as usize];
                g.play_capturing(m);
            }
        }
        assert!(carried > 3_000 && alive > 100, "{carried} {alive}");
    }

    #[test]
    fn bad_notation_is_an_error() {
        for s in [
            "(;FF[4]SZ[5]AB[cc])",
            "(;FF[4]SZ[5]AB[cc])|",
            "(;FF[4]SZ[5]AB[cc])|target=A1",
            "(;FF[4]SZ[5]AB[cc])|target=C3,libs=1",
            "(;FF[4]SZ[5]AB[cc])|target=C3,gen=all",
            "(;FF[4]SZ[5]AB[cc])|target=C3,colour=b",
            "(;FF[4]SZ[5]AB[cc])|target=Z9",
            "(;FF[4]SZ[5]AB[cc])|target=C3,benson=no",
        ] {
            assert!(Capture::parse_position(s).is_err(), "{s}");
        }
    }

    /// `benson=off` is read, kept by the question's moves and written back
    /// by `Spec::describe`; the default (on) is not written.
    #[test]
    fn benson_s_rule_is_an_option_of_the_notation() {
        let on = Capture::parse_position("(;FF[4]SZ[5]AB[cc])|target=C3").unwrap();
        let off = Capture::parse_position("(;FF[4]SZ[5]AB[cc])|target=C3,benson=off").unwrap();
        assert!(on.benson() && !off.benson());
        assert_ne!(on, off);
        assert!(!Spec::describe(&on, "C3", None).contains("benson"));
        let text = Spec::describe(&off.with_first(off.defender()), "C3", None);
        assert!(text.ends_with(",benson=off"), "{text}");
        let back = Capture::parse_position(&format!("(;FF[4]SZ[5]AB[cc])|{text}")).unwrap();
        assert!(!back.benson());
    }

    /// GNU Go's snapback example (`attack1` in `engine/reading.c`) on 7x7:
    /// White's C1 in atari at C2, where Black's capture leaves B1, B2 and
    /// C2 with the one liberty C1, two of them next to it.
    const SNAPBACK: &str =
        "(;FF[4]SZ[7]AB[bf][bg][dg][eg][ef][ee]AW[ag][af][ae][be][ce][de][df][cg])";

    /// Two passes in a row end the problem, the attacker failing
    /// ([`Capture::ended`]): the key tells the end apart from the position
    /// before the passes, the repetition key does not; a move between
    /// them, or a first pass under a ko ban, is no end; λ-df-pn's pseudo
    /// pass never ends it.
    #[test]
    fn two_passes_end_the_problem_unless_the_first_was_under_a_ko_ban() {
        // A black stone on B8 to capture; a ko in the centre: White's F5
        // takes E5, and Black may not retake at once.
        let sgf = "(;FF[4]SZ[9]AB[bb][ee][fd][ff][ge]AW[de][ed][ef])";
        let g = problem(sgf, "target=B8,first=attacker");
        let mut p = g;
        p.play(Move::Pass);
        assert!(!p.ended() && p.outcome().is_none());
        p.play(Move::Pass);
        assert!(p.ended());
        // The attacker (White, to move again) failed.
        assert_eq!(p.board().to_move(), p.attacker());
        assert_eq!(p.outcome(), Some(Outcome::Loss));
        assert_eq!(p.board(), g.board());
        assert_eq!(p.history_key(), g.history_key());
        assert_ne!(p.key(), g.key());
        // A move between the passes: no end.
        let mut q = g;
        q.play(Move::Pass);
        q.play(q.board().parse_vertex("J1").unwrap());
        q.play(Move::Pass);
        assert!(!q.ended());
        // Black's pass under the ko ban does not count as a first pass:
        // after White's pass Black may retake, so it is no return.
        let mut k = g;
        k.play(k.board().parse_vertex("F5").unwrap());
        assert!(k.board().ko_point().is_some());
        k.play(Move::Pass);
        k.play(Move::Pass);
        assert!(!k.ended() && k.outcome().is_none());
        k.play(Move::Pass);
        assert!(k.ended());
        // λ-df-pn's pass below the unrestricted level is no pass of the game.
        let mut l = g;
        l.play(Move::Pass);
        l.play_pseudo_pass();
        assert!(!l.ended());
    }

    /// A proper snapback fails the capture under the rule (the default):
    /// no capture at once, the capture ends the problem as an escape, and
    /// `attack` fails; with `snapback=off` the capture counts. With a
    /// liberty left to the capturing stones (White's D2 gone) it counts
    /// under the rule too, and the owner's stone on that liberty, making
    /// the snapback, is one of the ladder rule's lifts.
    #[test]
    fn a_proper_snapback_fails_the_capture() {
        let g = problem(SNAPBACK, "target=C1");
        assert!(g.snapback());
        let c2 = g.board().parse_vertex("C2").unwrap();
        assert_eq!(g.known_outcome(), None);
        let mut after = g;
        after.play(c2);
        assert!(after.captured() && after.snapped() && after.escaped());
        assert_eq!(
            after.outcome(),
            Some(Outcome::Win),
            "White, to move, has won"
        );
        assert_ne!(after.key(), {
            let mut plain = g.with_snapback(false);
            plain.play(c2);
            assert!(plain.captured() && !plain.snapped() && !plain.escaped());
            assert_eq!(plain.outcome(), Some(Outcome::Loss));
            plain.key()
        });
        let mut e = Effort::default();
        assert_eq!(attack(&g, 10_000, &mut e), Answer::Fails);
        let off = problem(SNAPBACK, "target=C1,snapback=off");
        assert!(!off.snapback());
        assert_eq!(off.known_outcome(), Some(Outcome::Win));
        assert_eq!(attack(&off, 10_000, &mut e), Answer::Succeeds(Some(c2)));
        let text = Spec::describe(&off, "C1", None);
        assert!(text.ends_with(",snapback=off"), "{text}");
        assert!(!Spec::describe(&g, "C1", None).contains("snapback"));
        assert!(off.render().contains("snapback rule off"));
        // White's D2 gone: the capturing stones keep D2.
        let open = SNAPBACK.replace("[df]", "");
        let g = problem(&open, "target=C1");
        assert_eq!(g.known_outcome(), Some(Outcome::Win));
        let mut after = g;
        after.play(c2);
        assert!(after.captured() && !after.snapped());
        let d2 = g.board().parse_vertex("D2").unwrap();
        let Move::Play(d2p) = d2 else {
            panic!("a point")
        };
        let (lift, reads) = crate::zone::atari_lifts(&g.with_first(Color::White)).unwrap();
        assert!(lift.get(d2p as usize), "D2 makes the snapback");
        assert!(reads.get(d2p as usize));
        let mut made = g.with_first(Color::White);
        made.play(d2);
        assert_eq!(made.known_outcome(), None, "now a snapback");
        assert!(crate::zone::atari_lifts(&made.with_first(Color::White)).is_none());
    }

    /// GNU Go's horizon in the notation, the thresholds it gives by ply,
    /// and the ply in the key but not in the repetition key.
    #[test]
    fn a_horizon_lowers_the_threshold_with_the_ply() {
        let sgf = "(;FF[4]SZ[9]AB[ee])";
        let plain = problem(sgf, "target=E5");
        assert_eq!(plain.horizon(), None);
        let g = problem(sgf, "target=E5,horizon=gnugo");
        assert_eq!(g.horizon(), Some(Horizon::GNUGO));
        assert_eq!(problem(sgf, "target=E5,horizon=7/16"), g);
        let text = Spec::describe(&g, "E5", None);
        assert!(text.ends_with(",horizon=7/16"), "{text}");
        assert_eq!(problem(sgf, &text), g);
        assert!(!Spec::describe(&plain, "E5", None).contains("horizon"));
        for bad in ["horizon=7", "horizon=a/b", "horizon=7/300", "horizon=yes"] {
            assert!(Capture::parse_position(&format!("{sgf}|target=E5,{bad}")).is_err());
        }
        // Passes keep the board: only the ply moves on.
        let mut c = g;
        let mut seen = Vec::new();
        for ply in 0..22u8 {
            assert_eq!(c.ply(), ply);
            let want = match ply {
                0..=7 => 5,
                8..=16 => 4,
                _ => 3,
            };
            assert_eq!(c.threshold(), want, "ply {ply}");
            assert_eq!(c.history_key() == g.history_key(), ply % 2 == 0);
            if ply % 2 == 0 {
                seen.push(c.key());
            }
            // Passes that do not end the problem (two would).
            c.play_pseudo_pass();
        }
        // Each ply up to the last change (17) has a key of its own; past
        // it the same position shares one (plies 18 and 20 here).
        let distinct: std::collections::HashSet<_> = seen.iter().collect();
        assert_eq!((seen.len(), distinct.len()), (11, 10), "{seen:?}");
        assert_eq!(seen[9], seen[10]);
        let mut p = plain;
        p.play_pseudo_pass();
        p.play_pseudo_pass();
        assert_eq!((p.key(), p.threshold()), (plain.key(), 5));
        // The four liberties of a lone stone escape only deep in the reading.
        let mut c = g;
        assert!(!c.escaped());
        for _ in 0..8 {
            c.play_pseudo_pass();
        }
        assert!(c.escaped());
        assert!(!plain.with_horizon(None).escaped());
    }

    /// Capture proofs are searched under [`CAPTURE_HORIZON`] unless set
    /// otherwise; escape proofs and a problem with a horizon of its own
    /// keep their rule.
    #[test]
    fn capture_proofs_are_searched_under_the_capture_horizon() {
        let sgf = "(;FF[4]SZ[9]AB[ee])";
        let g = problem(sgf, "target=E5");
        let d = capture_question(&g);
        assert_eq!(d.complete(), Some(g.defender()));
        assert_eq!(d.horizon(), Some(CAPTURE_HORIZON));
        let off = g.with_capture_horizon(None);
        assert_eq!(capture_question(&off).horizon(), None);
        let own = problem(sgf, "target=E5,horizon=gnugo");
        assert_eq!(capture_question(&own).horizon(), Some(Horizon::GNUGO));
    }

    #[test]
    fn generators_nest() {
        let g = problem("(;FF[4]SZ[9]AB[cc][dc][ec]AW[cd][dd][ed][fc])", "target=C6");
        let h1 = g.with_generator(Generator::H1).candidates();
        let h2 = g.with_generator(Generator::H2).candidates();
        let all = g.with_generator(Generator::Board).candidates();
        assert!(h1.minus(&h2).is_empty() && h2.minus(&all).is_empty());
        assert!(h1.count() < h2.count() && h2.count() < all.count());
        assert!(g.target_libs().minus(&h1).is_empty());
    }
}
