//! Ladder search: the specialised reader of λ¹ (Thomsen 2000, "Lambda
//! search in game trees": a λ¹-tree is a ladder, the attacker playing only
//! direct threats to capture; the λ-df-pn paper, §3, uses a ladder search
//! for order 1), and the status Fuego's `go_ladder` reports.
//!
//! The *hunter* plays only ataris on a target with two liberties; the
//! *prey* only extends at its liberties, captures a hunter block next to
//! it that is in atari, or, while it has two liberties, puts such a block
//! with two liberties in atari (Fuego's case `adjacent-blocks` 100 needs
//! the counter-atari). The prey escapes with three liberties or more and
//! is captured when the hunter can take its last liberty. Simple ko
//! applies; a ladder longer than [`MAX_PLIES`] (only a ko cycle gets
//! there) counts as an escape.

use crate::board::{Board, Color, Move};

/// The longest ladder read, in moves.
pub const MAX_PLIES: usize = 400;

/// Fuego's three answers to `go_ladder`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LadderStatus {
    /// Captured even with the prey moving first.
    Captured,
    /// Escapes even with the hunter moving first.
    Escaped,
    /// Captured when the hunter moves first, escapes when the prey does.
    Unsettled,
}

impl LadderStatus {
    pub fn name(self) -> &'static str {
        match self {
            LadderStatus::Captured => "captured",
            LadderStatus::Escaped => "escaped",
            LadderStatus::Unsettled => "unsettled",
        }
    }
}

/// A ladder reader with its node count.
#[derive(Clone, Debug, Default)]
pub struct Ladder {
    /// Positions visited.
    pub nodes: u64,
}

impl Ladder {
    pub fn new() -> Ladder {
        Ladder::default()
    }

    /// The ladder status of the block at `target` (Fuego's `go_ladder`).
    pub fn status(&mut self, b: &Board, target: usize) -> Option<LadderStatus> {
        let prey = b.color_at(target)?;
        let mut h = *b;
        h.set_to_move(prey.opponent());
        let mut p = *b;
        p.set_to_move(prey);
        Some(if !self.hunter_captures(&h, target, prey, 0) {
            LadderStatus::Escaped
        } else if self.prey_escapes(&p, target, prey, 0) {
            LadderStatus::Unsettled
        } else {
            LadderStatus::Captured
        })
    }

    /// With the hunter to move on `b`: whether ataris capture the prey.
    pub fn hunter_captures(&mut self, b: &Board, target: usize, prey: Color, ply: usize) -> bool {
        self.nodes += 1;
        if b.color_at(target) != Some(prey) {
            return true;
        }
        if ply >= MAX_PLIES {
            return false;
        }
        let libs = b.liberties(&b.block(target));
        match libs.count() {
            1 => {
                let p = libs.first().expect("one liberty");
                b.is_legal_point(p, true)
            }
            2 => libs.iter().any(|l| {
                let mut c = *b;
                c.play(Move::Play(l as u16), true).is_ok()
                    && !self.prey_escapes(&c, target, prey, ply + 1)
            }),
            _ => false,
        }
    }

    /// With the prey to move on `b`: whether it gets out (three liberties,
    /// or a position the hunter cannot capture).
    pub fn prey_escapes(&mut self, b: &Board, target: usize, prey: Color, ply: usize) -> bool {
        self.nodes += 1;
        if b.color_at(target) != Some(prey) {
            return false;
        }
        if ply >= MAX_PLIES {
            return true;
        }
        let blk = b.block(target);
        let libs = b.liberties(&blk);
        if libs.count() >= 3 {
            return true;
        }
        // Extensions, captures of hunter blocks in atari, and, with two
        // liberties, counter-ataris on hunter blocks with two (an atari
        // answers a prey in atari at once, so only then can they help).
        let mut cand = libs;
        for a in b.adjacent_blocks(&blk) {
            let l = b.liberties(&a);
            if l.count() == 1 || (l.count() == 2 && libs.count() == 2) {
                cand |= l;
            }
        }
        cand.iter().any(|p| {
            let mut c = *b;
            c.play(Move::Play(p as u16), true).is_ok()
                && !self.hunter_captures(&c, target, prey, ply + 1)
        })
    }
}

/// The GTP answer for `go_ladder VERTEX` on `b`.
pub fn gtp_answer(b: &Board, target: usize) -> Result<String, String> {
    Ladder::new()
        .status(b, target)
        .map(|s| s.name().to_string())
        .ok_or_else(|| format!("{} is empty", b.vertex(target)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(sgf: &str) -> Board {
        *crate::sgf::load(sgf, None, crate::game::KoRule::Simple)
            .unwrap()
            .game
            .board()
    }

    #[test]
    fn open_ladder_to_the_corner() {
        // White D4 (dd on 7x7) under Black C4, D5 and E5: two liberties,
        // and each extension leaves two; nothing on the board breaks it.
        let b = board("(;FF[4]SZ[7]AB[cd][dc][ec]AW[dd])");
        let Move::Play(t) = b.parse_vertex("D4").unwrap() else {
            panic!("a point")
        };
        let mut l = Ladder::new();
        assert_eq!(l.status(&b, t as usize), Some(LadderStatus::Unsettled));
        assert!(l.nodes > 8);
        // With three liberties it is out whoever moves.
        let b = board("(;FF[4]SZ[7]AB[dc]AW[dd])");
        assert_eq!(
            Ladder::new().status(&b, t as usize),
            Some(LadderStatus::Escaped)
        );
        // One liberty and no way out: captured even moving first.
        let b = board("(;FF[4]SZ[7]AB[ba][bb][ac]AW[aa])");
        let Move::Play(c) = b.parse_vertex("A7").unwrap() else {
            panic!("a point")
        };
        assert_eq!(
            Ladder::new().status(&b, c as usize),
            Some(LadderStatus::Captured)
        );
    }
}
