//! `cargo xtask scale --adversarial`: `chessbits pgn --to uci` over pathological inputs of 1, 4
//! and 16 MiB, at 1 and 2 threads, with wall time and peak resident memory. Every input must
//! be read in time (and memory) that grows linearly with its size: the table's seconds per MiB
//! should stay flat from 1 to 16 MiB. The inputs are made here, in `target/scale/adversarial/`:
//!
//! - `comments`: games whose comments run over many lines holding blank lines and tag-like
//!   lines (`[Event "..."]`), which a cutter may take for game starts;
//! - `long-tags`: games with a 60 KB tag value (under the 64 KiB limit);
//! - `over-limit-tags`: games with a 140 KB tag value holding `]` (over the limit: refused);
//! - `long-lines`: games of thousands of moves on one line;
//! - `no-blank-lines`: games with no blank line between them, glued as `cat` leaves them;
//! - `long-comments`: games whose one comment (864 KB, under the 1 MiB limit) is full of
//!   blank lines and lines that start with `[` but are no tags, read in chunks of 64 KiB (the hidden `--chunk-size`): each
//!   game spans about 14 chunks, every guess inside it is wrong, and the pieces it spans
//!   must be joined in linear time.

use std::fs;
use std::path::{Path, PathBuf};

use crate::scale::{run_timed, Timed};

/// The sizes of each input, in MiB.
const SIZES: [u64; 3] = [1, 4, 16];

/// One game of each kind.
fn game(kind: &str, n: usize) -> String {
    match kind {
        "comments" => {
            let line = format!("\n\n[Event \"fake {n}\"]\n[Site \"inside a comment\"]\n");
            format!("[Event \"c{n}\"]\n\n1. e4 {{ {} }} e5 2. Nf3 *\n\n", line.repeat(400))
        }
        "long-tags" => {
            format!("[Event \"t{n}\"]\n[Site \"{}\"]\n\n1. d4 d5 *\n\n", "a".repeat(60_000))
        }
        "over-limit-tags" => {
            format!("[Event \"o{n}\"]\n[Site \"{}\"]\n\n1. c4 *\n\n", "a]b".repeat(46_000))
        }
        "long-lines" => {
            // Knights out and back: legal forever, until the move limit refuses the game.
            let moves: String = (0..2_500)
                .map(|i| format!("{}. Nf3 Nf6 {}. Ng1 Ng8 ", 2 * i + 1, 2 * i + 2))
                .collect();
            format!("[Event \"l{n}\"]\n\n{moves}*\n\n")
        }
        "long-comments" => {
            // `\n\n[` is where the guessing cutter looks for games; these lines are no tags,
            // so the scanner reads on in the comment.
            let fake = "\n\n[not a tag, inside a comment]\n".repeat(27_000);
            format!("[Event \"m{n}\"]\n\n1. e4 {{{fake}}} e5 *\n\n")
        }
        _ => format!("[Event \"g{n}\"]\n[Site \"s\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0"),
    }
}

/// The kinds, in the table's order.
const KINDS: [&str; 6] =
    ["comments", "long-tags", "over-limit-tags", "long-lines", "no-blank-lines", "long-comments"];

/// Writes `kind` at `mib` MiB (the whole games that fit) and returns its path.
fn input(dir: &Path, kind: &str, mib: u64) -> Result<PathBuf, String> {
    let path = dir.join(format!("{kind}-{mib}.pgn"));
    let target = (mib << 20) as usize;
    let mut text = String::with_capacity(target + (1 << 20));
    let mut n = 0;
    while text.len() < target {
        text += &game(kind, n);
        n += 1;
    }
    fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// Runs the table.
pub fn run(bin: &Path, dir: &Path) -> Result<(), String> {
    let dir = dir.join("adversarial");
    fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    println!("| input | MiB | 1 thread s | s/MiB | peak MB | 2 threads s | s/MiB | peak MB |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for kind in KINDS {
        for mib in SIZES {
            let path = input(&dir, kind, mib)?;
            let mut cells = Vec::new();
            for threads in ["1", "2"] {
                let args: Vec<String> = [
                    "pgn",
                    &path.display().to_string(),
                    "--to",
                    "uci",
                    "--quiet",
                    "--threads",
                    threads,
                ]
                .iter()
                .map(|s| s.to_string())
                .chain(["-o".to_string(), dir.join("out.tsv").display().to_string()])
                .chain(
                    (kind == "long-comments")
                        .then(|| ["--chunk-size".to_string(), "65536".to_string()])
                        .into_iter()
                        .flatten(),
                )
                .collect();
                let t: Timed = run_timed(bin, &args, None)?;
                if !matches!(t.code, Some(0 | 1)) {
                    return Err(format!("{kind} {mib} MiB, {threads} threads: exit {:?}", t.code));
                }
                cells.push(format!(
                    "{:.3} | {:.4} | {:.0}",
                    t.seconds,
                    t.seconds / mib as f64,
                    t.peak as f64 / 1e6
                ));
            }
            println!("| {kind} | {mib} | {} | {} |", cells[0], cells[1]);
            let _ = fs::remove_file(&path);
        }
    }
    Ok(())
}
