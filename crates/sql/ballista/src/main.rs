//! `chessbits-ballista`: the chess SQL functions on Ballista, DataFusion's distributed
//! scheduler and executors (its own workspace, crates/sql/ballista, outside the main build).
//! `cargo xtask distributed` builds and runs it; by hand:
//!
//! ```text
//! chessbits-ballista scheduler --port 50050 [--bind 0.0.0.0]
//! chessbits-ballista executor --scheduler HOST:50050 --port 50051 --grpc-port 50052 [--bind 0.0.0.0] [--external-host NAME] [--work-dir DIR] [--cores N]
//! chessbits-ballista check --scheduler HOST:50050 --table games=PATH
//! chessbits-ballista sql --scheduler HOST:50050 --table games=PATH "SELECT ..."
//! ```
//!
//! The scheduler plans with the functions registered; every executor has them in its
//! function registry, so the plan's calls resolve where the rows are read. `check` runs the
//! named queries of [`queries`] on the cluster and locally on DataFusion, and prints
//! `<name>\t<rows>\tequal` (or `differs`) per query; it exits with 1 if any differs. Table
//! paths are read by the executors: on a cluster, a path every executor sees.
//!
//! Ballista's messages (through the `log` crate) go to standard error, warnings and errors by
//! default; `CHESSBITS_LOG=info` (or `debug`, `trace`, `off`) changes the level.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;

use ballista::prelude::{SessionConfigExt, SessionContextExt};
use ballista_core::registry::BallistaFunctionRegistry;
use ballista_executor::executor_process::{start_executor_process, ExecutorProcessConfig};
use ballista_scheduler::cluster::BallistaCluster;
use ballista_scheduler::config::SchedulerConfig;
use ballista_scheduler::scheduler_process::start_server;
use chessbits_sql::datafusion::arrow::array::RecordBatch;
use chessbits_sql::datafusion::arrow::util::display::{ArrayFormatter, FormatOptions};
use chessbits_sql::datafusion::error::{DataFusionError, Result};
use chessbits_sql::datafusion::execution::SessionStateBuilder;
use chessbits_sql::datafusion::prelude::{SessionConfig, SessionContext};
use chessbits_sql::{register, register_table, session_context, Table};

/// The position after 1. e4 e5.
pub const AFTER_E4_E5: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
/// The position after 1. e4 e5 2. Nf3.
pub const AFTER_E4_E5_NF3: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
/// The position after 1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 (the Najdorf).
pub const NAJDORF: &str = "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6";

/// The named queries `check` compares: the issue's three questions, then the other functions.
pub fn queries() -> Vec<(&'static str, String)> {
    vec![
        (
            "count games by result",
            r#"SELECT "Result", count(*) AS games FROM games GROUP BY 1 ORDER BY 1"#.into(),
        ),
        (
            "games reaching the Najdorf",
            format!("SELECT count(*) AS games FROM games WHERE chess_reaches(moves, plies, start_fen, '{NAJDORF}')"),
        ),
        (
            "most played replies after 1.e4 e5",
            format!(
                "SELECT reply, count(*) AS games FROM (SELECT chess_next_move(moves, plies, start_fen, '{AFTER_E4_E5}') AS reply FROM games) \
                 WHERE reply IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1"
            ),
        ),
        (
            "first moves",
            "SELECT chess_move_at(moves, plies, start_fen, 1) AS first, count(*) AS games FROM games GROUP BY 1 ORDER BY 2 DESC, 1".into(),
        ),
        (
            "outcomes by rule",
            "SELECT chess_outcome(moves, plies, start_fen) AS outcome, count(*) AS games FROM games GROUP BY 1 ORDER BY 1".into(),
        ),
        (
            "mainline text",
            "SELECT count(*) AS games, sum(length(chess_uci(moves, plies, start_fen))) AS uci, \
             sum(length(chess_san(moves, plies, start_fen))) AS san, \
             sum(length(chess_fen_at(moves, plies, start_fen, plies))) AS fen FROM games".into(),
        ),
        (
            "position keys after 1.e4 e5 2.Nf3",
            format!("SELECT count(*) AS games FROM games WHERE array_has(keys, chess_key('{AFTER_E4_E5_NF3}'))"),
        ),
    ]
}

