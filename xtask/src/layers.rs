//! `cargo xtask layers`: checks that each library crate depends only on the layers below it and
//! on what its concern needs, with `cargo tree` (normal dependencies, every feature): a program
//! that reads FEN compiles no PGN reader, one that reads PGN compiles no binary codec and none
//! of its fitted model tables, one that codes positions or moves compiles no PGN reader and no
//! compression library, and no crate names one above it.
//!
//! Prints one line per crate (`ok` or what it must not depend on) and fails if any breaks the
//! rule. It compiles nothing, so CI runs it in seconds.

use std::collections::BTreeSet;
use std::process::{Command, ExitCode};

/// What reading compressed game files takes (`chessbits-pgn`'s default feature `compression`:
/// zstd, gzip and bzip2), allowed from the PGN layer up.
const COMPRESSION: &[&str] =
    &["bzip2", "flate2", "libbz2-rs-sys", "zlib-rs", "zstd", "zstd-safe", "zstd-sys"];

/// Each library crate, lowest first, with the workspace crates and the outside crates it may
/// depend on (directly or not; serde only behind the `serde` feature).
pub const LAYERS: &[(&str, &[&str], &[&str])] = &[
    ("chessbits-bitboard", &[], &["serde", "serde_core"]),
    ("chessbits-move", &["chessbits-bitboard"], &["arrayvec", "bitflags", "serde", "serde_core"]),
    (
        "chessbits-state",
        &["chessbits-bitboard", "chessbits-move"],
        &["arrayvec", "bitflags", "serde", "serde_core"],
    ),
    (
        "chessbits-movegen",
        &["chessbits-bitboard", "chessbits-move", "chessbits-state"],
        &["arrayvec", "bitflags", "once_cell", "serde", "serde_core"],
    ),
    (
        "chessbits-notation",
        &["chessbits-bitboard", "chessbits-move", "chessbits-state", "chessbits-movegen"],
        &["arrayvec", "bitflags", "once_cell", "serde", "serde_core"],
    ),
    (
        "chessbits-pgn",
        &[
            "chessbits-bitboard",
            "chessbits-move",
            "chessbits-state",
            "chessbits-movegen",
            "chessbits-notation",
        ],
        &["arrayvec", "bitflags", "once_cell", "serde", "serde_core", "memchr"],
    ),
    // No PGN reader and no compression library: a program that codes positions or moves
    // takes codec alone.
    (
        "chessbits-codec",
        &[
            "chessbits-bitboard",
            "chessbits-move",
            "chessbits-state",
            "chessbits-movegen",
            "chessbits-notation",
        ],
        &["arrayvec", "bitflags", "once_cell", "serde", "serde_core"],
    ),
    (
        "chessbits-cbg",
        &[
            "chessbits-bitboard",
            "chessbits-move",
            "chessbits-state",
            "chessbits-movegen",
            "chessbits-notation",
            "chessbits-pgn",
            "chessbits-codec",
        ],
        &["arrayvec", "bitflags", "once_cell", "serde", "serde_core", "memchr"],
    ),
    // The position index: on the game file's records (its input) and the move codec (its
    // stored moves); no Arrow, no SQL, no compression library of its own; the memory map
    // (memmap2, on libc) and the region checksums (crc32fast, with cfg-if).
    (
        "chessbits-index",
        &[
            "chessbits-bitboard",
            "chessbits-move",
            "chessbits-state",
            "chessbits-movegen",
            "chessbits-notation",
            "chessbits-pgn",
            "chessbits-codec",
            "chessbits-cbg",
        ],
        &[
            "arrayvec",
            "bitflags",
            "once_cell",
            "serde",
            "serde_core",
            "memchr",
            "memmap2",
            "libc",
            "crc32fast",
            "cfg-if",
        ],
    ),
];

/// Runs the check.
pub fn run(args: &[String]) -> Result<ExitCode, String> {
    if let Some(arg) = args.first() {
        return Err(format!("layers takes no arguments, got {arg:?}"));
    }
    let mut failed = false;
    for &(krate, below, outside) in LAYERS {
        let deps = dependencies(krate)?;
        let mut allowed: BTreeSet<&str> = below.iter().chain(outside).copied().collect();
        if krate == "chessbits-pgn" || below.contains(&"chessbits-pgn") {
            allowed.extend(COMPRESSION);
        }
        let wrong: Vec<&String> = deps.iter().filter(|d| !allowed.contains(d.as_str())).collect();
        if wrong.is_empty() {
            println!("ok {krate} ({} dependencies)", deps.len());
        } else {
            failed = true;
            let names: Vec<&str> = wrong.iter().map(|s| s.as_str()).collect();
            println!("FAIL {krate} must not depend on {}", names.join(", "));
        }
    }
    Ok(if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

/// The names of every crate `krate` depends on (normal dependencies, all features), itself
/// and proc macros' build-only trees aside.
fn dependencies(krate: &str) -> Result<BTreeSet<String>, String> {
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(crate::project_root())
        .args(["tree", "-p", krate, "-e", "normal", "--all-features", "--prefix", "none"])
        .args(["--format", "{p}", "--offline"])
        .output()
        .map_err(|e| format!("cannot run cargo tree: {e}"))?;
    if !out.status.success() {
        return Err(format!("cargo tree -p {krate}: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(text
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != krate)
        .map(str::to_owned)
        .collect())
}
