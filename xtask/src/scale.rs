//! `cargo xtask scale [--threads 1,2,...] [--mb N] [--commands pgn,pack,export,unpack,export-cbg]
//! [--max-rss MB]`: the game-file commands over one big PGN file, at each thread count: wall
//! time, games/s, MB/s of PGN, speed-up over one thread and peak resident memory; then the same
//! file read as `.zst` directly, through `zstd -dc |`, and plain. `unpack` (to UCI) and
//! `export-cbg` read the file packed to `.cbg` (packed once, untimed, when they are asked for).
//!
//! The file is the lichess training games (`../shared/corpus/train`) repeated to at least
//! `--mb` megabytes (default 320), each copy's `Site` tags made distinct, written once to
//! `target/scale/` with its `.zst` (level 3) beside it. Peak memory is the process's `VmHWM`,
//! read from `/proc` as it runs (Linux). `--max-rss MB` fails the task if any run's peak goes
//! over MB: memory must be bounded by the thread count and chunk size, not by the input.
//! Figures are only comparable within one run (docs/formats.md). `--adversarial` times
//! pathological inputs instead (`adversarial.rs`).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use crate::project_root;

const USAGE: &str = "usage: cargo xtask scale [--threads 1,2,4,8,16] [--mb 320] [--commands pgn,pack,export,unpack,export-cbg] [--max-rss MB] | --adversarial";

/// One timed run: seconds, peak resident memory in bytes, exit status.
pub(crate) struct Timed {
    pub(crate) seconds: f64,
    pub(crate) peak: u64,
    pub(crate) code: Option<i32>,
}

