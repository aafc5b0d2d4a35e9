//! Nested searches: a problem whose leaf evaluation runs a df-pn search of
//! its own on the table of the search around it, in its own key space and
//! with its own budget (as a ladder or a threat check would), gets the same
//! answers, and its searches are counted apart and in the totals.

use std::cell::RefCell;

use pns_core::dfpn::{self, key_space, PathOptions, Plain};
use pns_core::prelude::*;
use pns_core::{Goal, GoalProblem, Limits, Problem, Stats, Status, Table};
use pns_games::TicTacToe;

/// Tic-tac-toe "the side to move wins", where every position is first
/// looked at by a small nested df-pn search (at most `budget` visits): a
/// position it settles is a known leaf.
struct Checked<'t> {
    inner: GoalProblem<TicTacToe>,
    tt: &'t Table,
    budget: u64,
    nested: RefCell<Stats>,
}

impl Problem for Checked<'_> {
    type Move = <TicTacToe as Rules>::Move;

    fn is_or(&self) -> bool {
        self.inner.is_or()
    }

    fn evaluate(&self) -> Status {
        let s = self.inner.evaluate();
        if s.is_solved() {
            return s;
        }
        let ctx = self.inner.context();
        let mut p = GoalProblem::with_attacker(*self.inner.game(), ctx.goal, ctx.attacker);
        let r = dfpn::search_with(
            &mut p,
            Plain::default(),
            self.tt,
            &Limits {
                visits: Some(self.budget),
                ..Limits::default()
            },
            &PathOptions {
                space: key_space(1),
                ..PathOptions::default()
            },
        );
        self.nested.borrow_mut().note_nested(&r.stats);
        r.status
    }

    fn generate(&self, out: &mut Vec<Self::Move>) {
        self.inner.generate(out)
    }

    fn play(&mut self, m: Self::Move) {
        self.inner.play(m)
    }

    fn undo(&mut self) {
        self.inner.undo()
    }

    fn key(&self) -> u64 {
        self.inner.key()
    }

    fn nested_stats(&mut self) -> Option<Stats> {
        Some(std::mem::take(self.nested.get_mut()))
    }
}

#[test]
fn nested_searches_share_the_table_and_are_counted() {
    for pos in ["", "5", "51", "519", "1", "12"] {
        let g = TicTacToe::parse_position(pos).unwrap();
        let mut plain = GoalProblem::new(g, Goal::Win);
        let want = dfpn::search(
            &mut plain,
            Plain::default(),
            &Table::with_mb(1),
            &Limits::default(),
        );

        let tt = Table::with_mb(4);
        let mut p = Checked {
            inner: GoalProblem::new(g, Goal::Win),
            tt: &tt,
            budget: 30,
            nested: RefCell::new(Stats::default()),
        };
        let got = dfpn::search(&mut p, Plain::default(), &tt, &Limits::default());
        assert_eq!(got.status, want.status, "position '{pos}'");
        let s = &got.stats;
        assert!(s.nested_searches > 0, "position '{pos}': no nested search");
        assert!(s.nested_visits > 0 && s.nested_visits < s.visits, "{s:?}");
        // The nested searches settle leaves early: the outer search alone
        // does less than the plain one.
        assert!(
            s.visits - s.nested_visits <= want.stats.visits,
            "position '{pos}'"
        );
        // Both key spaces hold their own root entry.
        let root = GoalProblem::new(g, Goal::Win).key();
        assert!(tt.probe(root).is_some(), "outer root entry");
        assert!(tt.probe(root ^ key_space(1)).is_some(), "nested root entry");
    }
}

#[test]
fn a_nested_search_keeps_to_its_budget() {
    let tt = Table::with_mb(4);
    let mut p = Checked {
        inner: GoalProblem::new(TicTacToe::new(), Goal::Win),
        tt: &tt,
        budget: 5,
        nested: RefCell::new(Stats::default()),
    };
    let r = dfpn::search(&mut p, Plain::default(), &tt, &Limits::default());
    assert_eq!(r.status, Status::Disproven);
    let s = &r.stats;
    assert!(s.nested_visits <= 5 * s.nested_searches, "{s:?}");
}
