//! `cargo xtask wheel`: builds the Python package as it would be uploaded (the abi3 manylinux
//! wheel and the sdist, with maturin) and installs each into a fresh virtual environment, where
//! the module must import and work. The wheel is installed and tried with no Rust toolchain on
//! the PATH, as a user without one installs it.
//!
//! Writes `target/python-package/dist/chessbits-VERSION-cp39-abi3-manylinux_*.whl` and
//! `target/python-package/dist/chessbits-VERSION.tar.gz` (not `target/wheels`, where the
//! sdist's own build leaves the wheel it makes). The sdist is built by pip from source, as a user
//! without a wheel for their platform would build it; its cargo build shares the workspace's
//! target directory, so only the workspace's own crates and the final link are compiled again.
//! Needs `python3` with `venv`, and PyPI (maturin, numpy, pyarrow).

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// What the fresh environment runs: the module imports, plays a move and reads a game.
const SMOKE: &str = "import chessbits\n\
b = chessbits.Board()\n\
b.push_uci('e2e4')\n\
assert b.fen() == 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1', b.fen()\n\
t = chessbits.read_games(b'[Event \"x\"]\\n\\n1. e4 e5 2. Nf3 *\\n')\n\
assert t.num_rows == 1, t\n\
print('ok:', chessbits.__file__)\n";

pub fn run(args: &[String]) -> Result<ExitCode, String> {
    if let Some(arg) = args.first() {
        if arg == "-h" || arg == "--help" {
            println!(
                "usage: cargo xtask wheel\n\nbuilds the abi3 wheel and the sdist into \
                 target/python-package/dist and installs each in a fresh venv"
            );
            return Ok(ExitCode::SUCCESS);
        }
        return Err(format!("unknown option {arg:?}"));
    }
    let root = crate::project_root();
    let target = target_dir(&root)?;
    let envs = target.join("python-package");
    let _ = std::fs::remove_dir_all(&envs);
    let out = envs.join("dist");

    let tools = envs.join("build");
    venv(&tools)?;
    pip(&tools, &["install", "--quiet", "maturin>=1.9,<2"])?;
    let manifest = root.join("crates/python/Cargo.toml");
    run_checked(
        Command::new(tools.join("bin/maturin"))
            .current_dir(&root)
            .args(["build", "--profile", "wheel", "--sdist", "--quiet", "--out"])
            .arg(&out)
            .arg("--manifest-path")
            .arg(&manifest)
            .env("CARGO_TARGET_DIR", &target),
        "maturin build --sdist",
    )?;
    let wheel = find(&out, ".whl")?;
    let sdist = find(&out, ".tar.gz")?;
    let name = wheel.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if !name.contains("-abi3-") || !name.contains("manylinux") {
        return Err(format!("{name}: not an abi3 manylinux wheel"));
    }
    println!("built {} and {}", wheel.display(), sdist.display());

    for (label, file) in [("wheel", &wheel), ("sdist", &sdist)] {
        let env = envs.join(format!("from-{label}"));
        venv(&env)?;
        // The sdist builds in pip's isolated environment; its cargo build reuses the
        // workspace's dependency builds through CARGO_TARGET_DIR.
        let mut install = Command::new(env.join("bin/pip"));
        install.args(["install", "--quiet"]).arg(file).env("CARGO_TARGET_DIR", &target);
        let mut smoke = Command::new(env.join("bin/python"));
        smoke.args(["-c", SMOKE]).current_dir(&envs);
        if label == "wheel" {
            // A user of the wheel has no Rust toolchain: take it off the PATH, so that an
            // install that tried to build would fail here.
            let path = path_without_rust()?;
            install.env("PATH", &path);
            smoke.env("PATH", &path);
        }
        run_checked(&mut install, &format!("pip install {}", file.display()))?;
        run_checked(&mut smoke, &format!("import from the {label}"))?;
        println!("ok: pip install of the {label} imports and reads a game");
    }
    Ok(ExitCode::SUCCESS)
}

/// The PATH without the directories that hold `cargo` or `rustc`.
fn path_without_rust() -> Result<std::ffi::OsString, String> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let kept = std::env::split_paths(&path)
        .filter(|dir| !dir.join("cargo").exists() && !dir.join("rustc").exists());
    std::env::join_paths(kept).map_err(|e| format!("PATH: {e}"))
}

/// Cargo's target directory (CARGO_TARGET_DIR, or `target/` under the workspace).
fn target_dir(root: &Path) -> Result<PathBuf, String> {
    Ok(match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            if dir.is_absolute() {
                dir
            } else {
                root.join(dir)
            }
        }
        None => root.join("target"),
    })
}

fn venv(dir: &Path) -> Result<(), String> {
    run_checked(Command::new("python3").args(["-m", "venv"]).arg(dir), "python3 -m venv")?;
    pip(dir, &["install", "--quiet", "--upgrade", "pip"])
}

fn pip(env: &Path, args: &[&str]) -> Result<(), String> {
    run_checked(Command::new(env.join("bin/pip")).args(args), &format!("pip {}", args.join(" ")))
}

fn run_checked(command: &mut Command, what: &str) -> Result<(), String> {
    let status = command.status().map_err(|e| format!("{what}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

/// The one file in `dir` whose name ends with `suffix`.
fn find(dir: &Path, suffix: &str) -> Result<PathBuf, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    match found.as_slice() {
        [one] => Ok(one.clone()),
        _ => Err(format!("expected one {suffix} in {}, found {}", dir.display(), found.len())),
    }
}
