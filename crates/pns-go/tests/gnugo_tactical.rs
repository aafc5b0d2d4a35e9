//! GNU Go's tactical reading cases (`../shared/data/go/gnugo-tactical.tsv`)
//! through the GTP engine's `attack` and `defend`, with a node-visit limit
//! per question. Each case falls in a class: `unconditional` (expected 0
//! or 1, GNU Go passes), `gnugo-fails` (the maintainers' answer, which GNU
//! Go itself gets wrong), `ko` (expected 2 or 3) and `other` (commands
//! other than attack/defend). Per class: right, wrong, unknown. The test
//! asserts no wrong proven answer on the unconditional cases and prints
//! the table (`cargo test -p pns-go --test integration gnugo_tactical -- --nocapture`).

use crate::shared_data;

use std::collections::BTreeMap;
use std::time::Instant;

use pns_go::capture::{Generator, Run, Solver};
use pns_go::gtp::Engine;
use pns_go::lambda::LambdaParams;
use shared_data::{read_shared, shared_data};

/// Cases where our answer and the suite's differ for a reason written
/// down in `docs/experiments/lambda.md` ("A second disagreement"), with
/// the answer we give: they count as unknown here, and any other answer to
/// them is judged as usual.
///
/// * `reading 198` (`attack L5`, suite `0`): a capturing race read by
///   λ-df-pn, not verified by a certificate.
///
/// Readings 175 and 180, snapbacks, were here until GNU Go's snapback rule
/// (`Capture::with_snapback`, on by default) made our answers the suite's:
/// tests `reading_175_and_180_are_snapbacks_under_gnu_go_s_rule`.
const DISAGREEMENTS: &[(&str, &str, &str)] = &[("reading", "198", "1 M8")];

