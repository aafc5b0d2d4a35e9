//! Certificates of capturing answers (issue 12, "Certificates"): the
//! search that settled an `attack` or `defend` answer
//! ([`Decision`]) proven again as a tree of Go moves, in the engine's
//! certificate format, which the rules-only verifier checks.
//!
//! The tree is built by the engine's [`Extractor`] over the capturing
//! position itself (not over λ-df-pn's pseudo nodes): at the prover's
//! nodes one move, at the other side's nodes every move its rules allow
//! (every legal point and the pass for the complete side). Each child's
//! status comes from the solver that answered, run again from the child
//! on one table: first without the line above it, in the key space of the
//! first search, so that most answers are read from what it stored; then,
//! where that is unknown, with the line as its history (a search with a
//! history keeps its entries apart). In a capture the
//! attacker's move at each of its nodes is read from the table of the
//! search that proved that node (`lambda::move_in_table`), since λ-df-pn
//! proves a node through the λ order of the move, which a search from the
//! position after it does not know. Nothing the solver claims is trusted:
//! a wrong status or move makes the extraction or the verification fail,
//! never a wrong certificate pass.
//!
//! The certificate's position is the question itself: the SGF, the
//! target, who moves first, the threshold, the generator, the side that
//! plays every point and the ko exemption (`Spec`'s options), so that
//! `pns verify go-capture` rebuilds the same rules. A repetition counts
//! as the attacker's failure whoever is to move at the root
//! ([`pns_core::Rules::repetition_loser`]).

use std::sync::atomic::Ordering;

use pns_core::certificate::{required_blocks, Certificate, Extractor};
use pns_core::{Limits, Outcome, Status, Table};

use crate::bits::Bits;
use crate::capture::{attack_search_limited, Capture, Decision, Solver};
use crate::lambda::{self, LambdaParams};

/// Table size of a certificate's searches, in MiB.
const TABLE_MB: usize = 64;

/// The DAG's memory in a certificate's first extraction pass, in the
/// search's order ([`certificate_within`]): some 80,000 nodes.
const FIRST_PASS_BYTES: u64 = 32 << 20;

/// The visits of the searches tried where the answering one's certificate
/// fails, as a multiple of its own ([`certificate_within`]): the answer was
/// not found with them, so they get more room (not tuned).
const FALLBACK_VISITS_SCALE: u64 = 10;

/// The status of "the attacker captures" from `g` reached by a line
/// (`prefix`: the history keys of the positions before it, oldest first;
/// `emptied`, where known, the points empty at `g` that hold a stone in
/// one of them: `lambda::search_on_line`) with `solver`, within `limits`
/// (visits, time, the stop flag). df-pn
/// (with or without Kawano's simulation) and λ-df-pn run as they do in
/// [`Solver::status`]; other searches (whose nested searches do not take a
/// line) are replaced by λ-df-pn with its default parameters.
pub fn status_within(
    solver: &Solver,
    g: &Capture,
    (prefix, emptied): (&[u64], Option<Bits>),
    limits: &Limits,
    tt: &Table,
) -> Status {
    let plain = pns_core::dfpn::Plain::default();
    match on_line(solver) {
        Solver::Dfpn => attack_search_limited(g, plain, limits, tt, prefix).status,
        Solver::Kawano => {
            let pol = pns_core::dfpn::Kawano::new(plain);
            attack_search_limited(g, pol, limits, tt, prefix).status
        }
        // (`on_line` leaves only λ-df-pn besides.)
        s => {
            let p = match s {
                Solver::Lambda(p) => p,
                _ => LambdaParams::default(),
            };
            lambda::search_limited(g, &p, limits, tt, (prefix, emptied))
                .0
                .status
        }
    }
}

/// The search a certificate runs for `solver`: df-pn (with or without
/// Kawano's simulation) and λ-df-pn themselves; the others, whose nested
/// searches do not take a line, replaced by λ-df-pn with its default
/// parameters.
fn on_line(solver: &Solver) -> Solver {
    match solver {
        Solver::Dfpn | Solver::Kawano | Solver::Lambda(_) => *solver,
        Solver::Zone(_) | Solver::LambdaSearch(_) => Solver::Lambda(LambdaParams::default()),
    }
}

/// The certificate of `d` for the position text `position` (the SGF and
/// `Spec` options that parse to `d.question`): the search is run again with
/// `solver` (at the limits of [`crate::capture::deepening`] in turn, up to
/// `visits`, on one table, and at most `visits` for each child whose
/// status the table does not hold), and its proof or disproof extracted
/// as a tree of Go moves. Errors: the search does not repeat its answer
/// within the limit, or a node's status cannot be found again.
pub fn certificate(
    d: &Decision,
    solver: &Solver,
    visits: u64,
    position: &str,
) -> Result<Certificate, String> {
    let limits = Limits {
        visits: Some(visits),
        ..Default::default()
    };
    certificate_within(d, solver, &limits, position)
}

