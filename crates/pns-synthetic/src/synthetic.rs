//! Seeded random game trees whose exact value a brute-force oracle gives.
//!
//! A node is a 64-bit identifier and a depth; everything about it (number
//! of children, children's identifiers, leaf values) is a hash of the seed
//! and the identifier, so a tree of any size costs no memory and the same
//! parameters always give the same tree.
//!
//! * **balanced**: every internal node has `branching` children and every
//!   leaf is at `depth`.
//! * **unbalanced**: each node has 1..=`branching` children and ends the
//!   game early with probability `stop`% (deeper nodes more often).
//! * **transpositions**: children are drawn from a pool of `pool` nodes per
//!   depth instead of being unique, so different paths reach the same node
//!   (a DAG, as in real games).
//!
//! Leaves are a win for the player to move with probability `win`%, a draw
//! with probability `draw`%, a loss otherwise.
//!
//! Notation: comma-separated `name=value` pairs, any subset, e.g.
//! `shape=unbalanced,depth=12,branching=4,seed=7,pool=50,draw=10`, then
//! optionally child indices (0-based) played from the root, separated by
//! spaces: `depth=6,seed=3 0 2`. Defaults: shape=balanced, depth=8,
//! branching=3, seed=1, pool=0 (no transpositions), win=50, draw=0, stop=0.

use std::collections::HashMap;

use pns_core::game::play_move_list;
use pns_core::prelude::*;
use pns_core::rng::splitmix64;
use pns_core::{GameError, Outcome, Side};

/// Tree shape and randomness parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TreeParams {
    pub balanced: bool,
    pub depth: u16,
    pub branching: u8,
    pub seed: u64,
    /// Nodes per depth children are drawn from; 0 = a tree.
    pub pool: u32,
    /// Leaf probabilities in percent.
    pub win: u8,
    pub draw: u8,
    /// Early-end probability in percent (unbalanced only).
    pub stop: u8,
}

impl Default for TreeParams {
    fn default() -> Self {
        TreeParams {
            balanced: true,
            depth: 8,
            branching: 3,
            seed: 1,
            pool: 0,
            win: 50,
            draw: 0,
            stop: 0,
        }
    }
}

impl TreeParams {
    /// The notation of these parameters (no moves).
    pub fn notation(&self) -> String {
        format!(
            "shape={},depth={},branching={},seed={},pool={},win={},draw={},stop={}",
            if self.balanced {
                "balanced"
            } else {
                "unbalanced"
            },
            self.depth,
            self.branching,
            self.seed,
            self.pool,
            self.win,
            self.draw,
            self.stop
        )
    }

    fn parse(s: &str) -> Result<TreeParams, GameError> {
        let mut p = TreeParams::default();
        for item in crate::params::items(s) {
            let (k, v) = item?;
            let num = |max: u64| crate::params::number(k, v, max);
            match k {
                "shape" => {
                    p.balanced = match v {
                        "balanced" => true,
                        "unbalanced" => false,
                        _ => {
                            return Err(GameError::new(format!(
                                "shape: '{v}' is neither balanced nor unbalanced"
                            )))
                        }
                    }
                }
                "depth" => p.depth = num(200)? as u16,
                "branching" => p.branching = num(64)? as u8,
                "seed" => p.seed = num(u64::MAX)?,
                "pool" => p.pool = num(1 << 30)? as u32,
                "win" => p.win = num(100)? as u8,
                "draw" => p.draw = num(100)? as u8,
                "stop" => p.stop = num(100)? as u8,
                _ => return Err(GameError::new(format!("unknown tree parameter '{k}'"))),
            }
        }
        if p.branching == 0 {
            return Err(GameError::new("branching must be at least 1"));
        }
        if p.win as u32 + p.draw as u32 > 100 {
            return Err(GameError::new("win + draw must not exceed 100"));
        }
        Ok(p)
    }
}

/// A node of a synthetic tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Synthetic {
    params: TreeParams,
    id: u64,
    depth: u16,
}

impl Synthetic {
    /// The root of the tree with these parameters.
    pub fn new(params: TreeParams) -> Self {
        Synthetic {
            params,
            id: splitmix64(params.seed ^ 0xa5a5_5a5a),
            depth: 0,
        }
    }

    pub fn params(&self) -> TreeParams {
        self.params
    }

    fn h(&self, salt: u64) -> u64 {
        splitmix64(self.id ^ splitmix64(self.params.seed.wrapping_add(salt)))
    }

    fn is_leaf(&self) -> bool {
        if self.depth >= self.params.depth {
            return true;
        }
        if self.params.balanced || self.depth == 0 {
            return false;
        }
        // Early ends grow likelier with depth.
        let p = self.params.stop as u64 * (self.depth as u64 + 1) / (self.params.depth as u64 + 1);
        self.h(1) % 100 < p
    }

    fn branching(&self) -> u8 {
        if self.params.balanced {
            self.params.branching
        } else {
            1 + (self.h(2) % self.params.branching as u64) as u8
        }
    }

