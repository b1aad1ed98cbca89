//! `cargo xtask fit-moves`: fits the move model's weights and opening book on lichess games
//! and writes `crates/codec/src/move_model_table.rs`; `--eval` only measures the shipped
//! model.
//!
//! The split (binding: the reported held-out figures depend on it):
//!
//! - fit on every file of `../shared/corpus/train/` except the two held out;
//! - held out: `lichess-export-jowen93-2016-2021.pgn` (one account, 2016-2021) and
//!   `lichess-arena-2025-03-28-daily-rapid.pgn` (an arena of a day the fit files do not have);
//! - also measured, never fitted on: the lichess database excerpts, the lichess broadcast,
//!   the over-the-board master games and the engine games of `../shared/corpus/`.
//!
//! Fitting: the softmax over each position's legal moves of the summed feature weights,
//! maximum likelihood by Adam on mini-batches (fixed seed, so a run is reproducible), a
//! little L2; the weights are then rounded to `SCORE_SCALE` units. The book: positions of the
//! first `BOOK_PLIES` plies seen in at least `BOOK_MIN_GAMES` fit games, with each move seen
//! at least `BOOK_MIN_MOVE` times, bucketed by its share.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use chessbits_codec::move_model::{
    feature_name, Book, FeaturedMoves, MoveModel, RecentMoves, BOOK_BUCKETS, BOOK_PLIES, FEATURES,
    FEATURE_COUNT, SCORE_SCALE, SLOTS,
};
use chessbits_codec::range::TOTAL;
use chessbits_move::Move16;
use chessbits_pgn::{Replay, SliceReader};
use chessbits_state::Position;

use crate::project_root;
use chessbits_testkit::Rng;

/// The train files held out of the fit.
const HELD_OUT: [&str; 2] =
    ["lichess-export-jowen93-2016-2021.pgn", "lichess-arena-2025-03-28-daily-rapid.pgn"];

/// The other measured sets: (name, files under `../shared/corpus/`).
const MEASURED: [(&str, &[&str]); 4] = [
    ("lichess db", &["lichess-db-2021-10-first999.pgn", "lichess-db-2025-05-head1000k.pgn"]),
    ("lichess broadcast", &["lichess-broadcast-fide-womens-world-rapid-2024.pgn"]),
    ("masters (OTB)", &["pgnmentor-world-champions.pgn", "twic0920.pgn", "twic1599-head1000k.pgn"]),
    (
        "engines",
        &["fishtest-fastchess.pgn", "tcec-s24-dfrc2-final.pgn", "tcec-s24-frc6-league-d.pgn"],
    ),
];

const BOOK_MIN_GAMES: u32 = 30;
const BOOK_MIN_MOVE: u32 = 4;
const BOOK_MAX_MOVES: usize = 12;

/// A game: its start and mainline.
struct Game {
    start: Position,
    moves: Vec<Move16>,
}

fn load(path: &Path) -> Result<Vec<Game>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut reader = SliceReader::new(&bytes);
    let mut games = Vec::new();
    // `Replay` refuses games of other variants than standard chess and Chess960.
    let mut replay = Replay::default();
    while let Some(result) = reader.read_game(&mut replay) {
        if let Ok(replayed) = result {
            let moves = replayed.game.moves().to_vec();
            // A null move has no code: such an analysis game is no training data.
            if !moves.is_empty() && !moves.iter().any(|m| m.is_null()) {
                games.push(Game { start: *replayed.game.start(), moves });
            }
        }
    }
    Ok(games)
}

fn load_all(paths: &[PathBuf]) -> Result<Vec<Game>, String> {
    let mut games = Vec::new();
    for path in paths {
        games.extend(load(path)?);
    }
    Ok(games)
}

/// The book as owned arrays.
#[derive(Default)]
struct OwnedBook {
    keys: Vec<u64>,
    offsets: Vec<u32>,
    moves: Vec<u16>,
    buckets: Vec<u8>,
}

impl OwnedBook {
    fn book(&self) -> Book<'_> {
        Book::new(&self.keys, &self.offsets, &self.moves, &self.buckets).expect("a valid book")
    }
}

