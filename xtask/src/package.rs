//! `cargo xtask package`: packs every publishable crate with `cargo package` and builds each
//! from its package alone, as crates.io would receive it.
//!
//! The publishable crates are those whose manifest does not say `publish = false` (xtask, the
//! benches and the Python extension do). `chessbits-testkit`, the tests' data and helpers, is
//! published so that the others' tests can name it from their packages. `cargo package --workspace` packs them in
//! dependency order against a local registry of the packs before them, then builds each one
//! from its unpacked `.crate`: a file the build needs but the package leaves out, a path
//! outside the crate, or a dependency without a version fails here, not on publish day.
//!
//! `chessbits-sql` is packed but not built (`--no-verify`): building it from its package
//! compiles DataFusion again in the package's own debug profile, many minutes on two cores for
//! nothing the workspace build has not checked. `chessbits-cli` names it (its optional `query`
//! feature), and a pack can only name packs made in the same run, so the tool is packed with
//! it, unbuilt, too. `--all` builds both.
//!
//! `--tests` then runs each built crate's tests from its package alone, as a distribution's
//! packager or crater would: every `.crate` is unpacked outside the workspace, its chessbits
//! dependencies patched to the other unpacked packs, and `cargo test` run in it. A test that
//! reads a file its package leaves out fails here. Tests of the workspace as a whole (the fuzz
//! corpus replay) are left out of their package by its manifest's `exclude`; those that read
//! the shared corpus beside the repository skip, as they do wherever it is absent.

use std::path::PathBuf;
use std::process::{Command, ExitCode};

/// The crates packed but not built from their package unless `--all` is given: DataFusion's
/// tree dwarfs the rest of the workspace's, and the tool names the SQL crate.
const PACK_ONLY: &[&str] = &["chessbits-sql", "chessbits-cli"];

/// The workspace's crates whose manifest says `publish = false`.
const UNPUBLISHED: &[&str] = &["xtask", "chessbits-benches", "chessbits-python"];

pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let mut all = false;
    let mut tests = false;
    for arg in args {
        match arg.as_str() {
            "--all" => all = true,
            "--tests" => tests = true,
            "-h" | "--help" => {
                println!(
                    "usage: cargo xtask package [--all] [--tests]\n\npacks every publishable \
                     crate and builds each from its package alone; --all builds {} too; \
                     --tests runs each built crate's tests from its package",
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
    forget_unpacked_packs()?;
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
    if tests {
        let skipped: &[&str] = if all { &[] } else { PACK_ONLY };
        return test_packages(&cargo, &root, skipped);
    }
    Ok(ExitCode::SUCCESS)
}

/// Unpacks every `.crate` of `target/package` outside the workspace and runs the tests of each
/// (but `skipped`) there, with the chessbits dependencies patched to the unpacked packs.
fn test_packages(
    cargo: &str,
    root: &std::path::Path,
    skipped: &[&str],
) -> Result<ExitCode, String> {
    let packs = root.join("target/package");
    let unpacked = std::env::temp_dir().join("chessbits-package-tests");
    let _ = std::fs::remove_dir_all(&unpacked);
    std::fs::create_dir_all(&unpacked).map_err(|e| format!("{}: {e}", unpacked.display()))?;
    let mut crates = Vec::new();
    for entry in std::fs::read_dir(&packs).map_err(|e| format!("{}: {e}", packs.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        let Some(file) = path.file_name().and_then(|f| f.to_str()) else { continue };
        let Some(stem) = file.strip_suffix(".crate") else { continue };
        // `name-0.1.0`: the name is all before the last `-`.
        let Some((name, _)) = stem.rsplit_once('-') else { continue };
        let status = Command::new("tar")
            // `-m`: the files get the time of unpacking, not the pack's fixed one, so that a
            // second run rebuilds what changed in the shared target directory.
            .args(["-xmzf"])
            .arg(&path)
            .arg("-C")
            .arg(&unpacked)
            .status()
            .map_err(|e| format!("tar: {e}"))?;
        if !status.success() {
            return Err(format!("tar could not unpack {}", path.display()));
        }
        crates.push((name.to_string(), unpacked.join(stem)));
    }
    crates.sort();
    let patches: Vec<String> = crates
        .iter()
        .map(|(name, dir)| format!("patch.crates-io.{name}.path={:?}", dir.display().to_string()))
        .collect();
    // One target directory for every pack's tests, so the dependencies build once.
    let target = root.join("target/package-tests");
    let mut failed = Vec::new();
    for (name, dir) in &crates {
        if skipped.contains(&name.as_str()) {
            continue;
        }
        println!("cargo test, from the package of {name}");
        let mut command = Command::new(cargo);
        command.current_dir(dir).args(["test", "--offline", "--quiet", "--all-features"]);
        command.arg("--target-dir").arg(&target);
        for patch in &patches {
            command.args(["--config", patch]);
        }
        // The workspace's test profile, which a package leaves behind: the chessbits crates
        // optimised (the index's tests took seven minutes unoptimised), no debug information.
        command.args(["--config", "profile.test.debug=false"]);
        for (other, _) in &crates {
            command.args(["--config", &format!("profile.test.package.{other}.opt-level=2")]);
        }
        let status = command.status().map_err(|e| format!("cargo test: {e}"))?;
        if !status.success() {
            failed.push(name.clone());
        }
    }
    if failed.is_empty() {
        println!("ok: the tests of every built crate pass from its package");
        Ok(ExitCode::SUCCESS)
    } else {
        println!("failed from their packages: {}", failed.join(", "));
        Ok(ExitCode::FAILURE)
    }
}

/// cargo unpacks the packs of its temporary registry (`target/package/tmp-registry`) into
/// `$CARGO_HOME/registry/src/-<hash of the registry's path>/`, and never unpacks the same name
/// and version there again. So a later run from the same checkout path built an earlier run's
/// sources: a function added since was "not found" (`chessbits_pgn::spawn_pooled`, in
/// chessbits-arrow's build, 2026-11-28). Every chessbits pack unpacked from a local registry
/// (whose directory name starts with `-`; crates.io's is `index.crates.io-...`) is removed
/// first, so that each run builds what it packed.
fn forget_unpacked_packs() -> Result<(), String> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")));
    let Some(home) = home else { return Ok(()) };
    let Ok(registries) = std::fs::read_dir(home.join("registry").join("src")) else {
        return Ok(());
    };
    for registry in registries.flatten() {
        if !registry.file_name().to_string_lossy().starts_with('-') {
            continue;
        }
        let Ok(packs) = std::fs::read_dir(registry.path()) else { continue };
        for pack in packs.flatten() {
            if pack.file_name().to_string_lossy().starts_with("chessbits") {
                std::fs::remove_dir_all(pack.path())
                    .map_err(|e| format!("removing {}: {e}", pack.path().display()))?;
            }
        }
    }
    Ok(())
}
