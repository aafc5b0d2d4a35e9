//! The two halves of a capturing question, one after the other or both at
//! once.
//!
//! `attack` and `defend` ([`crate::capture::attack_decided`],
//! [`crate::capture::defend_decided`]) settle a question with two
//! independent searches and their widenings: the capture with the defender
//! playing every point (the *capture half*) and the escape with the
//! attacker playing every point (the *escape half*). The generator and the
//! complete side are in the table's keys, so neither half reads the
//! other's entries: each can run on its own table, on its own thread.
//!
//! A question is a list of *steps* per half, each a search (or a
//! widening) that may end in a proof. Every proof has a *rank*, the place
//! the one-thread order asks it in, and a kind, capture or escape. The
//! answer is the proof of the lowest rank found, whichever order the steps
//! run in, so both halves at once answer as one thread does (the same
//! searches on the same tables; only the visits spent differ). A step is
//! skipped, or stopped where it runs, once a proof is found that rules out
//! everything it could end in: a lower rank, or the other kind. A capture
//! proof and an escape proof of one question cannot both exist (each is
//! a proof in Go: [`crate::capture`]'s soundness), so an escape found by
//! one half stops every capture the other half is still looking for.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use pns_core::{Status, Table};

use crate::capture::{Capture, Effort, Run, Solver, TABLE_MB};

/// The stack of a half's thread: as the command line's search threads.
const HALF_STACK: usize = 256 << 20;

/// A request to stop a question from outside (a time limit, or another
/// question that found the answer): it stops every lane registered with
/// it and every child [`Stopper`], now or, if already stopped, as they are
/// made. A search it stops ends unknown.
#[derive(Default)]
pub struct Stopper {
    node: Arc<Mutex<Node>>,
}

#[derive(Default)]
struct Node {
    stopped: bool,
    flags: Vec<Arc<AtomicBool>>,
    children: Vec<Arc<Mutex<Node>>>,
}

impl Stopper {
    /// A stopper that `parent`, if any, stops too.
    pub fn child(parent: Option<&Stopper>) -> Stopper {
        let c = Stopper::default();
        if let Some(p) = parent {
            let mut n = p.node.lock().unwrap();
            c.node.lock().unwrap().stopped = n.stopped;
            n.children.push(c.node.clone());
        }
        c
    }

    /// Stops every lane and child of this stopper.
    pub fn stop(&self) {
        fn stop_node(node: &Mutex<Node>) {
            let children = {
                let mut n = node.lock().unwrap();
                n.stopped = true;
                for f in &n.flags {
                    f.store(true, Ordering::Relaxed);
                }
                n.children.clone()
            };
            for c in &children {
                stop_node(c);
            }
        }
        stop_node(&self.node);
    }

    /// Whether [`Stopper::stop`] was called (on it or a parent).
    pub fn stopped(&self) -> bool {
        self.node.lock().unwrap().stopped
    }

    /// A stop flag for one search, set when this stopper stops.
    pub(crate) fn flag(&self) -> Arc<AtomicBool> {
        let mut n = self.node.lock().unwrap();
        let f = Arc::new(AtomicBool::new(n.stopped));
        n.flags.push(f.clone());
        f
    }

    /// Runs `f` with a stopper (a child of `parent`) that stops itself
    /// after `time`; without a time, with `parent` itself.
    pub fn within<T>(
        time: Option<std::time::Duration>,
        parent: Option<&Stopper>,
        f: impl FnOnce(Option<&Stopper>) -> T,
    ) -> T {
        Stopper::within_or(time, None, parent, f)
    }