/// [`certificate`] with `limits.visits` as its `visits` (none: no limit),
/// ended as an error once `limits.time` has passed (the whole of it: every
/// search asked again and every extraction) or `limits.stop` is set. Each
/// extraction's DAG is held within `limits.memory` (an estimate per node,
/// `Extractor`): one that outgrows it fails, and the next search is tried.
///
/// Where `solver` finds the answer again but a node's status or move
/// cannot be found from that node alone, plain λ-df-pn and then df-pn are
/// tried in its place (each from the start, on a table of its own, with
/// `FALLBACK_VISITS_SCALE` times the visits: the answer was not theirs). A
/// search with zones or λ orders proves a node through what it knows of
/// the tree above, and a search from the node alone may not find that
/// again (a defender move outside a zone, whose proof is the pass
/// position's); a plainer search's proof is one of each child in turn.
/// Every tree is checked by the same rules whichever search found it.
///
/// Each search is tried in two passes, each from the start on a table of
/// its own: the prover's moves in the search's order, within 32 MiB of
/// DAG (`FIRST_PASS_BYTES`); where that DAG outgrew it, the moves nearest the
/// prover's goal first ([`Extractor::with_nearest_first`]), within the
/// limits. On GNU Go's cases the second order wrote certificates 34 to
/// 52 times smaller for several escapes, but one of millions of nodes
/// where the first has 60 (docs/experiments/lambda.md, "The fifteenth
/// session").
pub fn certificate_within(
    d: &Decision,
    solver: &Solver,
    limits: &Limits,
    position: &str,
) -> Result<Certificate, String> {
    let plainer = [
        on_line(solver),
        Solver::Lambda(LambdaParams::default()),
        Solver::Dfpn,
    ];
    first_certificate(d, &plainer, limits, position)
}

/// [`certificate_within`] with `solver` alone: no other search is tried
/// where its certificate fails.
pub fn certificate_by_solver(
    d: &Decision,
    solver: &Solver,
    limits: &Limits,
    position: &str,
) -> Result<Certificate, String> {
    first_certificate(d, &[on_line(solver)], limits, position)
}

/// The certificate of the first of `solvers` that writes one, the later
/// ones with [`FALLBACK_VISITS_SCALE`] times the visits, all within
/// `limits.time`; the errors of each, joined, when none does.
fn first_certificate(
    d: &Decision,
    solvers: &[Solver],
    limits: &Limits,
    position: &str,
) -> Result<Certificate, String> {
    if !d.status.is_solved() {
        return Err("the question is not settled".into());
    }
    let deadline = limits
        .time
        .and_then(|t| std::time::Instant::now().checked_add(t));
    let mut tried: Vec<Solver> = Vec::new();
    let mut errors = Vec::new();
    for &s in solvers {
        if tried.contains(&s) {
            continue;
        }
        let limits = if tried.is_empty() {
            limits.clone()
        } else {
            Limits {
                visits: limits
                    .visits
                    .map(|v| v.saturating_mul(FALLBACK_VISITS_SCALE)),
                ..limits.clone()
            }
        };
        tried.push(s);
        // Two passes, the second only where the first's DAG outgrew its
        // memory, each from the start on a table of its own (a second pass
        // on the first's table ran reading 52 into the time limit after
        // 65,002 nodes; alone it writes 111,589 in 2.5 s).
        for nearest in [false, true] {
            let pass = if nearest { ", nearest first" } else { "" };
            match certificate_by(d, &s, &limits, deadline, position, nearest) {
                Ok(c) => return Ok(c),
                Err(Spent(e)) => {
                    errors.push(format!("{}{pass}: {e}", s.describe()));
                    return Err(errors.join("; "));
                }
                Err(Outgrew(e)) => errors.push(format!("{}{pass}: {e}", s.describe())),
                Err(Failed(e)) => {
                    errors.push(format!("{}{pass}: {e}", s.describe()));
                    break;
                }
            }
        }
    }
    Err(errors.join("; "))
}

/// Why one search's certificate was not written.
enum Missed {
    /// The time or the stop flag ended it: no other search is tried.
    Spent(String),
    /// The DAG outgrew its memory: the second pass may write a smaller one.
    Outgrew(String),
    /// A status or a move was not found again.
    Failed(String),
}
use Missed::{Failed, Outgrew, Spent};

