//! `cargo xtask compare`: builds and runs the peer comparison in `benches/compare` (its own
//! workspace, so the main build never compiles the peers) in release, passing the arguments on.

use std::process::{Command, ExitCode};

use crate::project_root;

pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let manifest = project_root().join("benches/compare/Cargo.toml");
    eprintln!("cargo xtask compare: cargo run --release --manifest-path {}", manifest.display());
    let status = Command::new(cargo)
        .args(["run", "--release", "--manifest-path"])
        .arg(&manifest)
        .arg("--")
        .args(args)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    Ok(match status.code() {
        Some(0) => ExitCode::SUCCESS,
        Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        None => ExitCode::FAILURE,
    })
}