    /// [`Stopper::within`], stopping as well once `interrupt` is set (the
    /// command line's Ctrl-C flag, which a signal handler sets and so
    /// cannot stop anything itself): a watchdog reads it every 20 ms.
    pub fn within_or<T>(
        time: Option<std::time::Duration>,
        interrupt: Option<Arc<AtomicBool>>,
        parent: Option<&Stopper>,
        f: impl FnOnce(Option<&Stopper>) -> T,
    ) -> T {
        if time.is_none() && interrupt.is_none() {
            return f(parent);
        }
        const POLL: std::time::Duration = std::time::Duration::from_millis(20);
        let s = Stopper::child(parent);
        let (done, wait) = std::sync::mpsc::channel::<()>();
        let deadline = time.map(|t| std::time::Instant::now() + t);
        std::thread::scope(|scope| {
            let watch = &s;
            scope.spawn(move || loop {
                let left = deadline.map(|d| d.saturating_duration_since(std::time::Instant::now()));
                let nap = match (&interrupt, left) {
                    (Some(_), Some(l)) => l.min(POLL),
                    (Some(_), None) => POLL,
                    (None, Some(l)) => l,
                    (None, None) => unreachable!("a watchdog watches something"),
                };
                // Disconnected (`f` returned) or a message: no stop.
                if wait.recv_timeout(nap) != Err(std::sync::mpsc::RecvTimeoutError::Timeout) {
                    return;
                }
                let late = left.is_some_and(|l| l <= nap);
                if late
                    || interrupt
                        .as_ref()
                        .is_some_and(|i| i.load(Ordering::Relaxed))
                {
                    watch.stop();
                    return;
                }
            });
            let r = f(Some(&s));
            drop(done);
            r
        })
    }
}

/// Runs `a` on a thread of its own (with the search threads' stack) and
/// `b` on this one, at once; both on this one, `a` first, where no thread
/// can be started.
pub(crate) fn both<A: Send, B>(a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B) -> (A, B) {
    let a = Mutex::new(Some(a));
    let run_a = || a.lock().unwrap().take().map(|f| f());
    std::thread::scope(|s| {
        let h = std::thread::Builder::new()
            .stack_size(HALF_STACK)
            .spawn_scoped(s, run_a)
            .ok();
        let (ra, rb) = match h {
            Some(h) => {
                let rb = b();
                (
                    h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
                    rb,
                )
            }
            None => (run_a(), b()),
        };
        (ra.expect("`a` runs once"), rb)
    })
}

/// A proof a step can end in: its rank (lower ranks win) and its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Proof {
    pub rank: u8,
    pub capture: bool,
}

impl Proof {
    pub const fn capture(rank: u8) -> Proof {
        Proof {
            rank,
            capture: true,
        }
    }

    pub const fn escape(rank: u8) -> Proof {
        Proof {
            rank,
            capture: false,
        }
    }

    /// Whether `found` leaves this proof no place in the answer: it ranks
    /// lower, or it is of the other kind and so cannot exist.
    fn ruled_out_by(self, found: Proof) -> bool {
        self.rank > found.rank || self.capture != found.capture
    }
}

/// A proof found: the question searched and its status there.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Found {
    pub proof: Proof,
    pub question: Capture,
    pub status: Status,
    /// The half that found it, whose table holds it (set by the race).
    half: usize,
}

impl Found {
    pub fn new(proof: Proof, question: Capture, status: Status) -> Found {
        Found {
            proof,
            question,
            status,
            half: 0,
        }
    }
}

/// One half's table, effort and stop flag.
pub(crate) struct Lane<'s> {
    solver: &'s Solver,
    visits: u64,
    pub table: Arc<Table>,
    effort: Mutex<Effort>,
    stop: Arc<AtomicBool>,
}

impl Lane<'_> {
    /// "The attacker captures" at `q` on this half's table: unknown at
    /// once when the step has been ruled out.
    pub fn ask(&self, q: &Capture) -> Status {
        if self.stop.load(Ordering::Relaxed) {
            return Status::Unknown;
        }
        let mut e = self.effort.lock().unwrap();
        self.solver
            .status_until(q, self.visits, &self.table, &mut e, Some(&self.stop))
    }
}

/// What a step does, given the status of its half's step before it
/// (`Unknown` for the first): the status it found and its proof, if any.
pub(crate) type StepFn<'s> = Box<dyn FnOnce(&Lane, Status) -> (Status, Option<Found>) + Send + 's>;