fn build_book(games: &[Game]) -> OwnedBook {
    let mut counts: HashMap<u64, HashMap<u16, u32>> = HashMap::new();
    for game in games {
        let mut pos = game.start;
        for (ply, &m) in game.moves.iter().enumerate() {
            if ply as u32 >= BOOK_PLIES {
                break;
            }
            *counts.entry(pos.key()).or_default().entry(m.bits()).or_default() += 1;
            pos.play_unchecked(m);
        }
    }
    let mut entries: Vec<(u64, Vec<(u16, u8)>)> = Vec::new();
    for (key, moves) in counts {
        let total: u32 = moves.values().sum();
        if total < BOOK_MIN_GAMES {
            continue;
        }
        let mut listed: Vec<(u16, u32)> =
            moves.into_iter().filter(|&(_, c)| c >= BOOK_MIN_MOVE).collect();
        listed.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        listed.truncate(BOOK_MAX_MOVES);
        let bucketed = listed
            .into_iter()
            .map(|(m, c)| {
                let share = f64::from(c) / f64::from(total);
                let bucket = (-2.0 * share.log2()).round().clamp(0.0, f64::from(BOOK_BUCKETS - 1));
                (m, bucket as u8)
            })
            .collect::<Vec<_>>();
        if !bucketed.is_empty() {
            entries.push((key, bucketed));
        }
    }
    entries.sort_by_key(|e| e.0);
    let mut book = OwnedBook { offsets: vec![0], ..OwnedBook::default() };
    for (key, moves) in entries {
        book.keys.push(key);
        for (m, b) in moves {
            book.moves.push(m);
            book.buckets.push(b);
        }
        book.offsets.push(book.moves.len() as u32);
    }
    book
}

/// Float weights of the fit.
struct Fit {
    w: Vec<f64>,
    m: Vec<f64>,
    v: Vec<f64>,
    g: Vec<f64>,
    t: i32,
}

impl Fit {
    fn new() -> Fit {
        Fit {
            w: vec![0.0; FEATURES],
            m: vec![0.0; FEATURES],
            v: vec![0.0; FEATURES],
            g: vec![0.0; FEATURES],
            t: 0,
        }
    }

    /// Adds the gradient of one position's loss; returns the loss in nats.
    fn accumulate(&mut self, c: &[[u16; SLOTS]], played: usize, probs: &mut Vec<f64>) -> f64 {
        self.probabilities(c, probs);
        let loss = -probs[played].max(1e-300).ln();
        for (i, features) in c.iter().enumerate() {
            let d = probs[i] - if i == played { 1.0 } else { 0.0 };
            for &f in features {
                self.g[f as usize] += d;
            }
        }
        loss
    }

    fn probabilities(&self, c: &[[u16; SLOTS]], probs: &mut Vec<f64>) {
        probs.clear();
        let mut best = f64::MIN;
        for features in c {
            let s: f64 = features.iter().map(|&f| self.w[f as usize]).sum();
            best = best.max(s);
            probs.push(s);
        }
        let mut sum = 0.0;
        for p in probs.iter_mut() {
            *p = (*p - best).exp();
            sum += *p;
        }
        for p in probs.iter_mut() {
            *p /= sum;
        }
    }

    fn step(&mut self, lr: f64, l2: f64, batch: f64) {
        self.t += 1;
        let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
        let c1 = 1.0 - b1.powi(self.t);
        let c2 = 1.0 - b2.powi(self.t);
        for i in 1..FEATURES {
            let g = self.g[i] / batch + l2 * self.w[i];
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * g;
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * g * g;
            self.w[i] -= lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + eps);
            self.g[i] = 0.0;
        }
        self.g[0] = 0.0;
    }

    fn quantized(&self) -> Vec<i16> {
        self.w
            .iter()
            .map(|&w| (w * f64::from(SCORE_SCALE)).round().clamp(-32000.0, 32000.0) as i16)
            .collect()
    }
}

