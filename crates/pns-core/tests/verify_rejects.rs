//! The verifier's rejection paths: every way a certificate can be wrong —
//! the text malformed, another game or position, a value its blocks do not
//! support, a move missing, illegal or repeated, a node id out of order or
//! out of range, a cycle, a node unreached, a concession, fill or claim in a
//! game without them — is refused with the reason that names it.
//!
//! The certificates are written by hand for a tiny game, so that each
//! tampering hits one known node; each untampered one must verify first
//! (and agrees with what the solver itself writes). The extractor's own
//! safeguard is here too: a move named by the search that proved a node
//! (`Extractor::with_choice`) is used, and a wrong one makes the
//! extraction fail rather than write a certificate.

use pns_core::certificate::{Block, Certificate, Extractor};
use pns_core::game::play_move_list;
use pns_core::prelude::*;
use pns_core::solve::{solve, SolveOptions};
use pns_core::verify::{verify, verify_block};
use pns_core::{GameError, Goal, Limits, Outcome, Side, Status, Table};

/// A pile of counters; each turn takes 1 or 2 and whoever takes the last
/// one wins. A turn budget makes it a draw when it runs out first.
/// Notation: `PILE TURNS [MOVES...]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Pile {
    pile: u8,
    turns: u8,
    first_to_move: bool,
}

impl Rules for Pile {
    type Move = u8;

    const NAME: &'static str = "pile";