/// The peak resident set of a running process, from `/proc/PID/status` (0 if unknown).
fn peak_rss(pid: u32) -> u64 {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// Runs `shell` (a `sh -c` line) and watches the peak memory of the last process of the
/// pipeline, whose pid the line prints first (`exec` keeps it).
pub(crate) fn run_timed(
    program: &Path,
    args: &[String],
    stdin_from: Option<&str>,
) -> Result<Timed, String> {
    let start = Instant::now();
    let mut command = match stdin_from {
        // `zstd -dc FILE | chessbits ...`: chessbits is the shell's last process.
        Some(pipe) => {
            let line = format!(
                "{pipe} | {} {}",
                program.display(),
                args.iter().map(|a| format!("'{a}'")).collect::<Vec<_>>().join(" ")
            );
            let mut c = Command::new("sh");
            c.arg("-c").arg(line);
            c
        }
        None => {
            let mut c = Command::new(program);
            c.args(args);
            c
        }
    };
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: {e}", program.display()))?;
    let mut peak = 0;
    let code = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status.code();
        }
        peak = peak.max(peak_rss(child.id()));
        // In a pipeline the watched pid is the shell's; its children are read too.
        if let Ok(children) = fs::read_to_string(format!("/proc/{0}/task/{0}/children", child.id()))
        {
            for pid in children.split_whitespace().filter_map(|p| p.parse::<u32>().ok()) {
                if fs::read_to_string(format!("/proc/{pid}/comm"))
                    .is_ok_and(|c| c.trim() == "chessbits")
                {
                    peak = peak.max(peak_rss(pid));
                }
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Ok(Timed { seconds: start.elapsed().as_secs_f64(), peak, code })
}

/// The training games repeated to at least `mb` megabytes, each copy's `Site` values
/// prefixed with its number, and their count of games.
fn big_file(dir: &Path, mb: u64) -> Result<(PathBuf, u64), String> {
    let train = project_root().join("../shared/corpus/train");
    let mut files: Vec<PathBuf> = fs::read_dir(&train)
        .map_err(|e| format!("{}: {e}", train.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    let mut corpus = Vec::new();
    for f in files {
        corpus.extend(fs::read(&f).map_err(|e| format!("{}: {e}", f.display()))?);
        corpus.extend_from_slice(b"\n\n");
    }
    let games = corpus.windows(7).filter(|w| w == b"[Event ").count() as u64;
    let copies = (mb * 1_000_000).div_ceil(corpus.len() as u64).max(1);
    let path = dir.join(format!("lichess-train-x{copies}.pgn"));
    if fs::metadata(&path).is_ok_and(|m| m.len() >= mb * 1_000_000) {
        return Ok((path, games * copies));
    }
    eprintln!("writing {} ({copies} copies of the training games)", path.display());
    let mut out = std::io::BufWriter::new(
        fs::File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?,
    );
    for copy in 0..copies {
        let prefix = format!("[Site \"copy {copy} ");
        let mut rest = &corpus[..];
        while let Some(i) = rest.windows(7).position(|w| w == b"[Site \"") {
            out.write_all(&rest[..i]).map_err(|e| e.to_string())?;
            out.write_all(prefix.as_bytes()).map_err(|e| e.to_string())?;
            rest = &rest[i + 7..];
        }
        out.write_all(rest).map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())?;
    Ok((path, games * copies))
}

fn compressed(path: &Path) -> Result<PathBuf, String> {
    let zst = path.with_extension("pgn.zst");
    if fs::metadata(&zst).is_ok_and(|m| m.len() > 0) {
        return Ok(zst);
    }
    eprintln!("writing {}", zst.display());
    let mut out = chessbits_pgn::Output::create(&zst).map_err(|e| e.to_string())?;
    let mut input = fs::File::open(path).map_err(|e| e.to_string())?;
    std::io::copy(&mut input, &mut out).map_err(|e| e.to_string())?;
    out.finish().map_err(|e| e.to_string())?;
    Ok(zst)
}

fn list(value: Option<&String>, what: &str) -> Result<Vec<String>, String> {
    let value = value.ok_or(format!("{what} needs a value"))?;
    Ok(value.split(',').map(str::to_string).collect())
}

/// The arguments of `command` over `input` at `threads`, writing into `dir`.
fn command_args(command: &str, input: &Path, threads: &str, dir: &Path) -> Vec<String> {
    let input = input.display().to_string();
    let mut args = match command {
        "pgn" => vec!["pgn".into(), input, "--to".into(), "uci".into()],
        "pack" => {
            vec!["pack".into(), input, "-o".into(), dir.join("out.cbg").display().to_string()]
        }
        "unpack" => vec!["unpack".into(), input, "--to".into(), "uci".into()],
        _ => {
            vec!["export".into(), input, "-o".into(), dir.join("out.parquet").display().to_string()]
        }
    };
    args.extend(["--threads".into(), threads.into()]);
    args
}

/// What to measure, from the command line.
struct Options {
    threads: Vec<String>,
    commands: Vec<String>,
    mb: u64,
    max_rss: Option<u64>,
    /// `--adversarial`: the pathological inputs' table instead (`adversarial.rs`).
    adversarial: bool,
}

impl Options {
    /// The options of `args`, or `None` after printing the usage for `--help`.
    fn parse(args: &[String]) -> Result<Option<Options>, String> {
        let mut options = Options {
            threads: vec!["1".to_string(), "2".to_string()],
            commands: vec!["pgn".to_string(), "pack".to_string(), "export".to_string()],
            mb: 320,
            max_rss: None,
            adversarial: false,
        };
        let number = |v: Option<&String>, name: &str| {
            v.and_then(|v| v.parse::<u64>().ok()).ok_or(format!("{name}: a number"))
        };
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--threads" => options.threads = list(args.next(), "--threads")?,
                "--commands" => options.commands = list(args.next(), "--commands")?,
                "--mb" => options.mb = number(args.next(), "--mb")?,
                "--max-rss" => options.max_rss = Some(number(args.next(), "--max-rss")?),
                "--adversarial" => options.adversarial = true,
                "-h" | "--help" => {
                    println!("{USAGE}");
                    return Ok(None);
                }
                other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
            }
        }
        Ok(Some(options))
    }

    /// Whether `t` went over `--max-rss`.
    fn over(&self, t: &Timed) -> bool {
        self.max_rss.is_some_and(|limit| t.peak > limit * 1_000_000)
    }
}

/// Builds the release CLI and returns its path.
fn build_cli(root: &Path) -> Result<PathBuf, String> {
    eprintln!("building chessbits (release)");
    let status = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .current_dir(root)
        .args(["build", "--release", "-p", "chessbits-cli"])
        .status()
        .map_err(|e| format!("cargo build: {e}"))?;
    if !status.success() {
        return Err("cargo build of the CLI failed".into());
    }
    Ok(root.join("target/release/chessbits"))
}

/// The input of every run: the big PGN file, its `.zst`, its `.cbg` (if a command reads
/// one), sizes and game count.
struct Input {
    pgn: PathBuf,
    zst: PathBuf,
    cbg: PathBuf,
    bytes: u64,
    games: u64,
}

/// Runs the task.
pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let Some(options) = Options::parse(args)? else { return Ok(ExitCode::SUCCESS) };
    let root = project_root();
    let bin = build_cli(&root)?;
    let dir = root.join("target/scale");
    fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    if options.adversarial {
        crate::adversarial::run(&bin, &dir)?;
        return Ok(ExitCode::SUCCESS);
    }
    let (pgn, games) = big_file(&dir, options.mb)?;
    let bytes = fs::metadata(&pgn).map_err(|e| e.to_string())?.len();
    let zst = compressed(&pgn)?;
    let zst_bytes = fs::metadata(&zst).map_err(|e| e.to_string())?.len();
    println!(
        "input: {} ({:.0} MB of PGN, {games} games; .zst {:.0} MB); cores: {}",
        pgn.display(),
        bytes as f64 / 1e6,
        zst_bytes as f64 / 1e6,
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    let cbg = dir.join(format!("{}.cbg", pgn.file_stem().unwrap_or_default().to_string_lossy()));
    if options.commands.iter().any(|c| c == "unpack" || c == "export-cbg") {
        eprintln!("packing {} (untimed)", cbg.display());
        let args =
            ["pack".to_string(), pgn.display().to_string(), "-o".into(), cbg.display().to_string()];
        run_timed(&bin, &args, None)?;
    }
    let input = Input { pgn, zst, cbg, bytes, games };
    let over = threads_table(&options, &bin, &dir, &input)?
        | compressed_table(&options, &bin, &dir, &input)?;
    if over {
        eprintln!("peak resident memory went over --max-rss {} MB", options.max_rss.unwrap_or(0));
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// Times each command at each thread count and prints the table; whether a run went over
/// `--max-rss`.
fn threads_table(options: &Options, bin: &Path, dir: &Path, input: &Input) -> Result<bool, String> {
    println!("| command | threads | seconds | games/s | MB/s of PGN | speed-up | peak RSS MB |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let mut over = false;
    for command in &options.commands {
        let mut base = None;
        for n in &options.threads {
            let source = match command.as_str() {
                "unpack" | "export-cbg" => &input.cbg,
                _ => &input.pgn,
            };
            let t = run_timed(bin, &command_args(command, source, n, dir), None)?;
            if !matches!(t.code, Some(0 | 1)) {
                return Err(format!("{command} --threads {n}: exit status {:?}", t.code));
            }
            let one = *base.get_or_insert(t.seconds);
            println!(
                "| {command} | {n} | {:.2} | {:.0} | {:.0} | {:.2} | {:.0} |",
                t.seconds,
                input.games as f64 / t.seconds,
                input.bytes as f64 / 1e6 / t.seconds,
                one / t.seconds,
                t.peak as f64 / 1e6
            );
            over |= options.over(&t);
        }
    }
    Ok(over)
}

/// Times `pgn --to uci` at the last thread count on plain, `.zst` and piped input and prints
/// the table; whether a run went over `--max-rss`.
fn compressed_table(
    options: &Options,
    bin: &Path,
    dir: &Path,
    input: &Input,
) -> Result<bool, String> {
    let top = options.threads.last().cloned().unwrap_or_else(|| "1".into());
    println!();
    println!("compressed input, `pgn --to uci --threads {top}`:");
    println!("| input | seconds | MB/s of PGN | peak RSS MB |");
    println!("|---|---:|---:|---:|");
    let mut runs = vec![
        (
            "plain .pgn".to_string(),
            run_timed(bin, &command_args("pgn", &input.pgn, &top, dir), None)?,
        ),
        (
            ".pgn.zst read directly".to_string(),
            run_timed(bin, &command_args("pgn", &input.zst, &top, dir), None)?,
        ),
    ];
    if Command::new("zstd").arg("--version").output().is_ok() {
        let pipe = format!("zstd -dc '{}'", input.zst.display());
        let args = command_args("pgn", Path::new("-"), &top, dir);
        runs.push(("zstd -dc .pgn.zst, piped in".to_string(), run_timed(bin, &args, Some(&pipe))?));
    }
    let mut over = false;
    for (name, t) in &runs {
        println!(
            "| {name} | {:.2} | {:.0} | {:.0} |",
            t.seconds,
            input.bytes as f64 / 1e6 / t.seconds,
            t.peak as f64 / 1e6
        );
        over |= options.over(t);
    }
    Ok(over)
}
