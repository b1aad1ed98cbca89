//! `cargo xtask fuzz [--seconds N] [TARGET...]`: runs the cargo-fuzz targets in `fuzz/` one at
//! a time, each for N seconds (default 60), optimised with debug assertions on, and prints
//! per target the executions, coverage and corpus size libFuzzer reports. Needs a nightly toolchain and cargo-fuzz
//! (`rustup toolchain install nightly && cargo install cargo-fuzz`); without them it says so
//! and fails. A crash ends that target's run (the others still run) and the task fails:
//! libFuzzer writes the input under `fuzz/artifacts/TARGET/`, which goes into
//! `fuzz/regressions/TARGET/` once fixed, so `cargo test` replays it.

use std::process::{Command, ExitCode, Stdio};

use crate::project_root;

const HELP: &str = "usage: cargo xtask fuzz [--seconds N] [TARGET...]

Runs each fuzz target (all of them by default) for N seconds (default 60) with cargo-fuzz on
the nightly toolchain, one at a time, and prints executions, coverage and corpus size.";

/// Runs the task.
pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let mut seconds = 60u64;
    let mut targets = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seconds" => {
                let value = args.next().ok_or("--seconds needs a number")?;
                seconds = value.parse().map_err(|_| format!("--seconds: not a number: {value}"))?;
            }
            "-h" | "--help" => {
                println!("{HELP}");
                return Ok(ExitCode::SUCCESS);
            }
            name => targets.push(name.to_owned()),
        }
    }
    let fuzz_dir = project_root().join("fuzz");
    let all = all_targets(&fuzz_dir)?;
    if targets.is_empty() {
        targets = all.clone();
    }
    if let Some(unknown) = targets.iter().find(|t| !all.contains(t)) {
        return Err(format!("unknown fuzz target {unknown:?}; the targets: {}", all.join(", ")));
    }
    let probe = Command::new("cargo")
        .args(["+nightly", "fuzz", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !probe.is_ok_and(|s| s.success()) {
        return Err("cargo-fuzz on a nightly toolchain is needed: \
                    rustup toolchain install nightly && cargo install cargo-fuzz"
            .into());
    }
    println!("{:<16} {:>12} {:>8} {:>8} {:>7}", "target", "executions", "cov", "ft", "corpus");
    let mut failed = Vec::new();
    for target in &targets {
        eprintln!("fuzzing {target} for {seconds} s");
        let output = Command::new("cargo")
            .current_dir(&fuzz_dir)
            .args(["+nightly", "fuzz", "run", "-O", "-a", target, "--"])
            .arg(format!("-max_total_time={seconds}"))
            .args(["-rss_limit_mb=2048", "-max_len=65536", "-print_final_stats=1"])
            // `pgn` reads each input on several threads too: memory those threads free only
            // as they exit, after the scope that joined them returned, is what the leak
            // check between inputs reports.
            .args(if target == "pgn" { &["-detect_leaks=0"][..] } else { &[] })
            .stdout(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run cargo fuzz: {e}"))?;
        let log = String::from_utf8_lossy(&output.stderr);
        if !output.status.success() {
            let report: Vec<&str> = log
                .lines()
                .filter(|l| {
                    l.contains("panicked") || l.contains("artifacts/") || l.contains("ERROR")
                })
                .collect();
            eprintln!("{target} failed:\n{}", report.join("\n"));
            println!("{target:<16} FAILED (see fuzz/artifacts/{target}/)");
            failed.push(target.as_str());
            continue;
        }
        let stat = |name: &str| {
            log.lines()
                .find_map(|l| l.strip_prefix(name).map(|v| v.trim().to_owned()))
                .unwrap_or_else(|| "?".into())
        };
        let done = log.lines().rev().find(|l| l.contains("DONE")).unwrap_or("");
        let field = |key: &str| {
            done.split_whitespace().skip_while(|w| *w != key).nth(1).unwrap_or("?").to_owned()
        };
        println!(
            "{target:<16} {:>12} {:>8} {:>8} {:>7}",
            stat("stat::number_of_executed_units:"),
            field("cov:"),
            field("ft:"),
            field("corp:"),
        );
    }
    if !failed.is_empty() {
        return Err(format!("crashes in {}", failed.join(", ")));
    }
    Ok(ExitCode::SUCCESS)
}

/// The target names: the files in `fuzz/fuzz_targets/`.
fn all_targets(fuzz_dir: &std::path::Path) -> Result<Vec<String>, String> {
    let dir = fuzz_dir.join("fuzz_targets");
    let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str()?.strip_suffix(".rs").map(str::to_owned))
        .collect();
    names.sort();
    Ok(names)
}
