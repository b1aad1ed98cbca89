//! `cargo xtask snapshots`: run the snapshot tests and review pending insta snapshots, without
//! installing cargo-insta.
//!
//! With no option it does what `cargo insta test` does: it deletes stale pending snapshots, then
//! runs every test target that uses insta (found by scanning `crates/` for `insta::`) through
//! `cargo test --workspace --all-features` (the profile and features of the README's test
//! command, so after that command nothing is rebuilt) with `INSTA_UPDATE=new` and
//! `INSTA_FORCE_PASS=1`: a snapshot that changed does not fail its test but is written beside
//! the old one, as `NAME.snap.new` for file snapshots and as a line of `.FILE.rs.pending-snap`
//! for inline ones. It then lists every pending snapshot next to the one it would replace, and
//! exits non-zero if any is pending (or a test failed for another reason).
//!
//! `--accept` moves each `.snap.new` into place (without the `assertion_line` header line, which
//! only records where the assertion stood); inline snapshots are accepted by editing the literal
//! in the source, at the line the listing names. `--reject` deletes every pending file. Neither
//! runs the tests.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use crate::project_root;

const USAGE: &str = "usage: cargo xtask snapshots [--accept | --reject]";

pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let crates = project_root().join("crates");
    let action = match args {
        [] => None,
        [a] if a == "--accept" || a == "--reject" => Some(a.as_str()),
        _ => return Err(USAGE.into()),
    };
    let Some(action) = action else {
        for path in pending(&crates)? {
            fs::remove_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        let tests_passed = run_snapshot_tests(&crates)?;
        let listed = list(&pending(&crates)?)?;
        return Ok(if tests_passed && listed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE });
    };
    for path in pending(&crates)? {
        let accept = action == "--accept";
        if accept && is_file_snapshot(&path) {
            let new = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let target = path.with_extension("");
            let kept: Vec<&str> =
                new.lines().filter(|l| !l.starts_with("assertion_line:")).collect();
            fs::write(&target, kept.join("\n") + "\n")
                .and_then(|()| fs::remove_file(&path))
                .map_err(|e| format!("{}: {e}", target.display()))?;
            println!("accepted {}", target.display());
        } else if accept {
            println!("inline: edit the literal by hand, then reject: {}", path.display());
        } else {
            fs::remove_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            println!("rejected {}", path.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs the test targets that use insta with new snapshots written beside the old ones;
/// returns whether cargo test passed.
fn run_snapshot_tests(crates: &Path) -> Result<bool, String> {
    let targets = insta_targets(crates)?;
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(project_root())
        .args(["test", "--workspace", "--all-features"])
        .args(&targets)
        .env("INSTA_UPDATE", "new")
        .env("INSTA_FORCE_PASS", "1");
    eprintln!("cargo xtask snapshots: INSTA_UPDATE=new INSTA_FORCE_PASS=1 cargo test --workspace --all-features {}", targets.join(" "));
    let status = cmd.status().map_err(|e| format!("cannot run cargo: {e}"))?;
    Ok(status.success())
}

/// The `cargo test` target options naming every test target that uses insta: `--lib` and
/// `--bins` if some crate's `src/` does, and `--test NAME` for each such file of a `tests/`
/// folder.
fn insta_targets(crates: &Path) -> Result<Vec<String>, String> {
    let mut files = Vec::new();
    walk(crates, &mut |path| {
        if path.extension().is_some_and(|e| e == "rs") {
            files.push(path.to_path_buf());
        }
    })?;
    let mut targets = Vec::new();
    for path in files {
        let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        if !text.contains("insta::") {
            continue;
        }
        let rel = path.strip_prefix(crates).unwrap_or(&path);
        let parts: Vec<_> = rel.iter().filter_map(|p| p.to_str()).collect();
        let target = match parts.as_slice() {
            [_, "tests", file] => file.strip_suffix(".rs").map(|name| format!("--test={name}")),
            [_, "src", ..] => Some("--lib".to_owned()),
            _ => None,
        };
        targets.extend(target);
    }
    if targets.iter().any(|t| t == "--lib") {
        targets.push("--bins".to_owned());
    }
    targets.sort();
    targets.dedup();
    Ok(targets)
}

/// Prints each pending snapshot next to the one it would replace; returns how many there are.
fn list(pending: &[PathBuf]) -> Result<usize, String> {
    let mut count = 0;
    for path in pending {
        let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        if is_file_snapshot(path) {
            count += 1;
            println!("== {}", path.display());
            match fs::read_to_string(path.with_extension("")) {
                Ok(old) => println!("-- was:\n{old}\n-- now:\n{text}"),
                Err(_) => println!("-- new snapshot:\n{text}"),
            }
            continue;
        }
        // One JSON object per line: {"line": N, "new": {"snapshot": ...}, "old": {...}}. insta
        // also records the inline assertions that passed (`"new": null`): those are not pending.
        let source = inline_source(path);
        let mut changed = 0;
        for entry in text.lines().filter(|l| !l.trim().is_empty()) {
            let value: serde_json::Value =
                serde_json::from_str(entry).map_err(|e| format!("{}: {e}", path.display()))?;
            let snapshot = |which: &str| value[which]["snapshot"].as_str().map(str::to_owned);
            let Some(new) = snapshot("new") else { continue };
            changed += 1;
            println!("== {}:{} (inline)", source.display(), value["line"]);
            match snapshot("old") {
                Some(old) => println!("-- was:\n{old}\n-- now:\n{new}"),
                None => println!("-- new snapshot:\n{new}"),
            }
        }
        if changed == 0 {
            // Only passing assertions: nothing to review.
            fs::remove_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        count += changed;
    }
    if count == 0 {
        println!("no pending snapshots");
    } else {
        println!(
            "{count} pending snapshots: review, then cargo xtask snapshots --accept or --reject"
        );
    }
    Ok(count)
}

/// `true` for `NAME.snap.new`, `false` for an inline snapshot's `.FILE.rs.pending-snap`.
fn is_file_snapshot(path: &Path) -> bool {
    path.to_string_lossy().ends_with(".snap.new")
}

/// The source file of `.FILE.rs.pending-snap`: `FILE.rs` in the same folder.
fn inline_source(pending: &Path) -> PathBuf {
    let name = pending.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let source = name.strip_prefix('.').unwrap_or(name).trim_end_matches(".pending-snap");
    pending.with_file_name(source)
}

/// Every pending snapshot file under `crates`, sorted.
fn pending(crates: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    walk(crates, &mut |path| {
        let name = path.to_string_lossy();
        if name.ends_with(".snap.new") || name.ends_with(".pending-snap") {
            out.push(path.to_path_buf());
        }
    })?;
    out.sort();
    Ok(out)
}

/// Calls `visit` with every file below `dir`, skipping `target` folders.
fn walk(dir: &Path, visit: &mut dyn FnMut(&Path)) -> Result<(), String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "target") {
                walk(&path, visit)?;
            }
        } else {
            visit(&path);
        }
    }
    Ok(())
}