/// A step of a half: the proofs it can end in (its own: [`settle`] adds
/// those of the steps after it), and what it does.
pub(crate) struct Step<'s> {
    pub can: Vec<Proof>,
    pub run: StepFn<'s>,
}

impl<'s> Step<'s> {
    /// The search of `q`: its proof is `on_proven` where it is proven,
    /// `on_disproven` where it is disproven (none: no answer).
    pub fn search(q: Capture, on_proven: Option<Proof>, on_disproven: Option<Proof>) -> Step<'s> {
        Step {
            can: on_proven.into_iter().chain(on_disproven).collect(),
            run: Box::new(move |lane, _| {
                let st = lane.ask(&q);
                let proof = match st {
                    Status::Proven => on_proven,
                    Status::Disproven => on_disproven,
                    Status::Unknown => None,
                };
                (st, proof.map(|p| Found::new(p, q, st)))
            }),
        }
    }

    /// `q` widened ([`crate::capture::widen`]) where the step before
    /// ended in its bounded side's loss (proven with the attacker
    /// complete, disproven with the defender complete): a capture of
    /// `rank` where a wider search proves it, an escape where one with the
    /// attacker complete disproves it.
    pub fn widening(q: Capture, rank: u8) -> Step<'s> {
        let attacker_complete = q.complete() == Some(q.attacker());
        let lost = if attacker_complete {
            Status::Proven
        } else {
            Status::Disproven
        };
        let mut can = vec![Proof::capture(rank)];
        if attacker_complete {
            can.push(Proof::escape(rank));
        }
        Step {
            can,
            run: Box::new(move |lane, prev| {
                if prev != lost {
                    return (prev, None);
                }
                let w = crate::capture::widen(&q, |c| lane.ask(c)).map(|(c, st)| {
                    let p = match st {
                        Status::Proven => Proof::capture(rank),
                        _ => Proof::escape(rank),
                    };
                    Found::new(p, c, st)
                });
                (prev, w)
            }),
        }
    }
}

/// The race's shared state: each half's proof, and the proofs its running
/// step can end in.
struct Shared {
    found: [Option<Found>; 2],
    running: [Vec<Proof>; 2],
}

fn ruled_out(can: &[Proof], found: &Option<Found>) -> bool {
    found.is_some_and(|f| can.iter().all(|p| p.ruled_out_by(f.proof)))
}

/// The two halves' steps and how they are run.
pub(crate) struct Question<'s> {
    pub halves: [Vec<Step<'s>>; 2],
    /// The one-thread order: which half steps next.
    pub order: Vec<usize>,
    /// The question's position key (its side to move and ko exemption
    /// in it): which tables of [`Tables`] its halves continue on.
    pub key: u64,
}

/// The tables of a deepening question's searches ([`crate::capture::ask`]),
/// kept from one round to the next: each half of each question asked (the
/// ko questions are three) continues on its table of the round before,
/// as df-pn continues a search from its table, instead of starting again.
/// A round runs only when the round before found no proof, so no step of
/// it was cut short by the other half, and its tables are the same with
/// one thread and two.
#[derive(Default)]
pub struct Tables {
    map: Mutex<HashMap<(u64, usize), Arc<Table>>>,
}

impl Tables {
    /// The table of half `half` of the question `key`, new the first time.
    fn get(&self, key: u64, half: usize) -> Arc<Table> {
        self.map
            .lock()
            .unwrap()
            .entry((key, half))
            .or_insert_with(|| Arc::new(Table::with_mb(TABLE_MB)))
            .clone()
    }
}

/// The settled question: the proof of the lowest rank (none when no step
/// found one) and the two halves' lanes, whose tables hold the proofs.
pub(crate) struct Settled<'s> {
    pub found: Option<Found>,
    pub lanes: [Lane<'s>; 2],
}

impl Settled<'_> {
    /// The lane whose table holds the answer's proof.
    pub fn lane_of(&self, f: &Found) -> &Lane<'_> {
        &self.lanes[f.half]
    }
}