/// [`certificate_within`] with `solver` alone, until `deadline`.
fn certificate_by(
    d: &Decision,
    solver: &Solver,
    limits: &Limits,
    deadline: Option<std::time::Instant>,
    position: &str,
    nearest: bool,
) -> Result<Certificate, Missed> {
    let q = d.question;
    let visits = limits.visits.unwrap_or(u64::MAX);
    // The limits of the next search: `visits`, the time left, the stop
    // flag; none once the time is spent or the flag set.
    let within = |visits: u64| -> Result<Limits, Missed> {
        let left = deadline.map(|d| d.saturating_duration_since(std::time::Instant::now()));
        if left.is_some_and(|l| l.is_zero()) {
            return Err(Spent("the certificate reached its time limit".into()));
        }
        if limits
            .stop
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            return Err(Spent("the certificate was stopped".into()));
        }
        Ok(Limits {
            visits: Some(visits),
            time: left,
            // (The searches' tables have their own size; the extraction's
            // DAG is bounded by this.)
            memory: limits.memory,
            stop: limits.stop.clone(),
            ..Default::default()
        })
    };
    let tt = Table::with_mb(TABLE_MB);
    // A widened question (`capture::widen`) was asked on the table of its
    // narrower ones, whose answers λ-df-pn with zones reads as its own:
    // they are asked first here too. A deepening question's rounds
    // (`capture::ask`) continued on the tables of the rounds before, so the
    // search is asked again at each of their limits in turn, up to
    // `visits`, until it repeats its answer.
    let mut again = Status::Unknown;
    for v in crate::capture::deepening(visits) {
        if q.complete().is_some() {
            for &gen in q.generator().narrower() {
                status_within(
                    solver,
                    &q.with_generator(gen),
                    (&[], None),
                    &within(v)?,
                    &tt,
                );
            }
        }
        again = status_within(solver, &q, (&[], None), &within(v)?, &tt);
        if again == d.status {
            break;
        }
    }
    if again != d.status {
        within(visits)?;
        return Err(Failed(format!(
            "the search found {} again instead of {} within {visits} visits",
            again.name(),
            d.status.name()
        )));
    }
    // The block is about the side to move at the root: the attacker, or
    // the target's owner asked whether it saves the target.
    let attacker_to_move = q.board().to_move() == q.attacker();
    let flip = |s: Status| match s {
        Status::Proven => Status::Disproven,
        Status::Disproven => Status::Proven,
        Status::Unknown => Status::Unknown,
    };
    let captured = d.status == Status::Proven;
    let value = if captured == attacker_to_move {
        Outcome::Win
    } else {
        Outcome::Loss
    };
    let mut blocks = Vec::new();
    for (goal, claim) in required_blocks(value, false) {
        let search = |g: &Capture, line: &[u64], lim: &Limits| {
            // First without the line, in the key space of the search above,
            // whose entries it reads. A search with a history keeps its
            // entries apart (`PathOptions::prefix`), where λ-df-pn's zone
            // walks, which probe a node's own key, do not find them: reading
            // 24's child after `Q1 R1` is unknown with the line at 30,000
            // visits (and at 3,000 on a fresh table), proven without it at
            // 3,000.
            // Only a repetition of a position on the line could make that
            // status wrong here; the extraction then fails below (every leaf
            // it writes is checked by the rules), never writes a wrong tree.
            // The line is asked where the first search is unknown.
            let mut s = status_within(solver, g, (&[], None), lim, &tt);
            if !s.is_solved() && !line.is_empty() {
                s = status_within(solver, g, (line, None), lim, &tt);
            }
            if attacker_to_move {
                s
            } else {
                flip(s)
            }
        };
        // (The extraction's time is what the search above left.)
        let lim = within(visits)?;
        // Where the attacker proves a capture, its move at each of its
        // nodes is read from the table of the search that proved the node
        // (run from that node by `search` above): λ-df-pn proves a node
        // through the λ order of the move, which a search from the
        // position after the move does not know (reading 152's `M18`:
        // proven from the root in 72,911 visits, unknown after it at
        // 300,000).
        let attacker = q.attacker();
        let tt = &tt;
        // (From the table alone: where it names no move, the extractor's
        // own search of each child follows, and a search here would do
        // that work twice. df-pn's moves the extractor reads itself.)
        let reader = on_line(solver);
        let choice = move |g: &Capture, _line: &[u64]| match reader {
            Solver::Lambda(p) if captured && g.board().to_move() == attacker => {
                lambda::move_in_table(g, &p, tt)
            }
            _ => None,
        };
        // The first pass within a small DAG, the second within the limits
        // (`certificate_within`).
        let lim = if nearest {
            lim
        } else {
            Limits {
                memory: Some(
                    lim.memory
                        .map_or(FIRST_PASS_BYTES, |m| m.min(FIRST_PASS_BYTES)),
                ),
                ..lim
            }
        };
        let mut ex = Extractor::new(&q, goal, claim, tt, lim)
            .with_search(Box::new(search))
            .with_choice(Box::new(choice));
        if nearest {
            ex = ex.with_nearest_first();
        }
        blocks.push(ex.extract(&q).map_err(|e| match within(0) {
            // (The extractor says which limit ended it.)
            Err(Spent(_)) => Spent(e),
            _ if ex.outgrew_memory() => Outgrew(e),
            _ => Failed(e),
        })?);
    }
    Ok(Certificate {
        game: <Capture as pns_core::Rules>::NAME.to_string(),
        position: position.to_string(),
        value,
        blocks,
    })
}
