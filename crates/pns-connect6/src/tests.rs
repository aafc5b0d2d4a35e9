//! Unit and property tests: rules and threats against plain cell-by-cell
//! versions, VCDT claims against a rules-only search, the zone search and
//! its certificates against the negamax oracle.

use std::collections::HashMap;

use pns_core::prelude::*;
use pns_core::{Goal, Limits, Outcome, Rng, Side, Table};
use proptest::prelude::*;

use super::*;
use crate::geometry::CellSet;
use crate::position::{hitting_sets, min_hitting};
use crate::zone::{Variant, ZoneOptions};
use crate::Params;

/// The exact value for the side to move by plain minimax through the
/// rules (`outcome`, `legal_moves`, `play`). Not `pns_core::testing::negamax`:
/// that one negates at every move, and here a side places two stones in a
/// row.
fn negamax_memo(g: &Connect6, memo: &mut HashMap<Connect6, Outcome>) -> Outcome {
    if let Some(o) = g.outcome() {
        return o;
    }
    if let Some(&o) = memo.get(g) {
        return o;
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let mut best = Outcome::Loss;
    for m in moves {
        let mut c = g.clone();
        c.play(m);
        let v = negamax_memo(&c, memo);
        let v = if c.side_to_move() == g.side_to_move() {
            v
        } else {
            v.flip()
        };
        best = best.max(v);
        if best == Outcome::Win {
            break;
        }
    }
    memo.insert(g.clone(), best);
    best
}

fn pos(s: &str) -> Connect6 {
    Connect6::parse_position(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// k in a row for `side`, cell by cell.
fn naive_win(g: &Connect6, side: Side) -> bool {
    let geo = g.geometry();
    let (w, h, k) = (geo.width as isize, geo.height as isize, geo.k as isize);
    for r in 0..h {
        for c in 0..w {
            for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                let ok = (0..k).all(|i| {
                    let (x, y) = (c + i * dc, r + i * dr);
                    x >= 0 && y >= 0 && x < w && y < h && g.at((y * w + x) as u16) == Some(side)
                });
                if ok {
                    return true;
                }
            }
        }
    }
    false
}

/// Windows free of the opponent with at least `min` stones of `side`, as
/// sorted empty-cell lists, cell by cell.
fn naive_windows(g: &Connect6, side: Side, min: usize) -> Vec<Vec<u16>> {
    let geo = g.geometry();
    let (w, h, k) = (geo.width as isize, geo.height as isize, geo.k as isize);
    let mut out: Vec<Vec<u16>> = Vec::new();
    for r in 0..h {
        for c in 0..w {
            for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                let cells: Vec<u16> = (0..k)
                    .map(|i| (c + i * dc, r + i * dr))
                    .filter(|&(x, y)| x >= 0 && y >= 0 && x < w && y < h)
                    .map(|(x, y)| (y * w + x) as u16)
                    .collect();
                if cells.len() != k as usize {
                    continue;
                }
                if cells.iter().any(|&x| g.at(x) == Some(side.opponent())) {
                    continue;
                }
                let own = cells.iter().filter(|&&x| g.at(x) == Some(side)).count();
                let mut e: Vec<u16> = cells.into_iter().filter(|&x| g.at(x).is_none()).collect();
                e.sort_unstable();
                if own >= min && !e.is_empty() && e.len() <= 8 && !out.contains(&e) {
                    out.push(e);
                }
            }
        }
    }
    out.sort();
    out
}

fn brute_min_hitting(ws: &[Vec<u16>], cap: usize) -> usize {
    let mut u: Vec<u16> = ws.iter().flatten().copied().collect();
    u.sort_unstable();
    u.dedup();
    for size in 0..=cap {
        let mut found = false;
        let mut idx: Vec<usize> = (0..size).collect();
        if size <= u.len() {
            loop {
                let set: Vec<u16> = idx.iter().map(|&i| u[i]).collect();
                if ws.iter().all(|w| w.iter().any(|c| set.contains(c))) {
                    found = true;
                    break;
                }
                // next combination
                let mut i = size;
                loop {
                    if i == 0 {
                        break;
                    }
                    i -= 1;
                    if idx[i] < u.len() - size + i {
                        idx[i] += 1;
                        for j in i + 1..size {
                            idx[j] = idx[j - 1] + 1;
                        }
                        i = usize::MAX;
                        break;
                    }
                }
                if i != usize::MAX {
                    break;
                }
            }
        }
        if found {
            return size;
        }
    }
    cap + 1
}

/// Random stones from the start, `n` of them, stopping early at the end.
fn random_game(params: &str, n: usize, seed: u64) -> Connect6 {
    let mut g = pos(params);
    let mut rng = Rng::new(seed);
    for _ in 0..n {
        if g.is_over() {
            break;
        }
        let e: Vec<u16> = g.empties().iter().collect();
        g.place(e[rng.below(e.len() as u64) as usize]);
    }
    g
}

/// Random stones that do not end the game (a stone that would is redrawn),
/// leaving `empty` cells; `None` if the game cannot be kept open.
fn open_position(params: &str, empty: usize, seed: u64) -> Option<Connect6> {
    let mut g = pos(params);
    let mut rng = Rng::new(seed);
    while g.empties().len() > empty {
        let mut e: Vec<u16> = g.empties().iter().collect();
        loop {
            if e.is_empty() {
                return None;
            }
            let i = rng.below(e.len() as u64) as usize;
            let mut c = g.clone();
            c.place(e[i]);
            if !c.is_over() {
                g = c;
                break;
            }
            e.swap_remove(i);
        }
    }
    Some(g)
}

#[test]
fn notation_round_trips_and_errors() {
    let g = pos("j10 i9j9 k11k9");
    assert_eq!(g.stones(), 5);
    assert_eq!(g.side_to_move(), Side::Second);
    assert_eq!(g.stones_left(), 2);
    // Written back with Black's stones in cell order: the same position.
    assert_eq!(notation::format_position(&g), "k9 i9j9 j10k11");
    assert_eq!(pos(&notation::format_position(&g)), g);
    let h = pos("9x9,k=5 e5 d4");
    assert_eq!(h.stones_left(), 1);
    assert_eq!(h.side_to_move(), Side::Second);
    assert_eq!(notation::format_position(&h), "9x9,k=5 e5 d4");
    assert_eq!(pos("9x9,k=5 e5 d4 ").key(), h.key());
    for bad in [
        "j10 j10k11",
        "j10 i9 k10",
        "t1",
        "a20",
        "j10j11",
        "7x7,k=9",
        "7x7,z=3",
        "30x30",
        "j10 i9j9 k!",
        "7x7,turn=x",
    ] {
        assert!(Connect6::parse_position(bad).is_err(), "{bad}");
    }
    // A move in each mode.
    assert_eq!(h.format_move(h.parse_move("a1").unwrap()), "a1");
    assert!(h.parse_move("e5").is_err());
    assert!(h.parse_move("a1b1").is_err());
    let p = pos("9x9,k=5,turn=pair e5");
    let m = p.parse_move("d4c3").unwrap();
    assert_eq!(p.format_move(m), "c3d4");
    assert!(p.parse_move("d4").is_err());
}

#[test]
fn sgf_reads_connect6_records() {
    // SGF rows count from the top: jj is the centre of 19x19 (j10).
    let g = pos("(;FF[4]SZ[19];B[jj];W[ii][ij];B[kk][kl])");
    assert_eq!(g, pos("j10 i11i10 k9k8"));
    let h = pos("(;SZ[19];B[jj];W[iiij])");
    assert_eq!(h, pos("j10 i11i10"));
    assert!(Connect6::parse_position("(;SZ[19];W[jj])").is_err());
    assert!(Connect6::parse_position("(;SZ[19];B[zz])").is_err());
}

#[test]
fn a_six_wins_and_an_overline_too() {
    // Black: j10, then pairs along row 10.
    let g = pos("j10 a1a2 k10l10 a3a4 m10n10 b1b2 o10");
    assert_eq!(g.winner(), Some(Side::First));
    assert_eq!(g.outcome(), Some(Outcome::Loss));
    assert_eq!(g.side_to_move(), Side::Second);
    // The stone after the win is refused.
    assert!(Connect6::parse_position("j10 a1a2 k10l10 a3a4 m10n10 b1b2 o10p10").is_err());
    // Seven in a row (overline) wins as well.
    let h = pos("j10 a1a2 k10l10 a3a4 n10o10 b1b2 p10m10");
    assert_eq!(h.winner(), Some(Side::First));
    // A full board without a line is a draw.
    let d = pos("2x2,k=3 a1 a2b2 b1");
    assert_eq!(d.outcome(), Some(Outcome::Draw));
}

#[test]
fn win_detection_matches_a_cell_scan() {
    for seed in 0..300 {
        let spec = [
            "7x7,k=4",
            "8x6,k=5",
            "19x19",
            "9x9,k=5,p=3,q=2",
            "5x9,k=3,p=1",
        ][seed as usize % 5];
        let mut g = pos(spec);
        let mut rng = Rng::new(seed);
        while !g.is_over() {
            let e: Vec<u16> = g.empties().iter().collect();
            let side = g.side_to_move();
            g.place(e[rng.below(e.len() as u64) as usize]);
            assert_eq!(
                g.winner() == Some(side),
                naive_win(&g, side),
                "{spec} {g:?}"
            );
            assert!(g.winner().is_some() || !naive_win(&g, side.opponent()));
        }
    }
}

#[test]
fn windows_and_threat_counts_match_cell_scans() {
    for seed in 0..400 {
        let spec = ["19x19", "9x9,k=5", "7x7,k=4", "12x8,k=6"][seed as usize % 4];
        let n = 4 + (seed as usize * 7) % 40;
        let g = random_game(spec, n, seed);
        if g.is_over() {
            continue;
        }
        for side in [Side::First, Side::Second] {
            let k = g.params().k;
            for min in [k.saturating_sub(4), k - 3, k - 2, k - 1] {
                let mut ws = Vec::new();
                g.windows(side, min, &mut ws);
                let mut got: Vec<Vec<u16>> = ws.iter().map(|w| w.empties().to_vec()).collect();
                got.sort();
                assert_eq!(
                    got,
                    naive_windows(&g, side, min),
                    "{spec} {g:?} {side:?} min {min}"
                );
            }
            let mut live = Vec::new();
            g.live_windows(side, 2, &mut live);
            let plain: Vec<Vec<u16>> = live.iter().map(|w| w.empties().to_vec()).collect();
            for cap in 0..=3 {
                assert_eq!(
                    min_hitting(&live, cap),
                    brute_min_hitting(&plain, cap),
                    "{g:?}"
                );
            }
            let m = min_hitting(&live, 3);
            if (1..=3).contains(&m) {
                for s in hitting_sets(&live, m) {
                    assert_eq!(s.len(), m);
                    assert!(plain.iter().all(|w| w.iter().any(|c| s.contains(c))));
                }
            }
        }
    }
}

#[test]
fn threats_single_double_triple() {
    // Black to move after White's turn; White has four in a row (j-m 5)
    // open at both ends: one window needs 2 of i5, n5... count by cells.
    let g = pos("19x19 a19 j5k5 a1a2 l5m5 b1");
    // Black has one stone of its turn left; White has j5-m5.
    assert_eq!(g.side_to_move(), Side::First);
    // White's windows with four stones: h5-m5, i5-n5, j5-o5: two cells
    // (i5, n5) meet them all.
    assert_eq!(g.threats(Side::Second, 3), 2);
    // With five in a row, three separate fours: triple.
    let t = pos("19x19 a19 j5k5 a1a2 l5m5 b1b2 j7k7 c1c2 l7m7 d1d2 j9k9 e1e2 l9m9 f2");
    assert_eq!(t.threats(Side::Second, 2), 3);
    assert_eq!(t.threats(Side::Second, 9), 6);
    assert_eq!(t.known(), Some(Outcome::Loss));
}

#[test]
fn must_block_keeps_a_best_move() {
    // On small random positions, the game's moves agree with the rules-only
    // values: the best value over search_moves equals negamax.
    let mut memo = HashMap::new();
    for seed in 0..60 {
        let Some(g) = open_position("5x5,k=4", 9, seed) else {
            continue;
        };
        let want = negamax_memo(&g, &mut memo);
        if let Some(o) = g.known() {
            assert_eq!(o, want, "{g:?}");
            continue;
        }
        let mut ms = Vec::new();
        g.search_moves(&mut ms);
        let best = ms
            .iter()
            .map(|&m| {
                let mut c = g.clone();
                c.play(m);
                let v = negamax_memo(&c, &mut memo);
                if c.side_to_move() == g.side_to_move() {
                    v
                } else {
                    v.flip()
                }
            })
            .max()
            .unwrap();
        assert_eq!(best, want, "{g:?}");
    }
}

fn solve_value(g: &Connect6) -> Option<Outcome> {
    let opts = pns_core::solve::SolveOptions::default();
    pns_core::solve::solve(g, "", &opts, &mut Table::with_mb(8)).value
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// (a) On small boards the full df-pn solver (the game's hooks) and the
    /// zone search agree with a rules-only negamax.
    #[test]
    fn solvers_agree_with_negamax(seed in 0u64..1_000_000, which in 0usize..4) {
        let (spec, empty) = [("7x7,k=4", 11), ("7x7,k=5", 12), ("8x8,k=5", 11), ("9x9,k=5", 10)][which];
        if let Some(g) = open_position(spec, empty, seed) {
            let want = negamax_memo(&g, &mut HashMap::new());
            prop_assert_eq!(solve_value(&g), Some(want), "{:?}", g);
            let tt = Table::with_mb(8);
            for zones in [true, false] {
                let opts = ZoneOptions { zones, ..ZoneOptions::default() };
                let (v, _) = zone::solve(&g, Variant::Dfpn, &tt, &Limits::default(), opts);
                prop_assert_eq!(v, Some(want), "zones {} {:?}", zones, g);
            }
        }
    }

    /// (b) Every VCDT proof is a real win (negamax) and its witness passes
    /// the rules-only check; a witness with a reply removed fails.
    #[test]
    fn vcdt_wins_are_real(seed in 0u64..1_000_000, which in 0usize..3) {
        let (spec, empty) = [("7x7,k=4", 12), ("7x7,k=5", 13), ("9x9,k=5", 12)][which];
        if let Some(g) = open_position(spec, empty, seed) {
            let x = g.side_to_move();
            let tt = Table::with_mb(4);
            let mut st = pns_core::Stats::default();
            if let Some(t) = vcdt::prove(&g, x, &tt, 20_000, 0, &mut st) {
                let w = vcdt::witness(&g, x, &t);
                prop_assert!(claim::check(&g, x, &w).is_ok(), "{:?} {} {:?}", g, w, claim::check(&g, x, &w));
                prop_assert_eq!(negamax_memo(&g, &mut HashMap::new()), Outcome::Win, "{:?} {}", g, w);
                if let Some(i) = w.find(';') {
                    // Drop the first reply: the check must notice.
                    let j = w[..i].rfind('(').unwrap();
                    let cut = format!("{}{}", &w[..j + 1], &w[i + 1..]);
                    prop_assert!(claim::check(&g, x, &cut).is_err(), "{}", cut);
                }
            }
        }
    }
}

#[test]
fn claims_accept_vcdt_and_reject_bad_witnesses() {
    // Black to move with two open threes (c5-e5, c8-e8): f5 and f8 make
    // two fours, four threats against White's two stones.
    let g = pos("13x13 g7 a1c1 c5d5 e1g1 e5c8 i1k1 d8e8 a13c13");
    let x = Side::First;
    assert_eq!(g.side_to_move(), x);
    let tt = Table::with_mb(4);
    let mut st = pns_core::Stats::default();
    let t = vcdt::prove(&g, x, &tt, 10_000, 0, &mut st).expect("a VCDT");
    let w = vcdt::witness(&g, x, &t);
    assert!(claim::check(&g, x, &w).is_ok(), "{w}");
    assert_eq!(g.check_claim(x, &w), Ok(()));
    // What the claim rests on, spelt out: after f5 f8 no two White stones
    // meet every window.
    assert_eq!(claim::check(&g, x, "f5f8"), Ok(()));
    // Refusals: wrong side, no threat, a single threat, bad syntax, a
    // full cell, a stone too many, replies where none are possible.
    assert!(claim::check(&g, Side::Second, &w).is_err());
    assert!(claim::check(&g, x, "a7b7").is_err());
    assert!(claim::check(&g, x, "f5a7").is_err());
    assert!(claim::check(&g, x, "garbage").is_err());
    assert!(claim::check(&g, x, "c5f8").is_err());
    assert!(claim::check(&g, x, "f5f8g8").is_err());
    assert!(claim::check(&g, x, "f5f8(a5b5>a6b6)").is_err());
    // A defender node: White to move after f5 f8 has no answer.
    let h = pos("13x13 g7 a1c1 c5d5 e1g1 e5c8 i1k1 d8e8 a13c13 f5f8");
    assert_eq!(claim::check(&h, x, "()"), Ok(()));
    assert!(claim::check(&h, x, "(a5b5>a6b6)").is_err());
    // White to move at a quiet node: no threat to claim.
    let q = pos("13x13 g7 a1a2");
    assert!(claim::check(&q, x, "()").is_err());
}

#[test]
fn certificates_of_zone_proofs_verify() {
    let mut checked = 0;
    for seed in 0..40 {
        let Some(g) = open_position(
            ["7x7,k=4", "7x7,k=5", "8x8,k=5"][seed as usize % 3],
            14,
            seed,
        ) else {
            continue;
        };
        let tt = Table::with_mb(16);
        let text = notation::format_position(&g);
        let cert = certify::certify(&g, &text, &tt, ZoneOptions::default(), &Limits::default())
            .expect("certificate");
        let want = negamax_memo(&g, &mut HashMap::new());
        assert_eq!(cert.value, want, "{text}");
        let back = pns_core::certificate::Certificate::parse(&cert.to_text()).unwrap();
        let v = pns_core::verify::verify(&g, &back).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(v, want);
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} positions");
}

#[test]
fn openings_get_the_same_value_with_and_without_zones() {
    // (c) Seeded four-move openings on 9x9, five in a row: the zone search
    // with zones, without them, and the game's own df-pn (no VCDT, no
    // zones) give the same values, and zones do prune on some of them.
    let params = Params {
        width: 9,
        height: 9,
        k: 5,
        ..Params::default()
    };
    let mut zones_used = 0;
    let mut values = Vec::new();
    for seed in 0..14 {
        let g = openings::random_opening(params, 4, 2, 2, &mut Rng::new(seed)).unwrap();
        let tt = Table::with_mb(16);
        let with = zone::solve(
            &g,
            Variant::Dfpn,
            &tt,
            &Limits::default(),
            ZoneOptions::default(),
        );
        let tt2 = Table::with_mb(16);
        let off = ZoneOptions {
            zones: false,
            ..ZoneOptions::default()
        };
        let without = zone::solve(&g, Variant::Dfpn, &tt2, &Limits::default(), off);
        assert!(with.0.is_some(), "{g:?}");
        assert_eq!(with.0, without.0, "{g:?}");
        assert_eq!(with.0, solve_value(&g), "{g:?}");
        zones_used += with.1.iter().map(|(_, r)| r.counts.zones).sum::<u64>();
        values.push(with.0);
    }
    assert!(zones_used > 0, "no zone was derived");
    assert!(
        values.contains(&Some(Outcome::Win)) && values.iter().any(|v| *v != Some(Outcome::Win))
    );
}

#[test]
fn zones_are_kept_whole_in_the_table_or_derived_again() {
    let w = pos("13x13 g7 a1c1 c5d5 e1g1 e5c8 i1k1 d8e8 a13c13 m1m2");
    let tt = Table::with_mb(4);
    let make = || {
        zone::ZoneSearch::with_attacker(
            w.clone(),
            Goal::Win,
            Side::First,
            &tt,
            ZoneOptions::default(),
        )
    };
    let first = make();
    assert_eq!(first.stored_zone(&w), None, "nothing stored yet");
    let z = first.zone(&w).expect("a zone");
    assert_eq!(first.counts().zones, 1);
    // A second search on the table reads the zone without deriving it.
    let second = make();
    assert_eq!(second.stored_zone(&w), Some(Some(z)));
    assert_eq!(second.zone(&w), Some(z));
    assert_eq!(second.counts().zones, 0);
    // The other attacker's zones are apart.
    let other = zone::ZoneSearch::with_attacker(
        w.clone(),
        Goal::Win,
        Side::Second,
        &tt,
        ZoneOptions::default(),
    );
    assert_eq!(other.stored_zone(&w), None);
    // A part overwritten by another zone's (its own checksum) is never
    // assembled into a zone: the zone is derived again, the same.
    let mut keys = Vec::new();
    tt.for_each_live(|k, h| {
        if (h.pn, h.dn) == (z.0[2], z.0[3]) && h.best != 0 {
            keys.push((k, h));
        }
    });
    assert_eq!(keys.len(), 1, "one entry holds the zone's second part");
    let (k, h) = keys[0];
    tt.store(k, h.pn ^ 1, h.dn, h.amount, h.flags, h.best ^ 1);
    let third = make();
    assert_eq!(third.stored_zone(&w), None);
    assert_eq!(third.zone(&w), Some(z));
    assert_eq!(third.counts().zones, 1);
    assert_eq!(make().stored_zone(&w), Some(Some(z)));
}

#[test]
fn zones_hold_the_proof_and_the_defenders_threat_cells() {
    // After White's null move Black wins by f5f8 (two open fours). The
    // zone holds Black's stones and the cells of its live windows; a
    // White turn outside it leaves the same witness valid.
    let w = pos("13x13 g7 a1c1 c5d5 e1g1 e5c8 i1k1 d8e8 a13c13 m1m2");
    assert_eq!(w.side_to_move(), Side::Second);
    let tt = Table::with_mb(4);
    let zs = zone::ZoneSearch::with_attacker(
        w.clone(),
        Goal::Win,
        Side::First,
        &tt,
        ZoneOptions::default(),
    );
    let (z, proof) = zs.derive_zone(&w).expect("a zone");
    let g = w.clone();
    for c in ["f5", "f8", "b5", "g5", "b8", "g8"] {
        assert!(
            z.contains(notation::parse_cell(g.geometry(), c).unwrap()),
            "{c}"
        );
    }
    let mut null = w.clone();
    null.pass_turn();
    let witness = vcdt::witness(&null, Side::First, &proof);
    assert_eq!(claim::check(&null, Side::First, &witness), Ok(()));
    let mut outside = 0;
    for a in w.empties().iter().filter(|&c| !z.contains(c)).take(6) {
        for b in w
            .empties()
            .iter()
            .filter(|&c| !z.contains(c) && c > a)
            .take(3)
        {
            let mut c = w.clone();
            c.place(a);
            c.place(b);
            assert_eq!(claim::check(&c, Side::First, &witness), Ok(()));
            outside += 1;
        }
    }
    assert!(outside > 0);
    // A White stone inside the zone breaks it.
    let mut c = w.clone();
    c.place(notation::parse_cell(g.geometry(), "f5").unwrap());
    c.place(notation::parse_cell(g.geometry(), "m3").unwrap());
    assert!(claim::check(&c, Side::First, &witness).is_err());
}

/// Random stones that leave no side a threat (a stone that would give its
/// side a live window is redrawn), leaving `empty` cells.
fn quiet_position(params: &str, empty: usize, seed: u64) -> Option<Connect6> {
    let mut g = pos(params);
    let mut rng = Rng::new(seed);
    let p = g.params().p;
    while g.empties().len() > empty {
        let mut e: Vec<u16> = g.empties().iter().collect();
        loop {
            if e.is_empty() {
                return None;
            }
            let i = rng.below(e.len() as u64) as usize;
            let side = g.side_to_move();
            let mut c = g.clone();
            c.place(e[i]);
            let mut w = Vec::new();
            c.live_windows(side, p, &mut w);
            if !c.is_over() && w.is_empty() {
                g = c;
                break;
            }
            e.swap_remove(i);
        }
    }
    Some(g)
}

/// Whether the side to move has a VCDT (searched to 20,000 visits).
fn has_vcdt(g: &Connect6) -> bool {
    let tt = Table::with_mb(4);
    let mut st = pns_core::Stats::default();
    vcdt::prove(g, g.side_to_move(), &tt, 20_000, 0, &mut st).is_some()
}

#[test]
fn zone_search_agrees_on_quiet_positions() {
    // Random dense positions are nearly all VCDT wins for the side to move
    // (a claim at the root). Here only quiet positions without one: the search
    // has to go below the root, and the zones at the defender's nodes do
    // the pruning. Values against the rules-only minimax, zones on and off,
    // and the game's df-pn.
    let mut quiet = 0;
    let mut zones = 0;
    let mut values = Vec::new();
    // (A longer run of this test, 120 seeds with 12-13 empty cells, met 84
    // quiet positions, derived 431,541 zones and agreed on every one.)
    for seed in 0..24u64 {
        let (spec, empty) = [("7x7,k=5", 10), ("8x8,k=5", 10), ("9x9,k=5", 10)][seed as usize % 3];
        let Some(g) = quiet_position(spec, empty, seed * 7919) else {
            continue;
        };
        if g.known().is_some() || has_vcdt(&g) {
            continue;
        }
        quiet += 1;
        let want = negamax_memo(&g, &mut HashMap::new());
        for on in [true, false] {
            let tt = Table::with_mb(8);
            let opts = ZoneOptions {
                zones: on,
                ..ZoneOptions::default()
            };
            let (v, runs) = zone::solve(&g, Variant::Dfpn, &tt, &Limits::default(), opts);
            assert_eq!(v, Some(want), "zones {on} {g:?}");
            if on {
                zones += runs.iter().map(|(_, r)| r.counts.zones).sum::<u64>();
            }
        }
        assert_eq!(solve_value(&g), Some(want), "{g:?}");
        values.push(want);
    }
    assert!(quiet >= 8, "only {quiet} quiet positions");
    assert!(zones > 0, "no zone derived");
    assert!(values.iter().any(|&v| v != Outcome::Win), "{values:?}");
    eprintln!("{quiet} quiet positions, {zones} zones, values {values:?}");
}

/// `g` (defender to move) after the defender's stones `t` and the null
/// move of the rest of its turn: the null-move position with `t` added.
fn null_plus(g: &Connect6, t: &[u16]) -> Connect6 {
    let d = g.side_to_move();
    let mut c = g.clone();
    for &s in t {
        if !c.is_over() {
            c.place(s);
        }
    }
    if !c.is_over() && c.side_to_move() == d {
        c.pass_turn();
    }
    c
}

/// The sets of at most `n` cells of `cells`.
fn small_sets(cells: &[u16], n: usize) -> Vec<Vec<u16>> {
    fn go(cells: &[u16], n: usize, cur: &mut Vec<u16>, out: &mut Vec<Vec<u16>>) {
        out.push(cur.clone());
        if n == 0 {
            return;
        }
        for (i, &a) in cells.iter().enumerate() {
            cur.push(a);
            go(&cells[i + 1..], n - 1, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    go(cells, n, &mut Vec::new(), &mut out);
    out
}

fn propagating() -> ZoneOptions {
    ZoneOptions {
        propagate: true,
        nest_visits: 3_000,
        ..ZoneOptions::default()
    }
}

/// Options where zones come from nested zone searches alone (no null-move
/// VCDT; with `vcdt` off, no VCDT at the attacker's nodes either): every
/// zone the search uses is a propagated one.
fn propagated_only(vcdt: bool) -> ZoneOptions {
    ZoneOptions {
        vcdt,
        zone_visits: 0,
        propagate: true,
        nest_visits: 20_000,
        ..ZoneOptions::default()
    }
}

/// Adds up to `limit` sets of `extra` defender stones on empty cells of
/// `n` outside the zone `z` and asserts that the attacker `x` still wins
/// each (the rules-only search); returns how many sets it checked.
fn check_zone_outside(
    n: &Connect6,
    x: Side,
    extra: usize,
    z: &CellSet,
    memo: &mut HashMap<u64, bool>,
    limit: usize,
) -> usize {
    let outside: Vec<u16> = n.empties().iter().filter(|&c| !z.contains(c)).collect();
    let mut checked = 0;
    for t in small_sets(&outside, extra).into_iter().take(limit) {
        let mut c = n.clone();
        for &s in &t {
            if !c.is_over() {
                c.add_stone(s, x.opponent());
            }
        }
        assert!(
            wins(&c, x, memo),
            "{n:?} (extra {extra}): defender stones {t:?} outside the zone {:?}",
            z.iter().map(|c| n.cell_name(c)).collect::<Vec<_>>()
        );
        checked += 1;
    }
    checked
}

/// Whether `attacker` wins at `c`, by an AND/OR search through the rules
/// alone (`outcome`, `legal_moves`, `play`), memoised by position key (64
/// bits of stones, side to move and stones left: small enough to keep
/// millions).
fn wins(c: &Connect6, attacker: Side, memo: &mut HashMap<u64, bool>) -> bool {
    if c.is_over() {
        return c.winner() == Some(attacker);
    }
    if let Some(&w) = memo.get(&c.key()) {
        return w;
    }
    let mut moves = Vec::new();
    c.legal_moves(&mut moves);
    let or = c.side_to_move() == attacker;
    let mut w = !or;
    for m in moves {
        let mut n = c.clone();
        n.play(m);
        if wins(&n, attacker, memo) == or {
            w = or;
            break;
        }
    }
    memo.insert(c.key(), w);
    w
}

#[test]
fn propagated_zones_stand_every_defender_turn_outside_them() {
    // Defender nodes (the turn's first or second stone) of quiet
    // small-board positions: the null-move position is proven by the
    // nested zone search and the zone of its proof comes up. Every
    // defender turn with its stones outside the zone must leave a
    // position the attacker wins by the rules alone (negamax).
    let mut propagated = 0;
    let mut checked = 0;
    let mut walked = 0;
    for seed in 0..160u64 {
        let (spec, empty) = [
            ("7x7,k=4", 14),
            ("7x7,k=5", 14),
            ("8x8,k=5", 14),
            ("6x6,k=4,p=1", 14),
            ("7x7,k=4,p=1", 15),
        ][seed as usize % 5];
        // Quiet positions (no threats) and open ones (threats to block)
        // in turn.
        let g = if seed % 4 < 2 {
            quiet_position(spec, empty, seed * 31 + 7)
        } else {
            open_position(spec, empty, seed * 31 + 7)
        };
        let Some(mut g) = g else {
            continue;
        };
        // The defender to move: at the start of its turn on even seeds,
        // with one stone left on odd ones.
        if g.stones_left() != g.params().p {
            g.pass_turn();
        }
        if seed % 2 == 1 {
            let c = g.empties().iter().next().unwrap();
            g.place(c);
            if g.is_over() || g.stones_left() != 1 {
                continue;
            }
        }
        if g.known().is_some() {
            continue;
        }
        let x = g.side_to_move().opponent();
        let opts =
            [propagated_only(false), propagated_only(true), propagating()][seed as usize / 4 % 3];
        let tt = Table::with_mb(8);
        let zs = zone::ZoneSearch::with_attacker(g.clone(), Goal::Win, x, &tt, opts);
        let Some(z) = zs.zone(&g) else {
            continue;
        };
        if zs.counts().propagated == 0 {
            continue; // a VCDT zone (tested elsewhere)
        }
        propagated += 1;
        walked += zs.counts().nested_proven;
        let outside: Vec<u16> = g.empties().iter().filter(|&c| !z.contains(c)).collect();
        let mut memo = HashMap::new();
        for t in small_sets(&outside, g.stones_left()) {
            let c = null_plus(&g, &t);
            assert!(
                wins(&c, x, &mut memo),
                "{g:?}: defender stones {t:?} outside the zone {:?}",
                z.iter().map(|c| g.cell_name(c)).collect::<Vec<_>>()
            );
            checked += 1;
        }
    }
    // Every zone the walks made on the way up (attacker and defender
    // nodes at every nesting level), each for its own number of extra
    // defender stones: those stones outside it leave the node won.
    let nodes = zone::WALKED.with(|w| std::mem::take(&mut *w.borrow_mut()));
    let mut inner = 0;
    let mut memos = [HashMap::new(), HashMap::new()];
    for (n, x, extra, z) in &nodes {
        let memo = &mut memos[(*x == Side::Second) as usize];
        inner += check_zone_outside(n, *x, *extra, z, memo, 120);
    }
    let inner_defender = nodes
        .iter()
        .filter(|(n, x, _, _)| n.side_to_move() != *x && !n.is_over() && n.known().is_none())
        .count();
    eprintln!("{propagated} propagated zones ({walked} proofs walked), {checked} defender turns outside them; {} walked nodes ({inner_defender} inner defender nodes), {inner} stone sets", nodes.len());
    assert!(inner >= 1000, "only {inner} stone sets at walked nodes");
    assert!(propagated >= 8, "only {propagated} propagated zones");
    assert!(checked >= 100, "only {checked} turns checked");
}

#[test]
fn propagated_zone_search_agrees_and_its_certificates_verify() {
    // Whole searches with propagated zones (alone, or beside VCDT zones)
    // on quiet small-board positions: the value against the rules-only
    // minimax, and proof certificates checked by the rules-only verifier.
    let mut positions = 0;
    let mut propagated = 0;
    let mut certified = 0;
    for seed in 0..30u64 {
        let (spec, empty) = [("7x7,k=4", 10), ("7x7,k=5", 11), ("8x8,k=5", 11)][seed as usize % 3];
        let Some(g) = quiet_position(spec, empty, seed * 7919 + 5) else {
            continue;
        };
        if g.known().is_some() {
            continue;
        }
        positions += 1;
        let want = negamax_memo(&g, &mut HashMap::new());
        let opts =
            [propagated_only(false), propagated_only(true), propagating()][seed as usize / 3 % 3];
        let tt = Table::with_mb(8);
        let (v, runs) = zone::solve(&g, Variant::Dfpn, &tt, &Limits::default(), opts);
        assert_eq!(v, Some(want), "{opts:?} {g:?}");
        propagated += runs.iter().map(|(_, r)| r.counts.propagated).sum::<u64>();
        if certified < 6 {
            let text = notation::format_position(&g);
            let tt = Table::with_mb(8);
            let cert = certify::certify(&g, &text, &tt, opts, &Limits::default())
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            let back = pns_core::certificate::Certificate::parse(&cert.to_text()).unwrap();
            let got = pns_core::verify::verify(&g, &back).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(got, want, "{text}");
            certified += 1;
        }
    }
    eprintln!("{positions} positions, {propagated} propagated zones, {certified} certificates");
    assert!(positions >= 15, "only {positions} positions");
    assert!(propagated >= 20, "only {propagated} propagated zones");
    assert!(certified >= 3, "only {certified} certificates");
}

#[test]
fn walked_zones_of_deeper_proofs_hold() {
    // Emptier boards, where the attacker's wins take the defender's
    // replies: proofs by the zone search without VCDT (every defender node
    // limited by a propagated zone or the blocking rule), walked for one
    // or two extra defender stones. Every zone the walk made at a node
    // with few empty cells left is checked against the rules alone.
    let _ = zone::WALKED.with(|w| std::mem::take(&mut *w.borrow_mut()));
    let mut roots = 0;
    for seed in 0..40u64 {
        let (spec, empty) = [
            ("6x6,k=4,p=1", 22),
            ("7x7,k=4", 22),
            ("7x7,k=4,p=1", 24),
            ("8x8,k=5", 24),
        ][seed as usize % 4];
        let Some(p) = quiet_position(spec, empty, seed * 131 + 17) else {
            continue;
        };
        let x = p.side_to_move();
        if p.known().is_some() {
            continue;
        }
        let tt = Table::with_mb(16);
        let n = zone::nested_proof_zone(
            &p,
            x,
            &tt,
            propagated_only(false),
            1 + seed as usize % 2,
            30_000,
        );
        roots += n.zone.is_some() as usize;
    }
    let nodes = zone::WALKED.with(|w| std::mem::take(&mut *w.borrow_mut()));
    let mut checked = 0;
    let mut inner_defender = 0;
    let mut memos = [HashMap::new(), HashMap::new()];
    for (n, x, extra, z) in &nodes {
        if n.empties().len() > 16 {
            continue;
        }
        let memo = &mut memos[(*x == Side::Second) as usize];
        if n.side_to_move() != *x && n.known().is_none() && !n.is_over() {
            inner_defender += 1;
        }
        checked += check_zone_outside(n, *x, *extra, z, memo, 30);
    }
    eprintln!("{roots} roots, {} walked nodes, {inner_defender} inner defender nodes checked, {checked} stone sets", nodes.len());
    // (Dropping the children's zones from a defender node's zone fails
    // this test; with 17-18 empty cells it takes minutes. Seeds 40..200:
    // 106 roots, 16,914 walked nodes, 429 inner defender nodes, all
    // standing.)
    assert!(
        inner_defender >= 20,
        "only {inner_defender} inner defender nodes"
    );
    assert!(checked >= 2_000, "only {checked} stone sets");
}
