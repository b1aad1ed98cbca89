//! `cargo xtask package`: packs every publishable crate with `cargo package` and builds each
//! from its package alone, as crates.io would receive it.
//!
//! The publishable crates are those whose manifest does not say `publish = false` (testkit,
//! xtask, the benches and the Python extension do). `cargo package --workspace` packs them in
//! dependency order against a local registry of the packs before them, then builds each one
//! from its unpacked `.crate`: a file the build needs but the package leaves out, a path
//! outside the crate, or a dependency without a version fails here, not on publish day.
//!
//! `chessbits-sql` is packed but not built (`--no-verify`): building it from its package
//! compiles DataFusion again in the package's own debug profile, many minutes on two cores for
//! nothing the workspace build has not checked. `chessbits-cli` names it (its optional `query`
//! feature), and a pack can only name packs made in the same run, so the tool is packed with
//! it, unbuilt, too. `--all` builds both.

use std::process::{Command, ExitCode};

/// The crates packed but not built from their package unless `--all` is given: DataFusion's
/// tree dwarfs the rest of the workspace's, and the tool names the SQL crate.
const PACK_ONLY: &[&str] = &["chessbits-sql", "chessbits-cli"];

/// The workspace's crates whose manifest says `publish = false`.
const UNPUBLISHED: &[&str] =
    &["chessbits-testkit", "xtask", "chessbits-benches", "chessbits-python"];

pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let mut all = false;
    for arg in args {
        match arg.as_str() {
            "--all" => all = true,
            "-h" | "--help" => {
                println!(
                    "usage: cargo xtask package [--all]\n\npacks every publishable crate and \
                     builds each from its package alone; --all builds {} too",
                    PACK_ONLY.join(", ")
                );
                return Ok(ExitCode::SUCCESS);
            }
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let root = crate::project_root();
    let mut excluded: Vec<&str> = UNPUBLISHED.to_vec();
    if !all {
        excluded.extend_from_slice(PACK_ONLY);
    }
    // Packed and built, lowest layer first.
    let mut command = Command::new(&cargo);
    command.current_dir(&root).args(["package", "--workspace", "--allow-dirty", "--quiet"]);
    for krate in &excluded {
        command.args(["--exclude", krate]);
    }
    println!("cargo package --workspace (each built from its package) but {}", excluded.join(", "));
    let status = command.status().map_err(|e| format!("cargo package: {e}"))?;
    if !status.success() {
        return Ok(ExitCode::FAILURE);
    }
    if !all {
        // Packed, with the packs of the crates below them, but not built.
        let mut command = Command::new(&cargo);
        command.current_dir(&root).args([
            "package",
            "--workspace",
            "--allow-dirty",
            "--quiet",
            "--no-verify",
        ]);
        for krate in UNPUBLISHED {
            command.args(["--exclude", krate]);
        }
        println!("cargo package --no-verify (packed, not built): {}", PACK_ONLY.join(", "));
        let status = command.status().map_err(|e| format!("cargo package: {e}"))?;
        if !status.success() {
            return Ok(ExitCode::FAILURE);
        }
    }
    println!("ok: every publishable crate packs, and builds from its package");
    Ok(ExitCode::SUCCESS)
}
