//! `cargo xtask snapshots`: review pending insta snapshots without installing cargo-insta.
//!
//! With no option it lists every pending `*.snap.new` (and `*.pending-snap`) file under `crates/`
//! and prints each one next to the snapshot it would replace, then exits non-zero if any is
//! pending. `--accept` moves each reviewed `.snap.new` into place (without the `assertion_line`
//! header line, which only records where the assertion stood); `--reject` deletes them.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::project_root;

pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let action = match args {
        [] => None,
        [a] if a == "--accept" || a == "--reject" => Some(a.as_str()),
        _ => return Err("usage: cargo xtask snapshots [--accept | --reject]".into()),
    };
    let mut pending = Vec::new();
    collect(&project_root().join("crates"), &mut pending)?;
    pending.sort();
    if pending.is_empty() {
        println!("no pending snapshots");
        return Ok(ExitCode::SUCCESS);
    }
    for path in &pending {
        let new = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let target = path.with_extension("");
        match action {
            None => {
                println!("== {}", path.display());
                match fs::read_to_string(&target) {
                    Ok(old) => println!("-- was:\n{old}\n-- now:\n{new}"),
                    Err(_) => println!("-- new snapshot:\n{new}"),
                }
            }
            Some("--accept") => {
                let kept: Vec<&str> =
                    new.lines().filter(|l| !l.starts_with("assertion_line:")).collect();
                fs::write(&target, kept.join("\n") + "\n")
                    .and_then(|()| fs::remove_file(path))
                    .map_err(|e| format!("{}: {e}", target.display()))?;
                println!("accepted {}", target.display());
            }
            Some(_) => {
                fs::remove_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
                println!("rejected {}", path.display());
            }
        }
    }
    Ok(if action.is_some() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "target") {
                collect(&path, out)?;
            }
        } else if path.to_string_lossy().ends_with(".snap.new") {
            out.push(path);
        }
    }
    Ok(())
}