    fn side_to_move(&self) -> Side {
        if self.first_to_move {
            Side::First
        } else {
            Side::Second
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.pile == 0 {
            // The player before took the last counter.
            Some(Outcome::Loss)
        } else if self.turns == 0 {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.extend((1..=2).filter(|&m| m <= self.pile));
    }

    fn play(&mut self, m: u8) {
        self.pile -= m;
        self.turns -= 1;
        self.first_to_move = !self.first_to_move;
    }

    fn key(&self) -> u64 {
        (self.pile as u64) << 16 | (self.turns as u64) << 8 | self.first_to_move as u64
    }
}

impl Notation for Pile {
    fn parse_position(s: &str) -> Result<Self, GameError> {
        let mut it = s.split_whitespace();
        let mut num = |what: &str| -> Result<u8, GameError> {
            it.next()
                .and_then(|t| t.parse().ok())
                .ok_or_else(|| GameError::new(format!("expected the {what}")))
        };
        let g = Pile {
            pile: num("pile")?,
            turns: num("turns")?,
            first_to_move: true,
        };
        play_move_list(g, s.split_whitespace().skip(2))
    }

    fn parse_move(&self, s: &str) -> Result<u8, GameError> {
        match s.parse::<u8>() {
            Ok(m @ 1..=2) if m <= self.pile && self.outcome().is_none() => Ok(m),
            _ => Err(GameError::new(format!("'{s}' is not a legal take"))),
        }
    }

    fn format_move(&self, m: u8) -> String {
        m.to_string()
    }
}

impl SearchHooks for Pile {}

impl Shortcuts for Pile {}

impl Playout for Pile {}

/// `1 5`: the side to move takes the last counter.
const WIN: &str = "pns-certificate 1
game pile
position 1 5
value win
block win proven 2
0 1:1
1
end
";

/// `3 9`: whatever the side to move takes, the other takes the rest. Node
/// 3 is shared (both lines end at an empty pile after two turns).
const LOSS: &str = "pns-certificate 1
game pile
position 3 9
value loss
block not-lose disproven 4
0 1:1 2:2
1 2:3
2 1:3
3
end
";

/// `6 2`: two turns cannot empty a pile of six: a draw, with its two
/// blocks.
const DRAW: &str = "pns-certificate 1
game pile
position 6 2
value draw
block not-lose proven 4
0 1:1
1 1:2 2:3
2
3
end
block win disproven 5
0 1:1 2:2
1 1:3
2 1:4
3
4
end
";

fn check(position: &str, text: &str) -> Result<Outcome, String> {
    let g = Pile::parse_position(position).expect("a test position");
    Certificate::parse(text).and_then(|c| verify(&g, &c))
}

/// The position a certificate's text names.
fn position_of(text: &str) -> &str {
    text.lines()
        .find_map(|l| l.strip_prefix("position "))
        .expect("a position line")
}

/// `text` with its first `from` replaced by `to`; the replacement must
/// change something, or the test would check the valid certificate.
fn tamper(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "'{from}' not in the certificate");
    text.replacen(from, to, 1)
}

/// The tampered certificate is refused, and the reason contains `reason`.
#[track_caller]
fn rejected(text: &str, reason: &str) {
    rejected_at(position_of(text), text, reason)
}

/// [`rejected`] for the root `position`.
#[track_caller]
fn rejected_at(position: &str, text: &str, reason: &str) {
    match check(position, text) {
        Ok(v) => panic!("accepted as {v}, expected '{reason}':\n{text}"),
        Err(e) => assert!(e.contains(reason), "expected '{reason}' in: {e}"),
    }
}

#[test]
fn the_untampered_certificates_verify_and_match_the_solver() {
    for (text, value) in [
        (WIN, Outcome::Win),
        (LOSS, Outcome::Loss),
        (DRAW, Outcome::Draw),
    ] {
        let pos = position_of(text);
        assert_eq!(check(pos, text), Ok(value), "{pos}");
        let g = Pile::parse_position(pos).unwrap();
        let opts = SolveOptions {
            proof: true,
            ..Default::default()
        };
        let r = solve(&g, pos, &opts, &mut Table::with_mb(1));
        assert_eq!(r.value, Some(value), "{pos}");
        let cert = r.certificate.expect("the solver's certificate");
        assert_eq!(verify(&g, &cert), Ok(value), "{pos}");
    }
}

#[test]
fn another_game_or_position_is_refused() {
    rejected(
        &tamper(WIN, "game pile", "game connect4"),
        "for game 'connect4', not 'pile'",
    );
    rejected_at(
        "1 5",
        &tamper(WIN, "position 1 5", "position x"),
        "position does not parse",
    );
    // The right certificate, checked against another root.
    let e = check("2 5", WIN).unwrap_err();
    assert!(e.contains("different position"), "{e}");
}

#[test]
fn a_value_the_blocks_do_not_support_is_refused() {
    // A draw needs two blocks; the win block is not one of them.
    rejected(
        &tamper(WIN, "value win", "value draw"),
        "a 'draw' needs a block 'not-lose proven'",
    );
    // Half of a draw's proof.
    let half = &DRAW[..DRAW.find("block win disproven").unwrap()];
    rejected(half, "a 'draw' needs a block 'win disproven'");
    // The win, passed off as a loss: the leaf is a win for the attacker.
    let as_loss = tamper(
        &tamper(WIN, "value win", "value loss"),
        "block win proven",
        "block not-lose disproven",
    );
    rejected(&as_loss, "node 1 is a finished game (loss for the side to move) that does not support 'not-lose disproven'");
}

#[test]
fn moves_missing_illegal_or_repeated_are_refused() {
    // The defender's take of 2 at the root is not refuted.
    rejected(
        &tamper(LOSS, "0 1:1 2:2", "0 1:1"),
        "the legal move '2' is missing",
    );
    // Taking 2 from a pile of 1; taking 3; not a move at all.
    rejected(&tamper(WIN, "0 1:1", "0 2:1"), "node 0: move '2'");
    rejected(&tamper(LOSS, "1 2:3", "1 3:3"), "node 1: move '3'");
    rejected(&tamper(WIN, "0 1:1", "0 x:1"), "node 0: move 'x'");
    rejected(
        &tamper(LOSS, "0 1:1 2:2", "0 1:1 1:2 2:2"),
        "move '1' is listed twice",
    );
    // An unfinished game with no moves, a finished one with some.
    rejected(
        &tamper(WIN, "0 1:1", "0"),
        "node 0 lists no moves but the game is not over",
    );
    rejected(
        &tamper(LOSS, "\n3\n", "\n3 1:0\n"),
        "node 3 is a finished game but lists moves",
    );
}

#[test]
fn bad_references_are_refused() {
    // A child that leads back to its ancestor.
    rejected(&tamper(LOSS, "1 2:3", "1 2:0"), "node 0 is on a cycle");
    // One id for two different positions (a pile of 1 and an empty one).
    rejected(
        &tamper(LOSS, "1 2:3", "1 1:3"),
        "node 3 is reached at two different positions",
    );
    // A node nothing points to.
    let extra = tamper(
        &tamper(WIN, "block win proven 2", "block win proven 3"),
        "\n1\n",
        "\n1\n2\n",
    );
    rejected(&extra, "node 2 is not reachable from the root");
    // A child id past the block.
    rejected(
        &tamper(WIN, "0 1:1", "0 1:7"),
        "child 7 is out of range (0..2)",
    );
}

#[test]
fn bad_node_ids_are_refused() {
    rejected(
        &tamper(LOSS, "\n2 1:3\n", "\n5 1:3\n"),
        "node ids must be in order: expected 2, found 5",
    );
    rejected(&tamper(WIN, "\n1\n", "\nx\n"), "expected node id 1");
    rejected(&tamper(WIN, "0 1:1", "0 1:x"), "bad child id in '1:x'");
    rejected(
        &tamper(WIN, "block win proven 2", "block win proven 3"),
        "expected node id 2",
    );
    let cut = tamper(WIN, "\nend\n", "\n");
    rejected(
        &tamper(&cut, "block win proven 2", "block win proven 3"),
        "node 2 missing",
    );
}

#[test]
fn malformed_lines_are_refused() {
    rejected(
        &tamper(WIN, "pns-certificate 1", "pns-certificate 2"),
        "not a pns certificate",
    );
    rejected(
        &tamper(WIN, "game pile", "name pile"),
        "line 2: expected 'game ...'",
    );
    rejected(
        &tamper(WIN, "value win", "value maybe"),
        "line 4: unknown value 'maybe'",
    );
    rejected(
        &tamper(WIN, "block win proven 2", "block win proven"),
        "expected 'block GOAL CLAIM N'",
    );
    rejected(
        &tamper(WIN, "block win proven", "block lose proven"),
        "unknown goal 'lose'",
    );
    rejected(
        &tamper(WIN, "block win proven", "block win unknown"),
        "claim must be proven or disproven",
    );
    rejected(
        &tamper(WIN, "block win proven 2", "block win proven two"),
        "bad node count 'two'",
    );
    rejected(&tamper(WIN, "0 1:1", "0 1-1"), "'1-1' is not MOVE:CHILD");
    rejected(&tamper(WIN, "\nend\n", "\nfin\n"), "expected 'end'");
    rejected(&WIN.replace("\nend\n", "\n"), "expected 'end'");
    rejected(&tamper(WIN, "0 1:1", "0 +:1"), "empty fill or concession");
    rejected(
        &tamper(WIN, "0 1:1", "0 1:1 !2:1"),
        "must be the node's only entry",
    );
    rejected(
        &tamper(WIN, "\n1\n", "\n1 ?a b\n"),
        "a claim is one non-empty token",
    );
    rejected_at("1 5", "", "unexpected end of file: expected the header");
}

#[test]
fn empty_or_unclaimed_blocks_are_refused() {
    rejected(
        &tamper(
            WIN,
            "block win proven 2\n0 1:1\n1\n",
            "block win proven 0\n",
        ),
        "the block has no nodes",
    );
    // The text cannot say it, and `verify` looks only for the blocks the
    // value needs; a block built in memory and checked alone can.
    let g = Pile::parse_position("1 5").unwrap();
    let c = Certificate::parse(WIN).unwrap();
    assert!(verify_block(&g, &c.blocks[0]).is_ok());
    let unclaimed = Block {
        goal: Goal::Win,
        claim: Status::Unknown,
        nodes: c.blocks[0].nodes.clone(),
    };
    let e = verify_block(&g, &unclaimed).unwrap_err();
    assert!(e.contains("a block must claim proven or disproven"), "{e}");
}

#[test]
fn concessions_fills_and_claims_need_a_game_that_allows_them() {
    // Pile has none of them: its rules refuse every witness.
    rejected(
        &tamper(LOSS, "1 2:3", "1 !1:3"),
        "node 1: conceded move '1': pile: concessions are not sound",
    );
    rejected(
        &tamper(LOSS, "1 2:3", "1 !9:3"),
        "node 1: conceded move '9'",
    );
    rejected(
        &tamper(LOSS, "1 2:3", "1 +w:3"),
        "node 1: fill rejected: pile: this game has no fills",
    );
    rejected(
        &tamper(LOSS, "1 2:3", "1 ?w"),
        "node 1: claim rejected: pile: this game has no claims",
    );
    // At a finished game none of them has a place.
    rejected(
        &tamper(LOSS, "\n3\n", "\n3 ?w\n"),
        "node 3 is a finished game but holds a claim",
    );
    rejected(
        &tamper(LOSS, "\n3\n", "\n3 +w:0\n"),
        "node 3 is a finished game but fills",
    );
    rejected(
        &tamper(LOSS, "\n3\n", "\n3 !1:0\n"),
        "node 3 is a finished game but concedes moves",
    );
}

/// A search that, like λ-df-pn on a capture, proves a node only from the
/// prover's side: from a position with the other side to move it answers
/// unknown. The extractor cannot choose the prover's move by searching the
/// children then, and with the search's own choice it can. A wrong choice
/// (taking 2 from 4, which leaves the opponent a pile of 2 to take) ends
/// the extraction in an error, never in a certificate.
#[test]
fn a_move_named_by_the_search_is_used_and_a_wrong_one_fails() {
    let g = Pile::parse_position("4 20").unwrap();
    let extract = |choice: Option<fn(&Pile) -> u8>| {
        let tt = Table::with_mb(1);
        // Taking the last counter wins: the mover wins where the pile is
        // not a multiple of 3.
        let search = |p: &Pile, _line: &[u64], _: &Limits| match (p.first_to_move, p.pile % 3) {
            (false, _) => Status::Unknown,
            (true, 0) => Status::Disproven,
            (true, _) => Status::Proven,
        };
        let mut ex = Extractor::new(&g, Goal::Win, Status::Proven, &tt, Limits::default())
            .with_search(Box::new(search));
        if let Some(choose) = choice {
            ex = ex.with_choice(Box::new(move |p: &Pile, _line: &[u64]| Some(choose(p))));
        }
        ex.extract(&g)
    };
    let err = extract(None).unwrap_err();
    assert!(err.contains("no child is proven"), "{err}");
    let right = extract(Some(|p| if p.pile % 3 == 1 { 1 } else { 2 })).unwrap();
    verify_block(&g, &right).unwrap();
    // (The opponent then takes the last 2: a finished game, lost.)
    let err = extract(Some(|p| p.pile.min(2))).unwrap_err();
    assert!(
        err.contains("a finished game in the DAG is not proven"),
        "{err}"
    );
}
