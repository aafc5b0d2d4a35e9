//! Play/undo and legal-move rates on a 19x19 middle-game position: GNU Go's
//! regression game `incident108b.sgf` loaded up to move 150 (from
//! `../shared/data/go/gnugo`). `cargo bench -p pns-go`; figures in
//! docs/PERFORMANCE.md.

use std::hint::black_box;
use std::time::Instant;

use pns_go::sgf::load_file;
use pns_go::{Board, GoGame, KoRule};

fn rate(what: &str, per: &str, count: u64, secs: f64) {
    println!("{what:<58} {:>8.2} M {per}/s", count as f64 / secs / 1e6);
}

fn main() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/go/gnugo/regression/games/incident108b.sgf");
    let loaded = match load_file(&path, Some(150), KoRule::Situational) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{e} (the benchmark reads ../shared/data beside the checkout)");
            std::process::exit(2);
        }
    };
    let game = loaded.game;
    let board: Board = *game.board();
    println!("{}\n", board.render());
    let mut moves = Vec::new();
    board.legal_points(None, true, &mut moves);
    println!(
        "{} legal moves, {} stones, {} earlier positions\n",
        moves.len(),
        361 - board.empty().count(),
        game.history().len()
    );

    // Legal-move generation: every empty point checked.
    let reps = 20_000u64;
    let t = Instant::now();
    let mut n = 0u64;
    for _ in 0..reps {
        let mut out = Vec::with_capacity(400);
        black_box(&board).legal_points(None, true, &mut out);
        n += out.len() as u64;
    }
    let s = t.elapsed().as_secs_f64();
    rate(
        "legal-move generation (simple ko), whole board",
        "generations",
        reps,
        s,
    );
    rate("  legal moves generated", "moves", n, s);

    // Play and undo (undo = restoring the copy): every legal move in turn.
    let reps = 20_000u64;
    let t = Instant::now();
    let mut caps = 0u64;
    for _ in 0..reps {
        for &m in &moves {
            let mut b = *black_box(&board);
            caps += b.play(m, true).map(|c| c.count() as u64).unwrap_or(0);
            black_box(&b);
        }
    }
    let s = t.elapsed().as_secs_f64();
    black_box(caps);
    rate(
        "play + undo (board copy), every legal move",
        "moves",
        reps * moves.len() as u64,
        s,
    );

    // The same through the game record: situational super-ko checked
    // against every earlier position, then undone.
    let reps = 2_000u64;
    let mut g: GoGame = game.clone();
    let c = board.to_move();
    let t = Instant::now();
    for _ in 0..reps {
        for &m in &moves {
            if g.play(c, m).is_ok() {
                g.undo();
            }
        }
    }
    let s = t.elapsed().as_secs_f64();
    rate(
        "play + undo with situational super-ko (game record)",
        "moves",
        reps * moves.len() as u64,
        s,
    );
}