/// Node visits per df-pn question, unless `PNS_GNUGO_VISITS` says
/// otherwise (kept small so that the test takes seconds; the figures in
/// `docs/experiments/lambda.md` give larger limits).
fn visits() -> u64 {
    std::env::var("PNS_GNUGO_VISITS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

/// An expected answer: the codes allowed, the moves listed (any is
/// acceptable; empty: no move given), negated with a leading `!`.
struct Expected {
    negated: bool,
    codes: Vec<u32>,
    moves: Vec<String>,
}

fn parse_expected(s: &str) -> Expected {
    let (negated, codes, moves) = pns_go::tactical::parse_expected(s).expect("a valid pattern");
    Expected {
        negated,
        codes,
        moves,
    }
}

#[derive(Default, Debug)]
struct Counts {
    right: usize,
    right_move: usize,
    wrong: usize,
    unknown: usize,
    cases: usize,
    secs: f64,
}

/// The search for `attack`/`defend`: `PNS_GNUGO_SOLVER` (as
/// `Solver::parse` reads it) over `default`.
fn solver(default: Solver) -> Solver {
    match std::env::var("PNS_GNUGO_SOLVER") {
        Ok(s) => Solver::parse(&s).expect("PNS_GNUGO_SOLVER"),
        Err(_) => default,
    }
}

/// Runs every case with `solver`; prints the table; returns the counts
/// per class and the wrong answers on the unconditional cases.
fn run_cases(solver: Solver) -> (BTreeMap<&'static str, Counts>, Vec<String>) {
    let gen = std::env::var("PNS_GNUGO_GEN")
        .ok()
        .map(|g| Generator::from_name(&g).expect("PNS_GNUGO_GEN"))
        .unwrap_or(Generator::H1);
    eprintln!("search {}, generator {}", solver.describe(), gen.name());
    let text = read_shared("go/gnugo-tactical.tsv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("no column {name}"))
    };
    let (suite, id, sgf, until, extra, cmd, target, want, status) = (
        col("suite"),
        col("id"),
        col("sgf"),
        col("load_until_move"),
        col("extra_moves"),
        col("command"),
        col("target"),
        col("expected_regex"),
        col("gnugo_status"),
    );
    let root = shared_data("go/gnugo");
    let mut table: BTreeMap<&'static str, Counts> = BTreeMap::new();
    let mut wrong_unconditional = Vec::new();
    let mut n = 0;
    for l in lines.filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = l.split('\t').collect();
        n += 1;
        let exp = parse_expected(f[want]);
        let class = if f[cmd] != "attack" && f[cmd] != "defend" {
            "other"
        } else if exp.codes.iter().any(|&c| c >= 2) {
            "ko"
        } else if f[status].starts_with("gnugo_expected_fail") {
            "gnugo-fails"
        } else {
            "unconditional"
        };
        let c = table.entry(class).or_default();
        c.cases += 1;
        if class == "other" {
            continue;
        }
        let mut e = Engine::new();
        e.solve_visits = visits();
        e.capture_solver = solver;
        e.capture_generator = gen;
        let path = root.join(f[sgf]);
        let load = match f[until] {
            "end" => format!("loadsgf {}", path.display()),
            m => format!("loadsgf {} {m}", path.display()),
        };
        let r = e.handle(&load).expect("a response");
        assert!(r.starts_with('='), "{} {}: {load} -> {r}", f[suite], f[id]);
        if f[extra] != "-" {
            for m in f[extra].split_whitespace() {
                let (col, v) = m.split_once(':').expect("C:VERTEX");
                let r = e.handle(&format!("play {col} {v}")).expect("a response");
                assert!(
                    r.starts_with('='),
                    "{} {}: play {m} -> {r}",
                    f[suite],
                    f[id]
                );
            }
        }
        let t0 = Instant::now();
        let r = e
            .handle(&format!("{} {}", f[cmd], f[target]))
            .expect("a response");
        c.secs += t0.elapsed().as_secs_f64();
        let answer = r.trim_start_matches('=').trim().to_string();
        if !r.starts_with('=') {
            assert!(r.contains("unknown"), "{} {}: {r}", f[suite], f[id]);
            c.unknown += 1;
            eprintln!(
                "{:>8} {:>4} {:>13} {} {}: unknown (want {})",
                f[suite], f[id], class, f[cmd], f[target], f[want]
            );
            continue;
        }
        let mut words = answer.split_whitespace();
        let code: u32 = words.next().and_then(|w| w.parse().ok()).expect("a code");
        let mv = words.next().unwrap_or("").to_uppercase();
        let code_ok = exp.codes.contains(&code) != exp.negated;
        let move_ok = exp.moves.is_empty() || exp.moves.contains(&mv);
        if code_ok {
            c.right += 1;
            c.right_move += usize::from(move_ok);
        } else if DISAGREEMENTS
            .iter()
            .any(|&(su, i, a)| su == f[suite] && i == f[id] && a == answer)
        {
            // A documented disagreement, given exactly as documented.
            c.unknown += 1;
        } else {
            c.wrong += 1;
            if class == "unconditional" {
                wrong_unconditional.push(format!(
                    "{} {}: {} {} -> {answer}, want {}",
                    f[suite], f[id], f[cmd], f[target], f[want]
                ));
            }
        }
        eprintln!(
            "{:>8} {:>4} {:>13} {} {}: {answer} (want {}){}",
            f[suite],
            f[id],
            class,
            f[cmd],
            f[target],
            f[want],
            if code_ok { "" } else { "  WRONG" }
        );
    }
    assert_eq!(n, 210);
    eprintln!("class          cases  right (move too)  wrong  unknown  seconds");
    for (k, c) in &table {
        eprintln!(
            "{k:<13} {:>6} {:>6} {:>6} {:>11} {:>8} {:>8.2}",
            c.cases, c.right, c.right_move, c.wrong, c.unknown, c.secs
        );
    }
    (table, wrong_unconditional)
}

#[test]
fn gnugo_tactical_cases_no_wrong_proven_answer() {
    let (table, wrong_unconditional) = run_cases(solver(Solver::Dfpn));
    let u = &table["unconditional"];
    // 16 of 113 at 300 visits when this was written: a floor that a
    // regression in the search would break.
    assert!(u.right >= 14, "{u:?}");
    assert!(
        wrong_unconditional.is_empty(),
        "wrong proven answers:\n{}",
        wrong_unconditional.join("\n")
    );
}

#[test]
fn gnugo_tactical_cases_lambda_dfpn_no_wrong_proven_answer() {
    let (table, wrong_unconditional) = run_cases(solver(Solver::Lambda(LambdaParams::default())));
    let u = &table["unconditional"];
    assert!(u.right >= 14, "{u:?}");
    // GNU Go's ko results (`attack_coded`, `defend_coded`): 5 of the 62
    // ko cases right at 300 visits when this was written (before them,
    // none could be); none may be wrong (`reading 180`, a snapback, was a
    // documented disagreement before GNU Go's snapback rule).
    let k = &table["ko"];
    assert!(k.right >= 4 && k.wrong == 0, "{k:?}");
    assert!(
        wrong_unconditional.is_empty(),
        "wrong proven answers:\n{}",
        wrong_unconditional.join("\n")
    );
}

/// λ-df-pn with relevance zones as `pns gtp` runs it by default
/// (`lambda-zones`: order 3 in capture proofs, 2 in escape proofs): the
/// same check.
#[test]
fn gnugo_tactical_cases_lambda_zones_no_wrong_proven_answer() {
    let params = LambdaParams::zoned();
    let (table, wrong_unconditional) = run_cases(solver(Solver::Lambda(params)));
    let u = &table["unconditional"];
    // 25 of 113 at 300 visits when this was written (λ-df-pn without
    // zones: 21; zones at order 2 in both halves: 25 as well, the orders
    // differ at larger limits), 29 with Benson's rule (9x9 targets that
    // live by two eyes), 30 with capture proofs searched under the capture
    // horizon: a floor that a regression in the zones, the orders, Benson's
    // rule or the horizon would break.
    assert!(u.right >= 28, "{u:?}");
    assert!(
        wrong_unconditional.is_empty(),
        "wrong proven answers:\n{}",
        wrong_unconditional.join("\n")
    );
}

/// The case `reading ID` of the suite.
fn reading_case(id: &str) -> pns_go::tactical::Case {
    let data = shared_data("go");
    pns_go::tactical::load(&data.join("gnugo-tactical.tsv"), &data.join("gnugo"))
        .expect("the cases load")
        .into_iter()
        .find(|c| c.suite == "reading" && c.id == id)
        .unwrap_or_else(|| panic!("reading {id}"))
}

/// The widening of `attack_with`/`defend_with`'s bounded side: on
/// `reading 112` (`attack H5`, a 9x9 puzzle) the attacker's capturing
/// move H2 is outside the h1 generator, so the search with the defender
/// complete disproves the capture within h1 and the one with the
/// attacker complete proves it against h1's defender. Neither is an
/// answer; the searches with the generator widened prove H2 (λ-df-pn
/// with zones, as `pns gtp --capture-algo lambda:zones=on`).
#[test]
fn a_capture_outside_the_generator_is_found_by_widening_to_the_board() {
    use pns_core::{Status, Table};
    use pns_go::capture::{attack_with, Answer, Capture, Effort, DEFAULT_ESCAPE_LIBS};
    let c = reading_case("112");
    let g = Capture::new(c.board, c.target, DEFAULT_ESCAPE_LIBS, Generator::H1).unwrap();
    let g = g.with_first(g.attacker());
    let lambda = Solver::Lambda(LambdaParams::default().parse("zones=on").unwrap());
    let mut e = Effort::default();
    // The generator alone decides both restricted searches.
    let on_d = lambda.status(
        &g.with_complete(Some(g.defender())),
        3000,
        &Table::with_mb(16),
        &mut e,
    );
    let on_a = lambda.status(
        &g.with_complete(Some(g.attacker())),
        3000,
        &Table::with_mb(16),
        &mut e,
    );
    assert_eq!((on_d, on_a), (Status::Disproven, Status::Proven));
    let answer = attack_with(&g, &lambda, 3000, &mut Effort::default());
    let Answer::Succeeds(Some(m)) = answer else {
        panic!("reading 112: {answer:?}");
    };
    assert_eq!(c.board.format_move(m).to_uppercase(), "H2");
}

/// The generator widened a step at a time: on `reading 192` (`attack D4`,
/// 9x9, expected 0) the attacker playing every point captures D4 against
/// a defender within h1, so that search is no answer; with the defender
/// within h2 the escape is proven (the attacker still on every point,
/// with its zones), and that search settles the answer. Before the steps
/// (one search with both sides on the board) the case was unknown at
/// 3,000 visits.
#[test]
fn an_escape_outside_the_generator_is_found_by_widening_a_step() {
    use pns_core::Status;
    use pns_go::capture::{
        attack_coded_decided, Capture, Effort, CAPTURE_HORIZON, DEFAULT_ESCAPE_LIBS,
    };
    let c = reading_case("192");
    let g = Capture::new(c.board, c.target, DEFAULT_ESCAPE_LIBS, Generator::H1)
        .unwrap()
        .with_capture_horizon(Some(CAPTURE_HORIZON));
    let solver = Solver::parse("lambda-zones").unwrap();
    let (coded, decision) =
        attack_coded_decided(&g, &solver, 3000, Run::threads(1), &mut Effort::default());
    assert_eq!(coded.map(|k| k.code), Some(0), "reading 192: {coded:?}");
    let d = decision.expect("one search settles a 0");
    assert_eq!(d.status, Status::Disproven);
    assert_eq!(d.question.complete(), Some(g.attacker()));
    assert_eq!(d.question.generator(), Generator::H2);
    // The widened search's certificate (which asks h1 first, as the
    // widening did, since the search reads h1's escapes from its table)
    // is found again, and the rules-only verifier accepts every block.
    let cert = pns_go::certify::certificate(&d, &solver, 3000, "-").expect("found again");
    assert_eq!(cert.value, pns_core::Outcome::Loss);
    for b in &cert.blocks {
        pns_core::verify::verify_block(&d.question, b).expect("a block the rules accept");
    }
}

/// The widened searches read the narrower ones' answers from their table
/// (`lambda.rs`, `implied`): `reading 24`
/// (`attack O2`, `1 Q1`) is answered at 3,000 visits with it and was
/// unknown there without. Two cases that other ways of reading them lost
/// stay answered: `reading 124` (`attack G3`, `1 K3`, settled by the
/// search with both sides on every point) at 30,000 visits, lost while the
/// attacker's order nodes read them too, and `trevor 671` (`defend G1`,
/// `1 D1|C3|C1`) at 300,000, lost while the zone walks counted them as
/// settled.
#[test]
fn widened_searches_read_the_narrower_answers() {
    use pns_go::capture::{
        attack_coded_decided, defend_coded_decided, Capture, Effort, CAPTURE_HORIZON,
        DEFAULT_ESCAPE_LIBS,
    };
    let solver = Solver::parse("lambda-zones").unwrap();
    let data = shared_data("go");
    let cases = pns_go::tactical::load(&data.join("gnugo-tactical.tsv"), &data.join("gnugo"))
        .expect("the cases load");
    let runs: [(&str, &str, u64, &[&str]); 3] = [
        ("reading", "24", 3000, &["Q1"]),
        ("reading", "124", 30_000, &["K3"]),
        ("trevor", "671", 300_000, &["D1", "C3", "C1"]),
    ];
    for (suite, id, visits, want) in runs {
        let c = cases
            .iter()
            .find(|c| c.suite == suite && c.id == id)
            .unwrap_or_else(|| panic!("{suite} {id}"));
        let g = Capture::new(c.board, c.target, DEFAULT_ESCAPE_LIBS, Generator::H1)
            .unwrap()
            .with_capture_horizon(Some(CAPTURE_HORIZON));
        let mut e = Effort::default();
        let (coded, _) = if c.attack {
            attack_coded_decided(&g, &solver, visits, Run::threads(1), &mut e)
        } else {
            defend_coded_decided(&g, &solver, visits, Run::threads(1), &mut e)
        };
        let got = coded.unwrap_or_else(|| panic!("{suite} {id}: unknown"));
        let mv = got.mv.map(|m| c.board.format_move(m).to_uppercase());
        assert_eq!(got.code, 1, "{suite} {id}");
        assert!(
            mv.as_deref().is_some_and(|m| want.contains(&m)),
            "{suite} {id}: {mv:?}"
        );
    }
}

/// Two threads per question (`attack_coded_decided` and
/// `defend_coded_decided` with `threads` 2: the capture and escape halves
/// at once, and the ko questions with either side exempt at once) answer
/// as one thread does: the same code, move and deciding search on
/// answered cases of each kind (a capture and an escape from each half's
/// first search, widened ones of both kinds, the saving and capturing
/// moves of `defend`, ko codes 2 and 3), and unknown where one thread's
/// answer is unknown (`reading 1`). `reading 93` is settled by the escape
/// half's widened search (both sides on every point) while the capture
/// half's widened search also finds a capture, later in the one-thread
/// order: a first version ended the escape half too early there and read
/// a different move.
#[test]
fn two_threads_answer_as_one() {
    use pns_go::capture::{
        attack_coded_decided, defend_coded_decided, Capture, Effort, CAPTURE_HORIZON,
        DEFAULT_ESCAPE_LIBS,
    };
    let solver = Solver::parse("lambda-zones").unwrap();
    let ids = [
        "9", "11", "16", "24", "25", "36", "47", "50", "77", "89", "93", "112", "192", "193",
        "218", "1", "56", "62", "69", "98",
    ];
    let (mut kinds, mut codes) = (Vec::new(), std::collections::BTreeSet::new());
    for id in ids {
        let c = reading_case(id);
        let g = Capture::new(c.board, c.target, DEFAULT_ESCAPE_LIBS, Generator::H1)
            .unwrap()
            .with_capture_horizon(Some(CAPTURE_HORIZON));
        let ask = |threads| {
            let mut e = Effort::default();
            let r = if c.attack {
                attack_coded_decided(&g, &solver, 3000, Run::threads(threads), &mut e)
            } else {
                defend_coded_decided(&g, &solver, 3000, Run::threads(threads), &mut e)
            };
            (r.0, r.1.map(|d| (d.question, d.status)))
        };
        let one = ask(1);
        // Many times: where two threads race, the first proof found may
        // change from run to run.
        for _ in 0..if id == "1" { 1 } else { 12 } {
            assert_eq!(ask(2), one, "reading {id}");
        }
        if id == "1" {
            assert_eq!(one.0, None, "reading 1 is unknown at 3,000 visits");
            continue;
        }
        codes.insert(
            one.0
                .unwrap_or_else(|| panic!("reading {id}: unknown"))
                .code,
        );
        if let Some((q, st)) = one.1 {
            let attacker_complete = q.complete() == Some(q.attacker());
            kinds.push((attacker_complete, q.generator() != Generator::H1, st));
        }
    }
    assert_eq!(codes.into_iter().collect::<Vec<_>>(), [0, 1, 2, 3]);
    use pns_core::Status::{Disproven, Proven};
    for k in [
        (false, false, Proven),
        (true, false, Disproven),
        (true, true, Disproven),
        (true, true, Proven),
        (false, true, Proven),
    ] {
        assert!(kinds.contains(&k), "no decision {k:?}: {kinds:?}");
    }
}

/// A deepening question (`capture::ask` with `deepen`: 3,000 visits per
/// search, then ten times more each round, each round on the tables of
/// the round before) answers cases that 3,000 visits leave unknown, in a
/// later round, as the suite does, and with two threads as with one: the
/// same code, move, deciding search and round. `reading 86` (`defend E5`,
/// `0`), `124` (`attack G3`, `1 K3`) and `152` (`attack L18`, `1 M18`).
#[test]
fn a_deepening_question_answers_in_a_later_round_as_one_thread_does() {
    use pns_go::capture::{ask, Asking, Capture, Effort, CAPTURE_HORIZON, DEFAULT_ESCAPE_LIBS};
    let solver = Solver::parse("lambda-zones").unwrap();
    let how = Asking {
        guess: false,
        deepen: true,
    };
    for (id, code, moves) in [
        ("86", 0, &[][..]),
        ("124", 1, &["K3"][..]),
        ("152", 1, &["K18", "L17", "M18"][..]),
    ] {
        let c = reading_case(id);
        let g = Capture::new(c.board, c.target, DEFAULT_ESCAPE_LIBS, Generator::H1)
            .unwrap()
            .with_capture_horizon(Some(CAPTURE_HORIZON));
        let asked = |threads| {
            let a = ask(
                &g,
                c.attack,
                &solver,
                300_000,
                Run::threads(threads),
                how,
                &mut Effort::default(),
            );
            (
                a.reached,
                a.decision.map(|d| (d.question, d.status)),
                a.visits,
            )
        };
        let one = asked(1);
        let (reached, _, visits) = one;
        let r = reached.unwrap_or_else(|| panic!("reading {id}: unknown"));
        assert!(r.proven && r.coded.code == code, "reading {id}: {r:?}");
        let mv = r.coded.mv.map(|m| c.board.format_move(m).to_uppercase());
        assert_eq!(mv.is_some(), code == 1, "reading {id}: {mv:?}");
        assert!(
            mv.as_ref().is_none_or(|m| moves.contains(&m.as_str())),
            "reading {id}: {mv:?}"
        );
        assert!(visits > 3000, "reading {id}: answered in the first round");
        // Unknown with the first round's limit alone.
        let mut e = Effort::default();
        let first = ask(&g, c.attack, &solver, 3000, Run::threads(1), how, &mut e);
        assert_eq!(first.reached, None, "reading {id}");
        for _ in 0..2 {
            assert_eq!(asked(2), one, "reading {id}");
        }
    }
}

/// A time limit (`Stopper::within`) ends a question unknown, with one
/// thread or two, with the default search and with the zone search and
/// classical λ-search (which read the stop flag at each visit since
/// 2026-11-29; before, they ran to their visit limit): `reading 1`
/// (`attack E3`, unknown at 3,000 visits in about a second) with 100
/// million visits per search and a quarter of a second, its guess
/// included. Without the stop reaching the nested zone searches, one such
/// question ran 30 s past a limit of 1.5 s.
#[test]
fn a_time_limit_ends_a_question_unknown() {
    use pns_go::capture::{coded_or_guess, Capture, Effort, Stopper, CAPTURE_HORIZON};
    let c = reading_case("1");
    let g = Capture::new(c.board, c.target, 5, Generator::H1)
        .unwrap()
        .with_capture_horizon(Some(CAPTURE_HORIZON));
    let limit = std::time::Duration::from_millis(250);
    for name in ["lambda-zones", "zone", "lambda-search"] {
        let solver = Solver::parse(name).unwrap();
        for threads in [1, 2] {
            let t = Instant::now();
            let mut e = Effort::default();
            let (r, stopped) = Stopper::within(Some(limit), None, |stop| {
                let run = Run::stopping(threads, stop);
                let r = coded_or_guess(&g, c.attack, &solver, 100_000_000, run, true, &mut e);
                (r, stop.is_some_and(Stopper::stopped))
            });
            let took = t.elapsed();
            assert_eq!(r, None, "{name}, {threads} threads");
            assert!(stopped, "{name}, {threads} threads");
            // Generous: the limit plus the last nested searches' and table
            // reads' time on a loaded machine.
            assert!(
                took.as_secs_f64() < 5.0,
                "{name}, {threads} threads: {took:?}"
            );
            assert!(e.visits > 0);
        }
    }
    // A stopper stops its children, made before or after it stopped.
    let parent = Stopper::default();
    let before = Stopper::child(Some(&parent));
    assert!(!before.stopped());
    parent.stop();
    assert!(before.stopped() && Stopper::child(Some(&parent)).stopped());
}

/// The capture horizon (`pns_go::capture::CAPTURE_HORIZON`: capture
/// proofs searched with four liberties an escape after 4 plies, three
/// after 10, which keeps every capture a capture at the plain threshold):
/// four of GNU Go's captures that `pns gtp`'s default search (λ-df-pn with
/// zones, 3,000 visits) answers with it; three of them it leaves unknown
/// without it (reading 88 is answered without it since the zones read a
/// witness liberty of the blocks next to a move, `zone::move_reads`).
#[test]
fn the_capture_horizon_finds_captures_within_the_limit() {
    use pns_go::capture::{attack_coded, Capture, Effort, DEFAULT_ESCAPE_LIBS};
    let solver = Solver::Lambda(LambdaParams::zoned());
    for (id, want, needs_it) in [
        ("88", "D5", false),
        ("101", "M16", true),
        ("102", "D12", true),
        ("104", "Q12", true),
    ] {
        let c = reading_case(id);
        assert!(
            c.attack && c.moves.iter().any(|m| m == want),
            "reading {id}"
        );
        let g = Capture::new(c.board, c.target, DEFAULT_ESCAPE_LIBS, Generator::H1).unwrap();
        let got = attack_coded(&g, &solver, 3000, &mut Effort::default()).expect("answered");
        let mv = got.mv.map(|m| c.board.format_move(m).to_uppercase());
        assert_eq!((got.code, mv.as_deref()), (1, Some(want)), "reading {id}");
        if needs_it {
            let without = g.with_capture_horizon(None);
            let got = attack_coded(&without, &solver, 3000, &mut Effort::default());
            assert_eq!(got, None, "reading {id} without the horizon");
        }
    }
}

/// Two escapes that `pns gtp`'s default search (λ-df-pn with zones, 3,000
/// visits) proves since the attacker's nodes below the unrestricted level
/// are cut by the lower orders' disproof and lost where that level is
/// (`lambda.rs`, `lower_zone` and `top_lost`; docs/experiments/lambda.md,
/// "The lower orders' zone"); both were unknown at this limit before.
#[test]
fn the_lower_orders_zone_proves_escapes_within_the_limit() {
    use pns_go::capture::{defend_coded, Capture, Effort, DEFAULT_ESCAPE_LIBS};
    let solver = Solver::Lambda(LambdaParams::zoned());
    for (id, want) in [("77", "E6"), ("218", "B5")] {
        let c = reading_case(id);
        assert!(
            !c.attack && c.moves.iter().any(|m| m == want),
            "reading {id}"
        );
        let g = Capture::new(c.board, c.target, DEFAULT_ESCAPE_LIBS, Generator::H1).unwrap();
        let got = defend_coded(&g, &solver, 3000, &mut Effort::default()).expect("answered");
        let mv = got.mv.map(|m| c.board.format_move(m).to_uppercase());
        assert_eq!((got.code, mv.as_deref()), (1, Some(want)), "reading {id}");
    }
}

/// `reading 175` (`defend O3`, the suite's answer `1 (N1|N2)`) and `reading
/// 180` (`defend P1`, `2 Q3`) are snapbacks. In 175, after W N2 (or N1), B
/// O2, W N1, Black's N3 removes O3, and the black block that captured is
/// left with one liberty, O3, where White's stone takes eight stones back;
/// in 180, after W Q3 (taking Q4, a ko), Black's Q1 removes P1 and White's
/// P1 takes seven back. GNU Go's `attack1` counts such a capture as failing
/// (a proper snapback), and so does our default rule: the answers are the
/// suite's. With the rule off (`capture_snapback`, every capture counts)
/// both stones are lost, 175 even with both sides on every point after W
/// N2 B O2; the lines are played to show the eight and seven stones.
#[test]
fn reading_175_and_180_are_snapbacks_under_gnu_go_s_rule() {
    use pns_go::board::{Board, Color, Move};
    let data = shared_data("go/gnugo");
    let at = |b: &Board, v: &str| b.parse_vertex(v).unwrap();
    let point = |m: Move| match m {
        Move::Play(p) => p as usize,
        Move::Pass => unreachable!(),
    };
    // Reading 175.
    let load = format!(
        "loadsgf {}",
        data.join("regression/games/reading39.sgf").display()
    );
    let mut e = Engine::new();
    e.solve_visits = 3_000;
    e.capture_solver = Solver::parse("lambda-zones").unwrap();
    assert!(e.handle(&load).unwrap().starts_with('='));
    let r = e.handle("defend O3").unwrap();
    assert!(
        ["= 1 N1", "= 1 N2"].contains(&r.trim()),
        "reading 175 under the rule: {r}"
    );
    e.capture_snapback = false;
    e.solve_visits = 20_000;
    e.capture_generator = Generator::Board;
    for m in ["play W N2", "play B O2"] {
        assert!(e.handle(m).unwrap().starts_with('='), "{m}");
    }
    assert_eq!(e.handle("defend O3").unwrap().trim(), "= 0");
    e.capture_snapback = true;
    let r = e.handle("defend O3").unwrap();
    assert_eq!(r.trim(), "= 1 N1", "after W N2 B O2 under the rule");
    let mut b = *e.board();
    for (c, v) in [(Color::White, "N1"), (Color::Black, "N3")] {
        b.set_to_move(c);
        b.play(at(&b, v), true).expect("legal");
    }
    assert_eq!(b.color_at(point(at(&b, "O3"))), None, "B N3 removed O3");
    b.set_to_move(Color::White);
    let taken = b.play(at(&b, "O3"), true).expect("White retakes at O3");
    assert_eq!(taken.count(), 8, "the snapback takes eight black stones");
    // Reading 180.
    let load = format!(
        "loadsgf {} 228",
        data.join("regression/games/nngs/halti-gnugo-3.3.17-200303162357.sgf")
            .display()
    );
    let mut e = Engine::new();
    e.solve_visits = 3_000;
    e.capture_solver = Solver::parse("lambda-zones").unwrap();
    assert!(e.handle(&load).unwrap().starts_with('='));
    assert_eq!(e.handle("defend P1").unwrap().trim(), "= 2 Q3");
    e.capture_snapback = false;
    assert_eq!(e.handle("defend P1").unwrap().trim(), "= 0");
    let mut b = *e.board();
    let p1 = point(at(&b, "P1"));
    b.set_to_move(Color::White);
    let taken = b.play(at(&b, "Q3"), true).expect("W Q3");
    assert_eq!(taken.count(), 1, "W Q3 takes Q4");
    let taken = b.play(at(&b, "Q1"), true).expect("B Q1");
    assert_eq!(taken.count(), 1, "B Q1 takes the target");
    assert_eq!(b.color_at(p1), None, "P1 is gone");
    let taken = b.play(at(&b, "P1"), true).expect("White retakes at P1");
    assert_eq!(taken.count(), 7, "the snapback takes seven black stones");
}

/// After λ-df-pn proves a capture, `attack` reads the capturing move back,
/// searching each candidate again with the whole limit if a small budget
/// does not prove it: on `reading 11` (`attack K18`) the proof sits in
/// path-dependent entries, and with 1/20 of the limit per move the answer
/// was `1` without its move.
#[test]
fn the_capturing_move_is_read_back_after_a_proof() {
    assert_eq!(
        lambda_answer("regression/games/incident79.sgf 168", "attack K18"),
        "= 1 J17"
    );
}

/// `pns gtp`'s answer with its default search (λ-df-pn, 3,000 visits) to
/// `question` after `loadsgf` of `file_and_move` (a path below GNU Go's
/// data and an optional move number).
fn lambda_answer(file_and_move: &str, question: &str) -> String {
    let mut e = Engine::new();
    e.solve_visits = 3000;
    e.capture_solver = Solver::Lambda(LambdaParams::default());
    let (file, until) = file_and_move.split_once(' ').unwrap_or((file_and_move, ""));
    let path = shared_data("go/gnugo").join(file);
    let load = format!("loadsgf {} {until}", path.display());
    assert!(e.handle(load.trim()).unwrap().starts_with('='));
    e.handle(question).unwrap().trim().to_string()
}

/// The saving move of `defend` is read back as the capturing move of
/// `attack` is: on `reading 181` (`defend E3`) the escape is proven but no
/// reply was disproven within 1/20 of the limit, and the answer was
/// unknown; with the whole limit per reply it was `1 E1`, and since the
/// liberty bound (2026-11-27) it is `1 E4`, the move the suite lists (GNU
/// Go itself fails this case).
#[test]
fn the_saving_move_is_read_back_after_a_disproof() {
    assert_eq!(
        lambda_answer("regression/games/trevor/auto/a031.sgf 40", "defend E3"),
        "= 1 E4"
    );
}

/// GNU Go's two-target cases (`tactics1` 101, 103 and 104, `attack_either`,
/// and 108, `defend_both`, all expecting `1`) through `pns gtp`'s
/// two-target searches ([`pns_go::either`]) with its default capture
/// solver at 3,000 visits: the three `attack_either` cases (double threats)
/// are proven `1` one target at a time (`either::split_capture`; df-pn on
/// the two-target problem left them unknown at 20 million visits), and
/// 108 is `1` or unknown, never `0`. Bad input is a GTP error.
#[test]
fn two_target_cases_are_never_answered_wrong() {
    let text = read_shared("go/gnugo-tactical.tsv");
    let mut seen = Vec::new();
    for l in text.lines() {
        let f: Vec<&str> = l.split('\t').collect();
        if f.len() < 8 || !matches!(f[5], "attack_either" | "defend_both") {
            continue;
        }
        let mut e = Engine::new();
        e.solve_visits = 3000;
        e.capture_solver = Solver::Lambda(LambdaParams::zoned());
        let path = shared_data("go/gnugo").join(f[2]);
        let r = e.handle(&format!("loadsgf {} {}", path.display(), f[3]));
        assert!(r.unwrap().starts_with('='));
        for m in f[4].split_whitespace() {
            let (col, v) = m.split_once(':').expect("C:VERTEX");
            assert!(e
                .handle(&format!("play {col} {v}"))
                .unwrap()
                .starts_with('='));
        }
        let r = e.handle(&format!("{} {}", f[5], f[6])).unwrap();
        eprintln!("{} {}: {} {} -> {}", f[0], f[1], f[5], f[6], r.trim());
        assert_eq!(f[7], "1");
        if f[5] == "attack_either" {
            assert_eq!(r, "= 1\n\n", "{} {}", f[0], f[1]);
        } else {
            assert!(r == "= 1\n\n" || r.starts_with("? unknown"), "{r}");
        }
        seen.push(f[1].to_string());
        if f[1] == "101" {
            // One target, a point off the board, an empty point (A1), two
            // colours (C11 black, D11 white).
            for bad in ["C11", "C11 Z30", "C11 A1", "C11 D11"] {
                let r = e.handle(&format!("attack_either {bad}")).unwrap();
                assert!(r.starts_with("? ") && !r.contains("unknown"), "{bad}: {r}");
            }
        }
    }
    assert_eq!(seen, ["101", "103", "104", "108"]);
}

/// Reading 136 (`attack S8`, GNU Go's `2 T12`: a capture by ko) at escape
/// order 1: after `W T12 B Q12` White's only moves next to the target are
/// suicides and Black's pass answers White's pass, but White's T10 (off
/// that zone) makes S9 a capture. Before the closure of the kept moves
/// read their legality (`zone::close_kept`) λ-df-pn answered `0` here,
/// an attack that fails even with every ko threat. Any answer now is
/// GNU Go's ko code, or none.
#[test]
fn reading_136_is_no_failed_attack_at_escape_order_1() {
    use pns_go::capture::{attack_coded, Capture, Effort, CAPTURE_HORIZON, DEFAULT_ESCAPE_LIBS};
    let c = reading_case("136");
    let g = Capture::new(c.board, c.target, DEFAULT_ESCAPE_LIBS, Generator::H1)
        .unwrap()
        .with_capture_horizon(Some(CAPTURE_HORIZON));
    let solver = Solver::parse("lambda:order=3,eorder=1,zones=on").unwrap();
    let coded = attack_coded(&g, &solver, 3000, &mut Effort::default());
    assert!(
        matches!(coded.map(|k| k.code), None | Some(2)),
        "reading 136: {coded:?}"
    );
}

/// `--guess` (`coded_or_guess`, `guess_coded`): readings 18 (`attack T10`,
/// `0`), 173 (`defend B2`, `1 A2|C7|B1`), 188 (`defend B4`, `1 A2`), and
/// the kos 46 (`defend H18`, `2 H17`) and 227 (`attack E3`, `3 F1|F3`),
/// and 61 (`defend S5`, `1 S3|S4`, which only the last of the
/// `GUESS_STEPS` answers) are unknown to the proofs at 3,000 visits; the
/// bounded game answers them as the suite does, ko codes included, marked
/// as no proof, with a move the suite lists.
/// A case the proofs answer (reading 89, `attack D2`, `1 F1`) stays
/// proven with guessing on.
#[test]
fn guesses_answer_where_no_proof_does() {
    use pns_go::capture::{coded_or_guess, Capture, Effort, Reached, CAPTURE_HORIZON};
    let solver = Solver::parse("lambda-zones").unwrap();
    let ask = |id: &str, guess: bool| {
        let c = reading_case(id);
        let g = Capture::new(c.board, c.target, 5, Generator::H1)
            .unwrap()
            .with_capture_horizon(Some(CAPTURE_HORIZON));
        let r = coded_or_guess(
            &g,
            c.attack,
            &solver,
            3000,
            Run::threads(1),
            guess,
            &mut Effort::default(),
        );
        let mv = r
            .and_then(|r| r.coded.mv)
            .map(|m| c.board.format_move(m).to_uppercase());
        (c, r, mv)
    };
    for id in ["18", "173", "188", "46", "227", "61"] {
        let (_, r, _) = ask(id, false);
        assert_eq!(r, None, "reading {id} without guesses");
        let (c, r, mv) = ask(id, true);
        let Some(Reached { coded, proven }) = r else {
            panic!("reading {id}: no guess")
        };
        assert!(!proven, "reading {id}: a guess is no proof");
        assert!(
            c.codes.contains(&u32::from(coded.code)) && !c.negated,
            "reading {id}: {coded:?}, want {:?}",
            c.codes
        );
        if coded.code > 0 {
            let mv = mv.expect("a guessed success has its move");
            assert!(
                c.moves.contains(&mv),
                "reading {id}: {mv} not in {:?}",
                c.moves
            );
        }
    }
    let (_, r, mv) = ask("89", true);
    assert_eq!(
        (r.map(|r| (r.coded.code, r.proven)), mv.as_deref()),
        (Some((1, true)), Some("F1"))
    );
}
