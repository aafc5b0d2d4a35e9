//! Proof and disproof pieces ([`pns_shogi::hands`]) change how much is
//! searched, never a value: every antma problem, and each of its
//! variants with one piece of the attacker's hand handed to the defender
//! (many of them have no mate), gets the same answer from df-pn with
//! shared hands as without, wherever both solve it within a budget of
//! visits (kept small so that the test runs in seconds; the problems
//! that need more are counted, and most are compared).

use crate::shared_data;

use shared_data::read_shared as shared;

use pns_core::game::Goal;
use pns_core::{Algo, GoalProblem, Limits, Status, Table};
use pns_shogi::position::{Position, HAND_KINDS};
use pns_shogi::Tsume;

/// Visits per search.
const BUDGET: u64 = 5_000;

/// The value df-pn gives `t` with hands on or off, and its visits.
fn value(t: &Tsume, hands: bool, tt: &mut Table) -> (Status, u64) {
    let mut t = t.clone();
    t.set_hands(hands);
    tt.clear();
    let mut p = GoalProblem::new(t, Goal::Win);
    let r = Algo::default().run(
        &mut p,
        tt,
        &Limits {
            visits: Some(BUDGET),
            ..Limits::default()
        },
    );
    (r.status, r.stats.visits)
}

#[test]
fn hands_give_the_same_values_as_plain_df_pn() {
    let text = shared("shogi/antma-tsume.tsv");
    let mut tt = Table::with_mb(32);
    let mut problems = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let sfen = line.split('\t').next().unwrap();
        let t = Tsume::parse(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        problems.push((sfen.to_string(), t.clone()));
        // One piece fewer for the attacker, one more for the defender.
        let me = t.attacker();
        let pos = t.position();
        for k in 0..HAND_KINDS {
            if pos.hand(me)[k] == 0 {
                continue;
            }
            let mut q: Position = pos.clone();
            let (mut a, mut d) = (*q.hand(me), *q.hand(me.flip()));
            a[k] -= 1;
            d[k] += 1;
            q.set_hand(me, a);
            q.set_hand(me.flip(), d);
            let v = Tsume::new(q, me).unwrap();
            problems.push((format!("{sfen} (one {k} to the defender)"), v));
        }
    }
    assert!(problems.len() > 100, "{}", problems.len());
    let (mut with, mut without) = (0u64, 0u64);
    let mut counts = [0usize; 3];
    let mut wrong = Vec::new();
    for (name, t) in &problems {
        let (a, va) = value(t, true, &mut tt);
        let (b, vb) = value(t, false, &mut tt);
        if std::env::var_os("HANDS_TRACE").is_some() {
            eprintln!("{va} {vb} {a:?} {name}");
        }
        with += va;
        without += vb;
        if !a.is_solved() || !b.is_solved() {
            counts[0] += 1;
            continue;
        }
        counts[if a == Status::Proven { 1 } else { 2 }] += 1;
        if a != b {
            wrong.push(format!("{name}: with hands {a:?}, without {b:?}"));
        }
    }
    eprintln!(
        "{} positions (over budget / proven / disproven {:?}): {with} visits with hands, {without} without",
        problems.len(),
        counts
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Most positions compared, both answers exercised.
    assert!(
        counts[1] > 100 && counts[2] > 40 && counts[0] < 50,
        "{counts:?}"
    );
}

/// The pieces are wired in: a mate in 1 where the defender may interpose
/// drop after drop (antma line 4) is proven with far fewer visits when
/// the proof of one interposition settles the others.
#[test]
fn pieces_share_the_proofs_of_interpositions() {
    let t = Tsume::parse("k8/9/1K7/9/9/9/8B/8B/9 b 2r4g4s4n4l18p 1").unwrap();
    let mut tt = Table::with_mb(16);
    let (a, with) = value(&t, true, &mut tt);
    let (b, without) = value(&t, false, &mut tt);
    // Measured at 764a8d9: 204 visits with pieces, 14,037 without (over this test's
    // budget of 5,000, so the search without pieces stops unknown).
    assert_eq!((a, b), (Status::Proven, Status::Unknown));
    assert!(with < 1_000, "{with} visits with pieces");
    assert!(without >= BUDGET, "{without} visits without pieces");
}
