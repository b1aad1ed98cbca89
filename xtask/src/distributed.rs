//! `cargo xtask distributed [FILE.pgn...]`: the chess SQL functions on a local Ballista
//! cluster. Exports the PGN files (default: the repository's sample, plus two corpus files
//! when `../shared/corpus` is there) into one Parquet file each, in one directory; builds
//! `chessbits-ballista` (crates/sql/ballista, its own workspace); starts its scheduler and two
//! executors as processes on loopback; runs `chessbits-ballista check`, which prints
//! `<query name>\t<rows>\tequal|differs` per named query (cluster against local DataFusion);
//! and stops the processes, also when a step fails. Exits non-zero if a query differs or a
//! step fails. xtask itself never links DataFusion: it runs the binaries through cargo.

use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// Corpus files added to the default set when present (read from ../shared, never copied).
const CORPUS: [&str; 2] = ["lichess-db-2021-10-first999.pgn", "pgnmentor-world-champions.pgn"];

/// The processes started, killed and reaped when dropped.
struct Processes(Vec<(String, Child)>);

impl Drop for Processes {
    fn drop(&mut self) {
        for (name, child) in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
            println!("distributed: stopped {name}");
        }
    }
}

impl Processes {
    fn start(&mut self, name: &str, command: &mut Command, log: &Path) -> Result<(), String> {
        let file = std::fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
        let err = file.try_clone().map_err(|e| e.to_string())?;
        let child = command
            .stdin(Stdio::null())
            .stdout(file)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("{name}: {e}"))?;
        println!("distributed: started {name} (pid {}, log {})", child.id(), log.display());
        self.0.push((name.to_owned(), child));
        Ok(())
    }

    /// Fails if a process has exited.
    fn check_alive(&mut self) -> Result<(), String> {
        for (name, child) in &mut self.0 {
            if let Ok(Some(status)) = child.try_wait() {
                return Err(format!("{name} exited: {status} (see its log)"));
            }
        }
        Ok(())
    }

    /// Waits until `port` accepts connections.
    fn wait_for(&mut self, port: u16) -> Result<(), String> {
        let start = Instant::now();
        while TcpStream::connect((Ipv4Addr::LOCALHOST, port)).is_err() {
            self.check_alive()?;
            if start.elapsed() > Duration::from_secs(60) {
                return Err(format!("nothing listens on port {port} after 60 s"));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Ok(())
    }
}

/// A port free now on loopback.
fn free_port() -> Result<u16, String> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).map_err(|e| e.to_string())?;
    listener.local_addr().map(|a| a.port()).map_err(|e| e.to_string())
}

fn cargo(root: &Path, args: &[&str]) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(&cargo)
        .current_dir(root)
        .args(args)
        .status()
        .map_err(|e| format!("{cargo}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("cargo {}: {status}", args.join(" ")))
    }
}

pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let root = crate::project_root();
    let mut inputs: Vec<PathBuf> = args.iter().map(PathBuf::from).collect();
    if inputs.is_empty() {
        inputs.push(root.join("testdata/games/lichess-2021-10-sample.pgn"));
        let corpus = root.join("../shared/corpus");
        inputs.extend(CORPUS.iter().map(|f| corpus.join(f)).filter(|p| p.is_file()));
    }
    let dir = root.join("target/distributed");
    let games = dir.join("games");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&games).map_err(|e| format!("{}: {e}", games.display()))?;

    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let target_dir = target.to_str().ok_or("the target directory is not UTF-8")?;
    println!("distributed: building chessbits (the tool) and chessbits-ballista");
    cargo(&root, &["build", "--quiet", "-p", "chessbits-cli"])?;
    // Its own workspace, built into the same target directory (shared crates build once).
    let manifest = "crates/sql/ballista/Cargo.toml";
    cargo(&root, &["build", "--quiet", "--manifest-path", manifest, "--target-dir", target_dir])?;
    let cli = target.join("debug/chessbits");
    let ballista = target.join("debug/chessbits-ballista");

    for (i, input) in inputs.iter().enumerate() {
        let out = games.join(format!("part-{i}.parquet"));
        println!("distributed: chessbits export {} -o {}", input.display(), out.display());
        let status = Command::new(&cli)
            .arg("export")
            .arg(input)
            .arg("-o")
            .arg(&out)
            .stdout(Stdio::null())
            .status()
            .map_err(|e| format!("{}: {e}", cli.display()))?;
        if !status.success() {
            return Err(format!("chessbits export {}: {status}", input.display()));
        }
    }

    let mut processes = Processes(Vec::new());
    let scheduler = free_port()?;
    processes.start(
        "scheduler",
        Command::new(&ballista).args(["scheduler", "--port", &scheduler.to_string()]),
        &dir.join("scheduler.log"),
    )?;
    processes.wait_for(scheduler)?;
    let address = format!("127.0.0.1:{scheduler}");
    for n in 1..=2 {
        let (port, grpc) = (free_port()?, free_port()?);
        let work = dir.join(format!("executor-{n}"));
        std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
        processes.start(
            &format!("executor {n}"),
            Command::new(&ballista)
                .args(["executor", "--scheduler", &address, "--cores", "1"])
                .args(["--port", &port.to_string(), "--grpc-port", &grpc.to_string()])
                .arg("--work-dir")
                .arg(&work),
            &dir.join(format!("executor-{n}.log")),
        )?;
        processes.wait_for(port)?;
    }
    // The executors register with the scheduler after they listen.
    std::thread::sleep(Duration::from_secs(2));
    processes.check_alive()?;

    let table = format!("games={}", games.display());
    println!("distributed: chessbits-ballista check --scheduler {address} --table {table}");
    let status = Command::new(&ballista)
        .args(["check", "--scheduler", &address, "--table", &table])
        .status()
        .map_err(|e| format!("{}: {e}", ballista.display()))?;
    drop(processes);
    Ok(if status.success() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
