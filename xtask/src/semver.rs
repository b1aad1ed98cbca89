//! `cargo xtask semver [REV]`: checks the publishable crates' public APIs against a git
//! revision (the last release's tag; `HEAD` by default) with `cargo semver-checks`, which must
//! be installed (`cargo install --locked cargo-semver-checks`).
//!
//! It reports every change that needs a new major version (0.x: a new minor) given the
//! versions in the manifests: a removed or renamed item, a changed signature, a field made
//! private, a new variant of an exhaustive enum. CONTRIBUTING.md gives the release steps it
//! belongs to.

use std::process::{Command, ExitCode};

/// The crates whose API is checked besides the layered ones of `cargo xtask layers`: those
/// above them (the tool, `chessbits-cli`, has no library API).
const ABOVE_THE_LAYERS: &[&str] = &["chessbits-arrow", "chessbits-sql", "chessbits"];

pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let mut baseline = "HEAD".to_string();
    let mut packages: Vec<String> = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "-p" | "--package" => {
                packages.push(rest.next().ok_or("-p needs a crate name")?.clone());
            }
            "-h" | "--help" => {
                println!(
                    "usage: cargo xtask semver [REV] [-p CRATE]...\n\nchecks the public API \
                     of each library crate (or of each -p CRATE) against git revision REV \
                     (default HEAD) with cargo semver-checks"
                );
                return Ok(ExitCode::SUCCESS);
            }
            other if other.starts_with('-') => return Err(format!("unknown option {other:?}")),
            other => baseline = other.to_string(),
        }
    }
    if packages.is_empty() {
        let layered = crate::layers::LAYERS.iter().map(|(name, _, _)| *name);
        packages = layered.chain(ABOVE_THE_LAYERS.iter().copied()).map(String::from).collect();
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let installed = Command::new(&cargo)
        .args(["semver-checks", "--version"])
        .output()
        .is_ok_and(|out| out.status.success());
    if !installed {
        return Err("cargo semver-checks is not installed: cargo install --locked \
                    cargo-semver-checks"
            .into());
    }
    let mut command = Command::new(&cargo);
    command.current_dir(crate::project_root()).args([
        "semver-checks",
        "check-release",
        "--baseline-rev",
        &baseline,
    ]);
    for package in &packages {
        command.args(["--package", package]);
    }
    println!("cargo semver-checks against {baseline}: {}", packages.join(", "));
    let status = command.status().map_err(|e| format!("cargo semver-checks: {e}"))?;
    Ok(if status.success() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
