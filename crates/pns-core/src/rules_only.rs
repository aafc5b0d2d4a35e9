//! [`RulesOnly`]: a game with its search hooks switched off.
//!
//! The papers' experiments run "primitive" searches — no game knowledge
//! beyond the rules (thesis §3.2.2: "without any supportive mechanisms").
//! Wrapping a game in `RulesOnly` keeps its rules, notation, certificate
//! checks (`concede`, `fill`, `check_claim`) and playouts, and drops the
//! rest, the search hooks and the shortcut suggestions: `known_outcome`
//! is the rules' `outcome`, `search_moves` is every legal move in the
//! game's generation order (which keeps a game's move shuffling),
//! `heuristic` is (1, 1) and `edge_cost` is 0.

use crate::game::{
    Game, GameError, Notation, Outcome, Playout, Repetition, Rules, SearchHooks, Shortcuts, Side,
};
use crate::rng::Rng;

/// A game searched with its rules only (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RulesOnly<G>(pub G);

impl<G: Game> Rules for RulesOnly<G> {
    type Move = G::Move;

    const NAME: &'static str = G::NAME;

    const HAS_DRAWS: bool = G::HAS_DRAWS;

    fn side_to_move(&self) -> Side {
        self.0.side_to_move()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }

    fn legal_moves(&self, out: &mut Vec<Self::Move>) {
        self.0.legal_moves(out)
    }

    fn play(&mut self, m: Self::Move) {
        self.0.play(m)
    }

    fn repetition(&self) -> Repetition {
        self.0.repetition()
    }

    fn repetition_loser(&self) -> Option<Side> {
        self.0.repetition_loser()
    }

    fn history_key(&self) -> u64 {
        self.0.history_key()
    }

    fn key(&self) -> u64 {
        self.0.key()
    }
}

impl<G: Game> Notation for RulesOnly<G> {
    fn parse_position(s: &str) -> Result<Self, GameError> {
        G::parse_position(s).map(RulesOnly)
    }

    fn parse_move(&self, s: &str) -> Result<Self::Move, GameError> {
        self.0.parse_move(s)
    }

    fn format_move(&self, m: Self::Move) -> String {
        self.0.format_move(m)
    }

    fn render(&self) -> String {
        self.0.render()
    }
}

impl<G: Game> SearchHooks for RulesOnly<G> {}

impl<G: Game> Shortcuts for RulesOnly<G> {
    fn concede(&mut self, to: Side, m: Self::Move) -> Result<(), GameError> {
        self.0.concede(to, m)
    }

    fn fill(&mut self, prover: Side, witness: &str) -> Result<(), GameError> {
        self.0.fill(prover, witness)
    }

    fn check_claim(&self, prover: Side, witness: &str) -> Result<(), GameError> {
        self.0.check_claim(prover, witness)
    }
}

impl<G: Game> Playout for RulesOnly<G> {
    fn playout(&self, rng: &mut Rng) -> Outcome {
        self.0.playout(rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Goal, GoalContext};

    /// Nim where the hooks lie in a detectable way.
    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    struct Hooked(u8);

    impl Rules for Hooked {
        type Move = u8;

        const NAME: &'static str = "hooked";

        const HAS_DRAWS: bool = false;

        fn side_to_move(&self) -> Side {
            Side::First
        }

        fn outcome(&self) -> Option<Outcome> {
            (self.0 == 0).then_some(Outcome::Loss)
        }

        fn legal_moves(&self, out: &mut Vec<u8>) {
            out.extend((1..=2).filter(|&k| k <= self.0))
        }

        fn play(&mut self, m: u8) {
            self.0 -= m
        }

        fn key(&self) -> u64 {
            self.0 as u64
        }
    }

    impl Notation for Hooked {
        fn parse_position(s: &str) -> Result<Self, GameError> {
            s.parse().map(Hooked).map_err(|_| GameError::new("bad"))
        }

        fn parse_move(&self, s: &str) -> Result<u8, GameError> {
            s.parse().map_err(|_| GameError::new("bad"))
        }

        fn format_move(&self, m: u8) -> String {
            m.to_string()
        }
    }

    impl SearchHooks for Hooked {
        fn known_outcome(&self) -> Option<Outcome> {
            Some(Outcome::Win)
        }

        fn search_moves(&self, out: &mut Vec<u8>) {
            out.push(1)
        }

        fn heuristic(&self, _: GoalContext) -> (u64, u64) {
            (7, 9)
        }
    }

    impl Shortcuts for Hooked {}

    impl Playout for Hooked {}

    #[test]
    fn hooks_fall_back_to_the_rules() {
        let g = RulesOnly(Hooked(5));
        assert_eq!(g.known_outcome(), None);
        let mut m = Vec::new();
        g.search_moves(&mut m);
        assert_eq!(m, vec![1, 2]);
        let ctx = GoalContext {
            attacker: Side::First,
            goal: Goal::Win,
        };
        assert_eq!(g.heuristic(ctx), (1, 1));
        assert_eq!(
            RulesOnly::<Hooked>::parse_position("3").unwrap(),
            RulesOnly(Hooked(3))
        );
    }
}