const USAGE: &str = "usage:
  chessbits-ballista scheduler --port P [--bind HOST]
  chessbits-ballista executor --scheduler HOST:P --port F --grpc-port G [--bind HOST] [--external-host NAME] [--work-dir DIR] [--cores N]
  chessbits-ballista check --scheduler HOST:P --table NAME=PATH...
  chessbits-ballista sql --scheduler HOST:P --table NAME=PATH... SQL";

/// The command line: a command, `--name value` options, and free arguments.
struct Args {
    command: String,
    options: Vec<(String, String)>,
    free: Vec<String>,
}

impl Args {
    fn parse() -> Result<Args, String> {
        let mut args = std::env::args().skip(1);
        let command = args.next().ok_or("no command")?;
        let (mut options, mut free) = (Vec::new(), Vec::new());
        while let Some(arg) = args.next() {
            match arg.strip_prefix("--") {
                Some(name) => {
                    let value = args.next().ok_or(format!("--{name} needs a value"))?;
                    options.push((name.to_owned(), value));
                }
                None => free.push(arg),
            }
        }
        Ok(Args { command, options, free })
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.options.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    fn required(&self, name: &str) -> Result<&str, String> {
        self.get(name).ok_or(format!("{} needs --{name}", self.command))
    }

    fn number<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, String> {
        self.get(name)
            .map(|v| v.parse().map_err(|_| format!("--{name}: not a number: {v}")))
            .transpose()
    }

    fn tables(&self) -> Result<Vec<Table>, String> {
        let tables: Vec<Table> = self
            .options
            .iter()
            .filter(|(n, _)| n == "table")
            .map(|(_, v)| v.parse().map_err(|e| format!("--table: {e}")))
            .collect::<Result<_, _>>()?;
        if tables.is_empty() {
            return Err(format!("{} needs --table NAME=PATH", self.command));
        }
        Ok(tables)
    }

    /// `HOST:PORT` of `--scheduler`.
    fn scheduler(&self) -> Result<(String, u16), String> {
        let text = self.required("scheduler")?;
        let (host, port) =
            text.rsplit_once(':').ok_or(format!("--scheduler {text}: expected HOST:PORT"))?;
        let port = port.parse().map_err(|_| format!("--scheduler {text}: bad port"))?;
        Ok((host.to_owned(), port))
    }
}

/// A session state with the chess functions, from Ballista's own.
fn with_functions(
    state: chessbits_sql::datafusion::execution::SessionState,
) -> chessbits_sql::datafusion::execution::SessionState {
    let ctx = SessionContext::new_with_state(state);
    register(&ctx);
    ctx.state()
}

async fn scheduler(args: &Args) -> Result<(), String> {
    let port: u16 = args.number("port")?.ok_or("scheduler needs --port")?;
    let bind = args.get("bind").unwrap_or("127.0.0.1");
    let address: SocketAddr =
        format!("{bind}:{port}").parse().map_err(|e| format!("--bind {bind}: {e}"))?;
    let mut config = SchedulerConfig {
        bind_host: bind.to_owned(),
        bind_port: port,
        ..SchedulerConfig::default()
    };
    if let Some(host) = args.get("external-host") {
        config.external_host = host.to_owned();
    }
    let config = config.with_override_session_builder(Arc::new(|config: SessionConfig| {
        Ok(with_functions(ballista_core::utils::default_session_builder(config)?))
    }));
    let cluster = BallistaCluster::new_from_config(&config).await.map_err(|e| e.to_string())?;
    start_server(cluster, address, Arc::new(config)).await.map_err(|e| e.to_string())
}

async fn executor(args: &Args) -> Result<(), String> {
    let (scheduler_host, scheduler_port) = args.scheduler()?;
    let mut registry = BallistaFunctionRegistry::default();
    // Ballista's default registry has DataFusion's default functions but not the nested
    // ones (`array_has`, ...), which a local session has and the `keys` queries use: without
    // them an executor rejects the plan ("task could not be prepared").
    for udf in chessbits_sql::datafusion::functions_nested::all_default_nested_functions() {
        registry.scalar_functions.insert(udf.name().to_owned(), udf);
    }
    for udf in chessbits_sql::functions() {
        registry.scalar_functions.insert(udf.name().to_owned(), Arc::new(udf));
    }
    let mut config = ExecutorProcessConfig {
        bind_host: args.get("bind").unwrap_or("127.0.0.1").to_owned(),
        external_host: args.get("external-host").map(str::to_owned),
        port: args.number("port")?.ok_or("executor needs --port")?,
        grpc_port: args.number("grpc-port")?.ok_or("executor needs --grpc-port")?,
        scheduler_host,
        scheduler_port,
        work_dir: args.get("work-dir").map(str::to_owned),
        override_function_registry: Some(Arc::new(registry)),
        ..ExecutorProcessConfig::default()
    };
    if let Some(cores) = args.number("cores")? {
        config.vcores = cores;
    }
    start_executor_process(Arc::new(config)).await.map_err(|e| e.to_string())
}

/// A session on the cluster with the functions and the tables.
async fn cluster_session(args: &Args) -> Result<SessionContext, String> {
    let (host, port) = args.scheduler()?;
    let state = SessionStateBuilder::new()
        .with_default_features()
        .with_config(SessionConfig::new_with_ballista())
        .build();
    let ctx = SessionContext::remote_with_state(&format!("df://{host}:{port}"), state)
        .await
        .map_err(|e| e.to_string())?;
    register(&ctx);
    for table in args.tables()? {
        register_table(&ctx, &table.name, &table.path).await.map_err(|e| e.to_string())?;
    }
    Ok(ctx)
}

/// The answer's rows as text, sorted (the engines may order ties differently).
async fn rows(ctx: &SessionContext, sql: &str) -> Result<Vec<String>> {
    let batches: Vec<RecordBatch> = ctx.sql(sql).await?.collect().await?;
    let options = FormatOptions::default().with_null("NULL");
    let mut rows = Vec::new();
    for batch in &batches {
        let columns = batch
            .columns()
            .iter()
            .map(|c| ArrayFormatter::try_new(c.as_ref(), &options))
            .collect::<Result<Vec<_>, _>>()?;
        for row in 0..batch.num_rows() {
            let cells: Vec<String> = columns.iter().map(|c| c.value(row).to_string()).collect();
            rows.push(cells.join("\t"));
        }
    }
    rows.sort();
    Ok(rows)
}

async fn check(args: &Args) -> Result<bool, String> {
    let cluster = cluster_session(args).await?;
    let local = session_context(2);
    for table in args.tables()? {
        register_table(&local, &table.name, &table.path).await.map_err(|e| e.to_string())?;
    }
    let mut all_equal = true;
    for (name, sql) in queries() {
        let distributed =
            rows(&cluster, &sql).await.map_err(|e| format!("{name}: ballista: {e}"))?;
        let expected = rows(&local, &sql).await.map_err(|e| format!("{name}: datafusion: {e}"))?;
        let equal = distributed == expected;
        all_equal &= equal;
        println!("{name}\t{}\t{}", distributed.len(), if equal { "equal" } else { "differs" });
    }
    Ok(all_equal)
}

async fn sql(args: &Args) -> Result<(), String> {
    let [sql] = args.free.as_slice() else { return Err("sql needs one query".into()) };
    let ctx = cluster_session(args).await?;
    for row in rows(&ctx, sql).await.map_err(|e: DataFusionError| e.to_string())? {
        println!("{row}");
    }
    Ok(())
}

/// Writes Ballista's log records to standard error: without a logger, an executor that
/// rejects a task says nothing about why.
struct StderrLog;

impl log::Log for StderrLog {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        metadata.level() <= log::max_level()
    }

    fn log(&self, record: &log::Record<'_>) {
        if self.enabled(record.metadata()) {
            eprintln!("{} {}: {}", record.level(), record.target(), record.args());
        }
    }

    fn flush(&self) {}
}

/// Installs [`StderrLog`] at the level `CHESSBITS_LOG` names (warnings by default).
fn init_log() {
    let level = std::env::var("CHESSBITS_LOG")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(log::LevelFilter::Warn);
    if log::set_logger(&StderrLog).is_ok() {
        log::set_max_level(level);
    }
}

fn main() -> ExitCode {
    init_log();
    let result = Args::parse().and_then(|args| {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        runtime.block_on(async {
            match args.command.as_str() {
                "scheduler" => scheduler(&args).await.map(|()| true),
                "executor" => executor(&args).await.map(|()| true),
                "check" => check(&args).await,
                "sql" => sql(&args).await.map(|()| true),
                other => Err(format!("unknown command {other:?}")),
            }
        })
    });
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("chessbits-ballista: {message}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