/// The features of `c` with the slots in the bit mask `drop` set to 0.
fn masked(c: &FeaturedMoves, drop: u16, out: &mut Vec<[u16; SLOTS]>) {
    out.clear();
    for f in c.features() {
        let mut f = *f;
        for (slot, x) in f.iter_mut().enumerate() {
            if drop >> slot & 1 == 1 {
                *x = 0;
            }
        }
        out.push(f);
    }
}

/// The two choices of a ply: the pieces and the played piece's index, then that piece's
/// moves and the played move's index.
fn ply_lists(
    model: &MoveModel<'_>,
    pos: &Position,
    history: &RecentMoves,
    m: Move16,
    pieces: &mut FeaturedMoves,
    moves: &mut FeaturedMoves,
) -> (usize, usize) {
    let analysis = model.analyse(pos, history);
    let (piece, index) = analysis.locate(m).expect("a legal move");
    pieces.clear();
    analysis.pieces(pieces);
    moves.clear();
    analysis.moves(piece, moves);
    (piece, index)
}

/// Bits per move of the integer model over `games`: (plies, bits).
fn measure(model: &MoveModel<'_>, games: &[Game]) -> (u64, f64) {
    let (mut pieces, mut moves) = (FeaturedMoves::new(), FeaturedMoves::new());
    let mut freqs = [0u16; 256];
    let (mut plies, mut bits) = (0u64, 0f64);
    for game in games {
        let mut pos = game.start;
        let mut history = RecentMoves::new();
        for &m in &game.moves {
            let (piece, index) = ply_lists(model, &pos, &history, m, &mut pieces, &mut moves);
            for (list, i) in [(&pieces, piece), (&moves, index)] {
                if list.len() > 1 {
                    model.frequencies(list, &mut freqs);
                    bits += (f64::from(TOTAL) / f64::from(freqs[i])).log2();
                }
            }
            plies += 1;
            pos.play_unchecked(m);
            history.push(m);
        }
    }
    (plies, bits)
}

fn corpus() -> PathBuf {
    project_root().join("../shared/corpus")
}

struct Options {
    eval_only: bool,
    speed: bool,
    epochs: u32,
    lr: f64,
    l2: f64,
    batch: usize,
    out: Option<PathBuf>,
    /// Slots to leave out (a bit mask), for measuring what each is worth.
    drop: u16,
}

pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let Some(o) = options(args)? else { return Ok(ExitCode::SUCCESS) };
    let (fit_paths, held_paths) = split_paths()?;
    let started = Instant::now();
    let fit_games = load_all(&fit_paths)?;
    let held_games = load_all(&held_paths)?;
    let plies = |g: &[Game]| g.iter().map(|g| g.moves.len()).sum::<usize>();
    eprintln!(
        "fit: {} games, {} plies from {} files; held out: {} games, {} plies ({:.1} s)",
        fit_games.len(),
        plies(&fit_games),
        fit_paths.len(),
        held_games.len(),
        plies(&held_games),
        started.elapsed().as_secs_f64()
    );

    if o.speed {
        speed(&held_games)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut sets: Vec<(String, Vec<Game>)> = Vec::new();
    for (name, files) in MEASURED {
        let paths: Vec<PathBuf> = files.iter().map(|f| corpus().join(f)).collect();
        sets.push((name.to_owned(), load_all(&paths)?));
    }

    if o.eval_only {
        report(&MoveModel::FITTED, &fit_games, &held_games, &sets);
        return Ok(ExitCode::SUCCESS);
    }

    let book = build_book(&fit_games);
    eprintln!("book: {} positions, {} moves", book.keys.len(), book.moves.len());
    let zero = Box::new([0i16; FEATURES]);
    let extractor = MoveModel::new(&zero, book.book());
    let fit = train(&o, &fit_games, &extractor);
    if o.drop != 0 {
        held_out_without_dropped(&o, &held_games, &extractor, &fit);
        return Ok(ExitCode::SUCCESS);
    }
    let q = fit.quantized();
    let weights: Box<[i16; FEATURES]> =
        q.into_boxed_slice().try_into().map_err(|_| "weight count".to_owned())?;
    let model = MoveModel::new(&weights, book.book());
    report(&model, &fit_games, &held_games, &sets);
    print_top(&fit.w);

    // One newline at the end, as rustfmt leaves the file (`cargo fmt --check` runs in CI).
    let source = format!("{}\n", table_source(&weights, &book, &fit_games, &o).trim_end());
    let out = o.out.unwrap_or_else(|| project_root().join("crates/codec/src/move_model_table.rs"));
    std::fs::write(&out, source).map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!("wrote {} ({:.0} s in all)", out.display(), started.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}

/// The command line's options; `None` after printing the help.
fn options(args: &[String]) -> Result<Option<Options>, String> {
    let mut o = Options {
        eval_only: false,
        speed: false,
        epochs: 12,
        lr: 0.02,
        l2: 1e-6,
        batch: 256,
        out: None,
        drop: 0,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--eval" => o.eval_only = true,
            "--speed" => o.speed = true,
            "--epochs" => o.epochs = value()?.parse().map_err(|e| format!("--epochs: {e}"))?,
            "--lr" => o.lr = value()?.parse().map_err(|e| format!("--lr: {e}"))?,
            "--l2" => o.l2 = value()?.parse().map_err(|e| format!("--l2: {e}"))?,
            "--batch" => o.batch = value()?.parse().map_err(|e| format!("--batch: {e}"))?,
            "--out" => o.out = Some(PathBuf::from(value()?)),
            "--drop" => {
                for slot in value()?.split(',') {
                    let slot: u32 = slot.parse().map_err(|e| format!("--drop: {e}"))?;
                    o.drop |= 1 << slot;
                }
            }
            "-h" | "--help" => {
                println!(
                    "usage: cargo xtask fit-moves [--eval] [--epochs N] [--lr X] [--l2 X] [--batch N] [--out FILE]"
                );
                return Ok(None);
            }
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    Ok(Some(o))
}

/// The training files: the fitted ones, and the held-out ones the figures are reported on.
fn split_paths() -> Result<(Vec<PathBuf>, Vec<PathBuf>), String> {
    let train_dir = corpus().join("train");
    let mut fit_paths = Vec::new();
    let mut held_paths = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(&train_dir)
        .map_err(|e| format!("{}: {e}", train_dir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".pgn"))
        .collect();
    names.sort();
    for name in &names {
        if HELD_OUT.contains(&name.as_str()) {
            held_paths.push(train_dir.join(name));
        } else {
            fit_paths.push(train_dir.join(name));
        }
    }
    Ok((fit_paths, held_paths))
}

/// Fits the model's weights on `games` by stochastic gradient descent over `o.epochs`, the
/// games shuffled with a fixed seed each epoch.
fn train(o: &Options, fit_games: &[Game], extractor: &MoveModel<'_>) -> Fit {
    let mut fit = Fit::new();
    let mut order: Vec<usize> = (0..fit_games.len()).collect();
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let (mut pieces, mut moves) = (FeaturedMoves::new(), FeaturedMoves::new());
    let mut probs = Vec::new();
    let mut features = Vec::new();
    for epoch in 0..o.epochs {
        let t0 = Instant::now();
        for i in (1..order.len()).rev() {
            let j = (rng.next() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        // Cosine decay of the learning rate over the epochs.
        let lr = o.lr
            * 0.5
            * (1.0 + (std::f64::consts::PI * f64::from(epoch) / f64::from(o.epochs)).cos());
        let (mut loss, mut n, mut in_batch) = (0.0, 0u64, 0usize);
        for &g in &order {
            let game = &fit_games[g];
            let mut pos = game.start;
            let mut history = RecentMoves::new();
            for &m in &game.moves {
                let (piece, index) =
                    ply_lists(extractor, &pos, &history, m, &mut pieces, &mut moves);
                let mut coded = false;
                for (list, i) in [(&pieces, piece), (&moves, index)] {
                    if list.len() > 1 {
                        masked(list, o.drop, &mut features);
                        loss += fit.accumulate(&features, i, &mut probs);
                        coded = true;
                    }
                }
                if coded {
                    n += 1;
                    in_batch += 1;
                    if in_batch == o.batch {
                        fit.step(lr, o.l2, in_batch as f64);
                        in_batch = 0;
                    }
                }
                pos.play_unchecked(m);
                history.push(m);
            }
        }
        if in_batch > 0 {
            fit.step(lr, o.l2, in_batch as f64);
        }
        eprintln!(
            "epoch {epoch}: lr {lr:.4}, train loss {:.4} bits/move (positions with 2+ moves), {:.1} s",
            loss / n as f64 / std::f64::consts::LN_2,
            t0.elapsed().as_secs_f64()
        );
    }
    fit
}

/// The held-out games' bits per move with the float weights and `o.drop`'s slots dropped.
fn held_out_without_dropped(
    o: &Options,
    held_games: &[Game],
    extractor: &MoveModel<'_>,
    fit: &Fit,
) {
    let (mut pieces, mut moves) = (FeaturedMoves::new(), FeaturedMoves::new());
    let mut probs = Vec::new();
    let mut features = Vec::new();
    let mut bits = 0.0;
    let mut plies = 0u64;
    for game in held_games {
        let mut pos = game.start;
        let mut history = RecentMoves::new();
        for &m in &game.moves {
            let (piece, index) = ply_lists(extractor, &pos, &history, m, &mut pieces, &mut moves);
            for (list, i) in [(&pieces, piece), (&moves, index)] {
                masked(list, o.drop, &mut features);
                fit.probabilities(&features, &mut probs);
                bits -= probs[i].log2();
            }
            plies += 1;
            pos.play_unchecked(m);
            history.push(m);
        }
    }
    println!(
        "slots {:#x} dropped: held out {:.4} bits/move (float weights)",
        o.drop,
        bits / plies as f64
    );
}

/// Times both codecs over `games`: encode, then decode, plies per second on one thread.
fn speed(games: &[Game]) -> Result<(), String> {
    use chessbits_codec::move_codec::{self, MoveCodec};
    let plies: usize = games.iter().map(|g| g.moves.len()).sum();
    for codec in [MoveCodec::Model, MoveCodec::Index] {
        let mut coded: Vec<Vec<u8>> = Vec::with_capacity(games.len());
        let t0 = Instant::now();
        for game in games {
            let mut out = Vec::new();
            move_codec::encode(codec, &game.start, &game.moves, &mut out)
                .map_err(|e| e.to_string())?;
            coded.push(out);
        }
        let encode = t0.elapsed().as_secs_f64();
        let t0 = Instant::now();
        let mut moves = Vec::new();
        for (game, bytes) in games.iter().zip(&coded) {
            move_codec::decode(codec, &game.start, game.moves.len(), bytes, &mut moves)
                .map_err(|e| e.to_string())?;
            if moves != game.moves {
                return Err(format!("{codec}: a game decodes to other moves"));
            }
        }
        let decode = t0.elapsed().as_secs_f64();
        let bytes: usize = coded.iter().map(Vec::len).sum();
        println!(
            "{codec}: {plies} plies, {:.3} bits/move (whole bytes per game), encode {:.2} M plies/s, decode {:.2} M plies/s",
            bytes as f64 * 8.0 / plies as f64,
            plies as f64 / encode / 1e6,
            plies as f64 / decode / 1e6
        );
    }
    Ok(())
}

fn report(model: &MoveModel<'_>, fit: &[Game], held: &[Game], sets: &[(String, Vec<Game>)]) {
    println!("| set | games | plies | bits/move |");
    println!("|---|---:|---:|---:|");
    let row = |name: &str, games: &[Game]| {
        let (plies, bits) = measure(model, games);
        println!("| {name} | {} | {plies} | {:.3} |", games.len(), bits / plies.max(1) as f64);
    };
    row("lichess train (fit)", fit);
    row("lichess train (held out)", held);
    for (name, games) in sets {
        row(name, games);
    }
}

fn print_top(w: &[f64]) {
    let mut by_slot: HashMap<&str, (f64, usize)> = HashMap::new();
    for (i, &x) in w.iter().enumerate() {
        let e = by_slot.entry(feature_name(i)).or_default();
        e.0 += x.abs();
        e.1 += 1;
    }
    let mut v: Vec<_> = by_slot.into_iter().collect();
    v.sort_by(|a, b| a.0.cmp(b.0));
    for (name, (sum, n)) in v {
        eprintln!("  {name}: {n} weights, mean |w| {:.3}", sum / n as f64);
    }
}

fn table_source(weights: &[i16; FEATURES], book: &OwnedBook, fit: &[Game], o: &Options) -> String {
    let mut s = String::new();
    let plies: usize = fit.iter().map(|g| g.moves.len()).sum();
    let mut args = format!("--epochs {} --lr {} --l2 {} --batch {}", o.epochs, o.lr, o.l2, o.batch);
    if o.drop != 0 {
        args.push_str(" --drop ...");
    }
    let _ = writeln!(
        s,
        "//! The move model's fitted weights and opening book, generated by
//! `cargo xtask fit-moves {args}`
//! (xtask/src/fit_moves.rs). Do not edit by hand: changing this file changes the bytes of
//! every coded game.
//!
//! Fitted on the lichess games of `../shared/corpus/train/` but the two files held out for
//! measuring ({}): {} games, {plies} plies. Adam on mini-batches with a fixed seed, then the
//! weights rounded to 1/32 nat. The book: {} positions and {} moves (the positions of the
//! first {BOOK_PLIES} plies seen in {BOOK_MIN_GAMES}+ fit games, their moves seen
//! {BOOK_MIN_MOVE}+ times, at most {BOOK_MAX_MOVES} a position).",
        HELD_OUT.map(|f| format!("`{f}`")).join(" and "),
        fit.len(),
        book.keys.len(),
        book.moves.len()
    );
    let _ = writeln!(s, "\nuse super::move_model::FEATURE_COUNT;\n");
    let _ = writeln!(s, "/// The weight of each feature, in `SCORE_SCALE` units.");
    write_array(&mut s, "WEIGHTS", "i16", "FEATURE_COUNT", weights.iter().take(FEATURE_COUNT));
    let _ = writeln!(s, "/// `EXP[d] = round(2^24 × e^(−d / 32))`.");
    let exp: Vec<u32> =
        (0..576).map(|d| (16_777_216.0 * (-(d as f64) / 32.0).exp()).round() as u32).collect();
    write_array(&mut s, "EXP", "u32", "576", exp.iter());
    let _ = writeln!(s, "/// Book positions by Zobrist key, sorted.");
    write_array(
        &mut s,
        "BOOK_KEYS",
        "u64",
        &book.keys.len().to_string(),
        book.keys.iter().map(|k| format!("{k:#018x}")),
    );
    let _ = writeln!(s, "/// Where each position's moves start in `BOOK_MOVES`, and the end.");
    write_array(
        &mut s,
        "BOOK_OFFSETS",
        "u32",
        &book.offsets.len().to_string(),
        book.offsets.iter(),
    );
    let _ = writeln!(s, "/// Book moves (`Move16` bits).");
    write_array(
        &mut s,
        "BOOK_MOVES",
        "u16",
        &book.moves.len().to_string(),
        book.moves.iter().map(|m| format!("{m:#06x}")),
    );
    let _ = writeln!(s, "/// Each book move's share bucket.");
    write_array(&mut s, "BOOK_BUCKETS", "u8", &book.buckets.len().to_string(), book.buckets.iter());
    s
}

fn write_array<T: std::fmt::Display>(
    s: &mut String,
    name: &str,
    ty: &str,
    len: &str,
    items: impl Iterator<Item = T>,
) {
    let _ = writeln!(s, "#[rustfmt::skip]\npub(super) static {name}: [{ty}; {len}] = [");
    let mut line = String::from("   ");
    for item in items {
        let text = format!(" {item},");
        if line.len() + text.len() > 99 {
            let _ = writeln!(s, "{line}");
            line = String::from("   ");
        }
        line.push_str(&text);
    }
    if !line.trim().is_empty() {
        let _ = writeln!(s, "{line}");
    }
    let _ = writeln!(s, "];\n");
}