    fn leaf_outcome(&self) -> Outcome {
        let r = (self.h(3) % 100) as u8;
        if r < self.params.win {
            Outcome::Win
        } else if r < self.params.win + self.params.draw {
            Outcome::Draw
        } else {
            Outcome::Loss
        }
    }

    fn child(&self, i: u8) -> Synthetic {
        let raw = splitmix64(self.h(4) ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let id = if self.params.pool > 0 {
            // Draw from a per-depth pool so paths meet.
            let slot = raw % self.params.pool as u64;
            splitmix64(slot ^ ((self.depth as u64 + 1) << 40) ^ self.params.seed)
        } else {
            raw
        };
        Synthetic {
            params: self.params,
            id,
            depth: self.depth + 1,
        }
    }

    /// The exact value for the side to move, by memoised brute force. The
    /// oracle the property tests compare every algorithm with.
    pub fn exact(&self) -> Outcome {
        fn go(n: &Synthetic, memo: &mut HashMap<(u64, u16), Outcome>) -> Outcome {
            if let Some(&o) = memo.get(&(n.id, n.depth)) {
                return o;
            }
            let o = if n.is_leaf() {
                n.leaf_outcome()
            } else {
                (0..n.branching())
                    .map(|i| go(&n.child(i), memo).flip())
                    .max()
                    .expect("at least one child")
            };
            memo.insert((n.id, n.depth), o);
            o
        }
        go(self, &mut HashMap::new())
    }
}

impl Rules for Synthetic {
    type Move = u8;

    const NAME: &'static str = "synthetic";

    fn side_to_move(&self) -> Side {
        if self.depth.is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.is_leaf() {
            Some(self.leaf_outcome())
        } else {
            None
        }
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.extend(0..self.branching());
    }

    fn play(&mut self, m: u8) {
        *self = self.child(m);
    }

    fn key(&self) -> u64 {
        splitmix64(self.id ^ ((self.depth as u64) << 48))
    }
}

impl Notation for Synthetic {
    fn parse_position(s: &str) -> Result<Self, GameError> {
        let mut parts = s.split_whitespace();
        let params = TreeParams::parse(parts.next().unwrap_or(""))?;
        play_move_list(Synthetic::new(params), parts)
    }

    fn parse_move(&self, s: &str) -> Result<u8, GameError> {
        if self.is_leaf() {
            return Err(GameError::new("the game is over"));
        }
        let i: u8 = s
            .parse()
            .map_err(|_| GameError::new(format!("'{s}' is not a child index")))?;
        if i >= self.branching() {
            return Err(GameError::new(format!(
                "child {i} does not exist (this node has {})",
                self.branching()
            )));
        }
        Ok(i)
    }

    fn format_move(&self, m: u8) -> String {
        m.to_string()
    }

    fn render(&self) -> String {
        format!(
            "{} node {:016x} at depth {}\n",
            self.params.notation(),
            self.id,
            self.depth
        )
    }
}

impl SearchHooks for Synthetic {}

impl Shortcuts for Synthetic {}

impl Playout for Synthetic {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_parse_and_bad_ones_are_rejected() {
        let g = Synthetic::parse_position("shape=unbalanced,depth=5,seed=9 0").unwrap();
        assert_eq!(g.depth, 1);
        assert!(!g.params.balanced);
        assert!(Synthetic::parse_position("depth=x").is_err());
        assert!(Synthetic::parse_position("colour=red").is_err());
        assert!(Synthetic::parse_position("branching=0").is_err());
        assert!(Synthetic::parse_position("depth=3,branching=2 5").is_err());
        assert!(Synthetic::parse_position("win=80,draw=30").is_err());
    }

    #[test]
    fn balanced_trees_have_uniform_shape_and_pools_make_transpositions() {
        let g = Synthetic::parse_position("depth=4,branching=3,seed=2").unwrap();
        let mut leaves = 0;
        let mut stack = vec![g];
        while let Some(n) = stack.pop() {
            if n.outcome().is_some() {
                assert_eq!(n.depth, 4);
                leaves += 1;
            } else {
                let mut mv = Vec::new();
                n.legal_moves(&mut mv);
                assert_eq!(mv.len(), 3);
                stack.extend(mv.iter().map(|&m| n.child(m)));
            }
        }
        assert_eq!(leaves, 81);
        // With a pool of 5, 3 children of each of 3 nodes (9 draws) at
        // depth 2 must collide.
        let t = Synthetic::parse_position("depth=4,branching=3,seed=2,pool=5").unwrap();
        let mut ids = std::collections::HashSet::new();
        for a in 0..3 {
            for b in 0..3 {
                ids.insert(t.child(a).child(b).id);
            }
        }
        assert!(ids.len() <= 5);
    }

    #[test]
    fn oracle_agrees_with_plain_negamax() {
        use pns_core::testing::negamax;
        for seed in 0..20 {
            let g = Synthetic::parse_position(&format!(
                "shape=unbalanced,depth=7,branching=4,seed={seed},draw=20,stop=30,pool=40"
            ))
            .unwrap();
            assert_eq!(g.exact(), negamax(&g));
        }
    }
}