/// Runs `q`: with `run.threads` above 1, each half on its own thread
/// (every solver stops on request: [`Solver::status_until`]); otherwise the
/// steps in `q.order`. Both answer the same. Once `run.stop` stops, the
/// answer is none. The lanes' effort is added to `effort`.
pub(crate) fn settle<'s>(
    q: Question<'s>,
    solver: &'s Solver,
    visits: u64,
    run: Run,
    effort: &mut Effort,
) -> Settled<'s> {
    let (threads, parent) = (run.threads, run.stop);
    let lane = |half: usize| Lane {
        solver,
        visits,
        table: run.tables.map_or_else(
            || Arc::new(Table::with_mb(TABLE_MB)),
            |t| t.get(q.key, half),
        ),
        effort: Mutex::new(Effort::default()),
        stop: parent.map_or_else(|| Arc::new(AtomicBool::new(false)), Stopper::flag),
    };
    let lanes = [lane(0), lane(1)];
    let shared = Mutex::new(Shared {
        found: [None, None],
        running: [Vec::new(), Vec::new()],
    });
    let [mut h0, mut h1] = q.halves;
    // A step leads to its half's later ones (their searches start from its
    // status), so it can end in what they can.
    for steps in [&mut h0, &mut h1] {
        let mut later: Vec<Proof> = Vec::new();
        for step in steps.iter_mut().rev() {
            later.extend(step.can.iter().copied());
            step.can.clone_from(&later);
        }
    }
    if threads > 1 {
        let half = |i: usize, steps: Vec<Step<'s>>| {
            let mut prev = Status::Unknown;
            for step in steps {
                match run_step(i, step, prev, &lanes, &shared) {
                    Some(st) => prev = st,
                    None => break,
                }
            }
        };
        both(|| half(0, h0), || half(1, h1));
    } else {
        let mut steps = [h0.into_iter(), h1.into_iter()];
        let mut prev = [Status::Unknown; 2];
        let mut done = [false; 2];
        for &i in &q.order {
            if done[i] {
                continue;
            }
            match steps[i]
                .next()
                .and_then(|st| run_step(i, st, prev[i], &lanes, &shared))
            {
                Some(st) => prev[i] = st,
                None => done[i] = true,
            }
        }
    }
    let sh = shared.into_inner().unwrap();
    for l in &lanes {
        effort.add(&l.effort.lock().unwrap());
    }
    // Stopped from outside: no answer (another question may have found
    // it), and no move need be read.
    let found = sh
        .found
        .into_iter()
        .flatten()
        .min_by_key(|f| f.proof.rank)
        .filter(|_| !parent.is_some_and(Stopper::stopped));
    Settled { found, lanes }
}

/// Runs half `i`'s `step` unless a proof of the other half has ruled it
/// out: its status, or `None` when the half is done (a proof found, the
/// step ruled out before or while it ran).
fn run_step(
    i: usize,
    step: Step<'_>,
    prev: Status,
    lanes: &[Lane<'_>; 2],
    shared: &Mutex<Shared>,
) -> Option<Status> {
    let (me, other) = (&lanes[i], &lanes[1 - i]);
    {
        let mut sh = shared.lock().unwrap();
        if ruled_out(&step.can, &sh.found[1 - i]) {
            return None;
        }
        sh.running[i] = step.can;
    }
    let (status, found) = (step.run)(me, prev);
    let mut sh = shared.lock().unwrap();
    sh.running[i].clear();
    if me.stop.load(Ordering::Relaxed) {
        return None;
    }
    let Some(f) = found else {
        return Some(status);
    };
    sh.found[i] = Some(Found { half: i, ..f });
    // The other half's running step, if the proof rules it out, stops
    // (an empty list: no step is running).
    if !sh.running[1 - i].is_empty() && ruled_out(&sh.running[1 - i], &sh.found[i]) {
        other.stop.store(true, Ordering::Relaxed);
    }
    None
}
