//! `chessbits serve FILE... [--port N] [--bind ADDR] [--open]`: the opening explorer in the
//! browser, over the user's own games, offline. The files are position indexes (`.cbx`,
//! explored together as shards) or game files (PGN, `.cbg`, lichess Parquet), indexed in
//! memory first. It serves one page (HTML, CSS and JavaScript written here and embedded in
//! the binary: nothing is fetched from anywhere else) and a JSON API (docs/explorer.md) on
//! 127.0.0.1 unless `--bind` says otherwise.
//!
//! The server is std's `TcpListener` with a thread a connection (at most
//! [`MAX_CONNECTIONS`] at once): the API answers in milliseconds from memory, so a runtime and
//! an HTTP crate would add build time and code to review for nothing a user sees. Every request
//! is bounded: a head of at most [`MAX_HEAD`] bytes read within 10 seconds, no body, fixed routes (no
//! path reaches the file system), and a handler that cannot take the server down (a panic is a
//! 500 for that request).

use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::net::{IpAddr, Ipv4Addr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chessbits_index::{BuildOptions, Filter, Index, MAGIC};
use chessbits_move::UciMove;
use chessbits_movegen::MoveGen;
use chessbits_notation::fen::{fen_of, parse_position, EnPassantMode, FenOptions};
use chessbits_notation::san::{San, SanPlus};
use chessbits_state::Position;

use crate::index::{elo_json, explore, find, index_games, json_text, Indexed};
use crate::Threads;

/// The page: HTML, CSS and JavaScript in one file, embedded.
const PAGE: &str = include_str!("../assets/explorer.html");

/// The most bytes of a request's head (request line and headers).
pub const MAX_HEAD: usize = 8 << 10;

/// The most connections served at once; more are answered 503.
pub const MAX_CONNECTIONS: usize = 64;

/// The most moves a position request may list.
const MAX_MOVES: usize = 1000;

/// The options of `serve`.
#[derive(clap::Args)]
pub struct ServeArgs {
    /// Position indexes (`.cbx`), explored together; or game files (PGN, `.cbg`, lichess
    /// Parquet), indexed in memory first.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The port; 0 picks a free one (the address is printed on start).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on. The default, 127.0.0.1, is this machine only.
    #[arg(long, value_name = "ADDR", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// How long a client has to send its request head, in milliseconds (tests use short
    /// ones).
    #[arg(long, hide = true, default_value_t = 10_000)]
    head_timeout_ms: u64,
    #[command(flatten)]
    threads: Threads,
}

/// What the server answers from: the indexes and their names.
struct Explorer {
    indexes: Vec<Index>,
    paths: Vec<PathBuf>,
}

/// Runs `serve` until it is stopped; `Ok(false)` if the files could not be loaded or the
/// address taken.
pub fn run(args: &ServeArgs, err: &mut impl Write) -> io::Result<bool> {
    let Some(explorer) = load(args, err)? else { return Ok(false) };
    let listener = match TcpListener::bind((args.bind, args.port)) {
        Ok(listener) => listener,
        Err(e) => {
            writeln!(err, "chessbits: {}:{}: {e}", args.bind, args.port)?;
            return Ok(false);
        }
    };
    let address = listener.local_addr()?;
    let url = format!("http://{address}/");
    let games: u64 = explorer.indexes.iter().map(Index::games).sum();
    let reach = if args.bind.is_loopback() { "this machine only" } else { "other machines too" };
    writeln!(err, "chessbits: exploring {games} games at {url} ({reach}; Ctrl-C stops)")?;
    err.flush()?;
    if args.open {
        open_browser(&url);
    }
    let explorer = Arc::new(explorer);
    let active = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else { continue };
        if active.fetch_add(1, Ordering::AcqRel) >= MAX_CONNECTIONS {
            active.fetch_sub(1, Ordering::AcqRel);
            let _ = Response::error(503, "too many connections").send(&mut stream, false);
            continue;
        }
        let (explorer, done) = (Arc::clone(&explorer), Arc::clone(&active));
        let head_timeout = Duration::from_millis(args.head_timeout_ms);
        let spawned = std::thread::Builder::new().name("serve".into()).spawn(move || {
            serve_connection(stream, &explorer, head_timeout);
            done.fetch_sub(1, Ordering::AcqRel);
        });
        if spawned.is_err() {
            active.fetch_sub(1, Ordering::AcqRel);
        }
    }
    Ok(true)
}

/// Opens the indexes and indexes the game files (into one more shard, in memory).
fn load(args: &ServeArgs, err: &mut impl Write) -> io::Result<Option<Explorer>> {
    let mut explorer = Explorer { indexes: Vec::new(), paths: Vec::new() };
    let mut games = Vec::new();
    for path in &args.files {
        let mut head = [0; MAGIC.len()];
        let is_index = std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok()
            && head == MAGIC;
        if !is_index {
            games.push(path.clone());
            continue;
        }
        match Index::open(path) {
            Ok(index) => {
                explorer.indexes.push(index);
                explorer.paths.push(path.clone());
            }
            Err(e) => {
                writeln!(err, "chessbits: {}: {e}", path.display())?;
                return Ok(None);
            }
        }
    }
    if !games.is_empty() {
        let started = Instant::now();
        let Some(Indexed { builder, number, failed, failed_inputs, progress }) =
            index_games(&games, BuildOptions::default(), &args.threads, err)?
        else {
            return Ok(None);
        };
        let mut bytes = Vec::new();
        builder.finish(&mut bytes).map_err(io::Error::other)?;
        progress.finish(number, failed, failed_inputs, err);
        let index = Index::from_bytes(bytes).map_err(io::Error::other)?;
        if !args.threads.quiet() {
            let seconds = started.elapsed().as_secs_f64();
            writeln!(err, "chessbits: indexed {} games in {seconds:.1} s", index.games())?;
        }
        explorer.indexes.push(index);
        explorer.paths.push(PathBuf::from(if games.len() == 1 {
            games[0].display().to_string()
        } else {
            format!("{} game files", games.len())
        }));
    }
    Ok(Some(explorer))
}

/// Asks the system to open `url` in the default browser; a failure is left unsaid (the
/// address is printed).
fn open_browser(url: &str) {
    let command = if cfg!(target_os = "macos") {
        std::process::Command::new("open").arg(url).spawn()
    } else if cfg!(windows) {
        std::process::Command::new("cmd").args(["/C", "start", "", url]).spawn()
    } else {
        std::process::Command::new("xdg-open").arg(url).spawn()
    };
    drop(command);
}

/// Reads one request from `stream`, its head within `head_timeout` (all of it, not each
/// read: a client sending a byte a second holds no connection longer), answers it and closes
/// the connection.
fn serve_connection(mut stream: TcpStream, explorer: &Explorer, head_timeout: Duration) {
    let _ = stream.set_write_timeout(Some(Duration::from_secs(30)));
    let mut timed = Deadline { stream: &mut stream, at: Instant::now() + head_timeout };
    let (response, head_only) = match read_head(&mut timed) {
        Ok(head) => {
            let answered =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| respond(&head, explorer)));
            let head_only = head.starts_with("HEAD ");
            (answered.unwrap_or_else(|_| Response::error(500, "the server failed here")), head_only)
        }
        Err(response) => (response, false),
    };
    let _ = response.send(&mut stream, head_only);
    // Close our side, then read what the client still sends (a refused oversized request)
    // for a moment: closing with unread bytes would reset the connection, and the client
    // could lose the answer.
    // Half a second at most in all, so that a client sending slowly holds nothing.
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let mut timed = Deadline { stream: &mut stream, at: Instant::now() + DRAIN_TIME };
    let mut sink = [0; 4096];
    let mut drained = 0;
    while drained < (1 << 20) {
        match timed.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => drained += n,
        }
    }
}

/// How long a connection is read after its answer (see [`serve_connection`]).
const DRAIN_TIME: Duration = Duration::from_millis(500);

/// A stream whose reads fail with [`io::ErrorKind::TimedOut`] once `at` has passed.
struct Deadline<'a> {
    stream: &'a mut TcpStream,
    at: Instant,
}

impl Read for Deadline<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.at.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        match self.stream.read(buf) {
            // A read timeout is `WouldBlock` on Unix, `TimedOut` on Windows.
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => Err(io::ErrorKind::TimedOut.into()),
            other => other,
        }
    }
}

/// The request's head, up to the blank line; an error response when it is too long, not
/// text, cut off, or not sent in time.
fn read_head(stream: &mut impl Read) -> Result<String, Response> {
    let mut head = Vec::with_capacity(1024);
    let mut buf = [0; 2048];
    loop {
        if let Some(end) = find_blank_line(&head) {
            if end > MAX_HEAD {
                return Err(Response::error(431, "the request head is longer than 8 KiB"));
            }
            head.truncate(end);
            break;
        }
        if head.len() > MAX_HEAD {
            return Err(Response::error(431, "the request head is longer than 8 KiB"));
        }
        match stream.read(&mut buf) {
            Err(e) if e.kind() == io::ErrorKind::TimedOut => {
                return Err(Response::error(408, "the request head did not come in time"));
            }
            Ok(0) | Err(_) => {
                if head.is_empty() {
                    return Err(Response::error(400, "no request"));
                }
                break;
            }
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
    }
    String::from_utf8(head).map_err(|_| Response::error(400, "the request is not text"))
}

/// Where the head ends: the first blank line.
fn find_blank_line(bytes: &[u8]) -> Option<usize> {
    let crlf = bytes.windows(4).position(|w| w == b"\r\n\r\n");
    let lf = bytes.windows(2).position(|w| w == b"\n\n");
    match (crlf, lf) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// An HTTP response: status, content type, body, and more headers.
struct Response {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
    extra: Vec<String>,
}

impl Response {
    fn json(body: Vec<u8>) -> Response {
        Response { status: 200, content_type: "application/json", body, extra: Vec::new() }
    }

    /// `{"error": message}` with `status`.
    fn error(status: u16, message: &str) -> Response {
        let body = format!("{{\"error\":{}}}\n", json_text(message)).into_bytes();
        Response { status, content_type: "application/json", body, extra: Vec::new() }
    }

    fn send(&self, out: &mut impl Write, head_only: bool) -> io::Result<()> {
        let reason = match self.status {
            200 => "OK",
            204 => "No Content",
            400 => "Bad Request",
            404 => "Not Found",
            405 => "Method Not Allowed",
            408 => "Request Timeout",
            431 => "Request Header Fields Too Large",
            500 => "Internal Server Error",
            503 => "Service Unavailable",
            _ => "",
        };
        let mut head = format!(
            "HTTP/1.1 {} {reason}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\
             Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n",
            self.status,
            self.content_type,
            self.body.len()
        );
        for line in &self.extra {
            head.push_str(line);
            head.push_str("\r\n");
        }
        head.push_str("\r\n");
        out.write_all(head.as_bytes())?;
        if !head_only {
            out.write_all(&self.body)?;
        }
        out.flush()
    }
}

/// The answer to a request head.
fn respond(head: &str, explorer: &Explorer) -> Response {
    let line = head.lines().next().unwrap_or_default();
    let mut parts = line.split(' ');
    let (method, target) = (parts.next().unwrap_or_default(), parts.next().unwrap_or_default());
    if !matches!(method, "GET" | "HEAD") {
        return Response::error(405, "only GET and HEAD");
    }
    let (path, query_text) = target.split_once('?').unwrap_or((target, ""));
    let params = match Params::parse(query_text) {
        Ok(params) => params,
        Err(message) => return Response::error(400, &message),
    };
    let answered = match path {
        "/" | "/index.html" => {
            return Response {
                status: 200,
                content_type: "text/html; charset=utf-8",
                body: PAGE.as_bytes().to_vec(),
                // The page reaches nothing but this server.
                extra: vec!["Content-Security-Policy: default-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline'; img-src 'self' data:".into()],
            };
        }
        "/favicon.ico" => {
            return Response {
                status: 204,
                content_type: "text/plain",
                body: Vec::new(),
                extra: Vec::new(),
            }
        }
        "/api/info" => Ok(info(explorer)),
        "/api/position" => position_json(&params),
        "/api/explore" => query(&params, explorer, None),
        "/api/find" => match params.number("limit") {
            Ok(limit) => query(&params, explorer, Some(limit)),
            Err(message) => Err(message),
        },
        "/api/game" => game(&params, explorer, false),
        "/api/pgn" => game(&params, explorer, true),
        _ => return Response::error(404, "no such page"),
    };
    answered.unwrap_or_else(|message: String| Response::error(400, &message))
}

/// A request's query parameters, percent-decoded.
struct Params(Vec<(String, String)>);

impl Params {
    fn parse(query: &str) -> Result<Params, String> {
        let mut params = Vec::new();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            params.push((decode(key)?, decode(value)?));
        }
        Ok(Params(params))
    }

    /// The last value of `key`, if given and not empty.
    fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty())
    }

    /// `key` as a number, if given.
    fn number<T: std::str::FromStr>(&self, key: &str) -> Result<Option<T>, String> {
        self.get(key)
            .map(|v| v.trim().parse().map_err(|_| format!("{key}: not a number: {v:?}")))
            .transpose()
    }

    /// The index filter of `result`, `since`, `until`, `min_rating`, `max_rating`, `speed`.
    fn filter(&self) -> Result<Filter, String> {
        Filter::from_text(
            self.get("result"),
            (self.get("since"), self.get("until")),
            (self.number("min_rating")?, self.number("max_rating")?),
            self.get("speed"),
        )
    }

    /// The position of `fen` (the start if not given) after the UCI `moves` (separated by
    /// spaces or commas) and then the SAN moves of `san` (separated by spaces), and the moves
    /// as played: UCI and SAN.
    fn position(&self) -> Result<(Position, Vec<(String, String)>), String> {
        let mut pos = match self.get("fen") {
            Some(fen) => parse_position(fen.trim()).map_err(|e| format!("bad FEN: {e}"))?,
            None => Position::new(),
        };
        let mut line = Vec::new();
        let moves = self.get("moves").unwrap_or_default();
        for (i, text) in moves.split([' ', ',']).filter(|t| !t.is_empty()).enumerate() {
            if i >= MAX_MOVES {
                return Err(format!("more than {MAX_MOVES} moves"));
            }
            let uci = UciMove::from_ascii(text.as_bytes())
                .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
            let m = pos.resolve_uci(uci).map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
            line.push((text.to_owned(), SanPlus::from_move(&pos, m).to_string()));
            pos.play_unchecked(m);
        }
        let sans = self.get("san").unwrap_or_default();
        for (i, text) in sans.split_whitespace().enumerate() {
            if line.len() >= MAX_MOVES {
                return Err(format!("more than {MAX_MOVES} moves"));
            }
            let san = San::from_ascii(text.as_bytes())
                .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
            let m = san.to_move(&pos).map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
            line.push((
                m.to_uci(pos.castling_mode()).to_string(),
                SanPlus::from_move(&pos, m).to_string(),
            ));
            pos.play_unchecked(m);
        }
        Ok((pos, line))
    }
}

/// `text` with `%XX` escapes and `+` decoded, as UTF-8.
fn decode(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| format!("bad escape in {text:?}"))?;
                out.push(hex);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| format!("not UTF-8: {text:?}"))
}

/// `{"games": G, "indexes": [{"path": P, "games": G, "max_ply": M}]}`.
fn info(explorer: &Explorer) -> Response {
    let games: u64 = explorer.indexes.iter().map(Index::games).sum();
    let mut body = format!("{{\"games\":{games},\"indexes\":[");
    for (i, (index, path)) in explorer.indexes.iter().zip(&explorer.paths).enumerate() {
        let _ = write!(
            body,
            "{}{{\"path\":{},\"games\":{},\"max_ply\":{}}}",
            if i > 0 { "," } else { "" },
            json_text(&path.display().to_string()),
            index.games(),
            index.max_ply()
        );
    }
    body.push_str("]}\n");
    Response::json(body.into_bytes())
}

/// Game `info` as PGN text: its tags, the start position if it is not the standard one, and
/// the moves (`line`, UCI and SAN) with move numbers, in lines of at most 79 characters.
fn pgn_text(
    info: &chessbits_index::GameInfo,
    date: &str,
    start: &Position,
    start_fen: Option<&str>,
    line: &[(String, String)],
) -> String {
    let facts = &info.facts;
    let mut text = String::new();
    let tag = |text: &mut String, name: &str, value: &str| {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(text, "[{name} \"{value}\"]");
    };
    tag(&mut text, "Event", &info.event);
    tag(&mut text, "White", &info.white);
    tag(&mut text, "Black", &info.black);
    tag(&mut text, "Result", &facts.result().to_string());
    if !date.is_empty() {
        tag(&mut text, "Date", &date.replace('-', "."));
    }
    if facts.white_elo > 0 {
        tag(&mut text, "WhiteElo", &facts.white_elo.to_string());
    }
    if facts.black_elo > 0 {
        tag(&mut text, "BlackElo", &facts.black_elo.to_string());
    }
    if let Some(fen) = start_fen {
        tag(&mut text, "SetUp", "1");
        tag(&mut text, "FEN", fen);
    }
    text.push('\n');
    let mut number = start.fullmoves();
    let mut white = start.turn() == chessbits_bitboard::Color::White;
    let mut column = 0;
    for (i, (_, san)) in line.iter().enumerate() {
        let word = if white {
            format!("{number}. {san}")
        } else if i == 0 {
            format!("{number}... {san}")
        } else {
            san.clone()
        };
        if column + word.len() + 1 > 79 {
            text.push('\n');
            column = 0;
        } else if column > 0 {
            text.push(' ');
            column += 1;
        }
        text.push_str(&word);
        column += word.len();
        if !white {
            number += 1;
        }
        white = !white;
    }
    let _ = writeln!(text, "{}{}\n", if column > 0 { " " } else { "" }, facts.result());
    text
}

/// Appends moves as a JSON array's items: `{"uci": ..., "san": ...}`, comma-separated.
fn push_line(body: &mut String, line: &[(String, String)]) {
    for (i, (uci, san)) in line.iter().enumerate() {
        let _ = write!(
            body,
            "{}{{\"uci\":{},\"san\":{}}}",
            if i > 0 { "," } else { "" },
            json_text(uci),
            json_text(san)
        );
    }
}

/// The position after `fen` and `moves`: its FEN, the line in SAN, the legal moves, and how
/// the game stands. The FEN names the en passant square as the index keys it (a pawn stands
/// ready to take, the Polyglot rule), so that a FEN copied from the page finds the position
/// it was copied from, a pinned capturer's included.
fn position_json(params: &Params) -> Result<Response, String> {
    let (pos, line) = params.position()?;
    let fen = fen_of(
        &pos,
        FenOptions { en_passant: EnPassantMode::PseudoLegal, ..FenOptions::default() },
    );
    let mode = pos.castling_mode();
    let mut body = format!("{{\"fen\":{},\"line\":[", json_text(&fen));
    push_line(&mut body, &line);
    body.push_str("],\"legal\":[");
    for (i, &m) in pos.legal_moves().iter().enumerate() {
        let _ = write!(
            body,
            "{}{{\"uci\":\"{}\",\"san\":{},\"from\":{},\"to\":{}}}",
            if i > 0 { "," } else { "" },
            m.to_uci(mode),
            json_text(&SanPlus::from_move(&pos, m).to_string()),
            m.from() as u8,
            m.to() as u8
        );
    }
    let outcome = match pos.outcome() {
        Some(outcome) => json_text(&format!("{outcome:?}")),
        None => "null".into(),
    };
    let _ = writeln!(body, "],\"check\":{},\"outcome\":{outcome}}}", pos.is_check());
    Ok(Response::json(body.into_bytes()))
}

/// `explore` (`limit` `None`) or `find` (`Some(limit)`), as `chessbits index ... --json`.
fn query(
    params: &Params,
    explorer: &Explorer,
    limit: Option<Option<usize>>,
) -> Result<Response, String> {
    let filter = params.filter()?;
    let (pos, _) = params.position()?;
    let mut body = Vec::new();
    let answered = match limit {
        Some(limit) => {
            find(&explorer.indexes, &explorer.paths, &pos, &filter, limit, true, &mut body)
        }
        None => explore(&explorer.indexes, &explorer.paths, &pos, &filter, true, &mut body),
    };
    match answered {
        Ok(()) => Ok(Response::json(body)),
        Err(e) => Ok(Response::error(500, &e.to_string())),
    }
}

/// Game `game` (its number) of index `index` (0-based, default 0): its tags and moves as JSON,
/// or as PGN to download (`pgn`).
fn game(params: &Params, explorer: &Explorer, pgn: bool) -> Result<Response, String> {
    let number: u64 = params.number("game")?.ok_or("give the game's number: game=N")?;
    let at: usize = params.number("index")?.unwrap_or(0);
    let index = explorer.indexes.get(at).ok_or_else(|| format!("no index {at}"))?;
    let record = index
        .record_of(number)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("no game {number} in the index"))?;
    let info = index.game(record).map_err(|e| e.to_string())?;
    let (start, moves) = index.mainline(record).map_err(|e| e.to_string())?;
    let start_fen = (start != Position::new()).then(|| {
        fen_of(
            &start,
            FenOptions { en_passant: EnPassantMode::PseudoLegal, ..FenOptions::default() },
        )
    });
    let mut pos = start;
    let mut line = Vec::with_capacity(moves.len());
    for &m in &moves {
        let san = SanPlus::from_move(&pos, m).to_string();
        line.push((m.to_uci(pos.castling_mode()).to_string(), san));
        if m.is_null() {
            pos.play_null_unchecked();
        } else {
            pos.play_unchecked(m);
        }
    }
    let facts = &info.facts;
    let date = chessbits_index::format_date(facts.date);
    if pgn {
        let text = pgn_text(&info, &date, &start, start_fen.as_deref(), &line);
        return Ok(Response {
            status: 200,
            content_type: "application/x-chess-pgn; charset=utf-8",
            body: text.into_bytes(),
            extra: vec![format!(
                "Content-Disposition: attachment; filename=\"game-{}.pgn\"",
                info.number
            )],
        });
    }
    let mut body = format!(
        "{{\"game\":{},\"white\":{},\"black\":{},\"result\":\"{}\",\"date\":{},\"white_elo\":{},\"black_elo\":{},\"speed\":\"{}\",\"event\":{},\"start_fen\":{},\"moves\":[",
        info.number,
        json_text(&info.white),
        json_text(&info.black),
        facts.result(),
        json_text(&date),
        elo_json(facts.white_elo),
        elo_json(facts.black_elo),
        info.speed(),
        json_text(&info.event),
        start_fen.as_deref().map_or("null".into(), json_text),
    );
    push_line(&mut body, &line);
    body.push_str("]}\n");
    Ok(Response::json(body.into_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_decode_and_bad_escapes_are_refused() {
        let params = Params::parse("fen=8%2F8+w&moves=e2e4%20e7e5&x").unwrap();
        assert_eq!(params.get("fen"), Some("8/8 w"));
        assert_eq!(params.get("moves"), Some("e2e4 e7e5"));
        assert_eq!(params.get("x"), None);
        assert!(Params::parse("fen=%zz").is_err());
        assert!(Params::parse("fen=%e2%82").is_err(), "not UTF-8");
        assert!(Params::parse("fen=%4").is_err());
    }

    /// Requests mutated at random (bytes flipped, cut, repeated, percent escapes and
    /// separators dropped in) over every endpoint: every one gets a response, never a panic;
    /// its status is one the server gives; an error is JSON naming the trouble; and a 200 from
    /// the API is a JSON value. The fuzzing of the request parser, replayed by `cargo test`.
    #[test]
    fn mutated_requests_get_answers_never_panics() {
        use chessbits_index::{IndexBuilder, PreparedGame};
        let pgn = chessbits_testkit::LICHESS_SAMPLE;
        let mut builder = IndexBuilder::new(BuildOptions::default().with_popular(3));
        let mut reader = chessbits_pgn::SliceReader::new(pgn);
        let mut games = chessbits_cbg::GameBuilder::default();
        while let Some(game) = reader.read_game(&mut games) {
            let Ok(mut game) = game else { continue };
            game.number = reader.games();
            builder.push(PreparedGame::new(&game, u32::MAX).unwrap()).unwrap();
        }
        let mut bytes = Vec::new();
        builder.finish(&mut bytes).unwrap();
        let explorer = Explorer {
            indexes: vec![Index::from_bytes(bytes).unwrap()],
            paths: vec![PathBuf::from("sample")],
        };
        let seeds = [
            "GET / HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /api/explore?moves=e2e4%20e7e5&speed=blitz,bullet&min_rating=1600 HTTP/1.1\r\n\r\n",
            "GET /api/find?fen=rnbqkbnr%2Fpppp1ppp%2F8%2F4p3%2F4P3%2F8%2FPPPP1PPP%2FRNBQKBNR+w+KQkq+-+0+2&limit=3 HTTP/1.1\r\n\r\n",
            "GET /api/position?moves=e2e4&san=e5%20Nf3 HTTP/1.1\r\n\r\n",
            "GET /api/game?game=1&index=0 HTTP/1.1\r\n\r\n",
            "HEAD /api/pgn?game=2 HTTP/1.1\r\n\r\n",
            "GET /api/info HTTP/1.0\n\n",
            "GET /api/explore?result=1-0&since=2021-10&until=2021-12 HTTP/1.1\r\n\r\n",
        ];
        let inserts: [&[u8]; 9] = [b"%", b"%2", b"%ff", b"&", b"=", b"?", b"\r\n", b" ", b"%00"];
        let mut rng = chessbits_testkit::Rng::new(0x5e4e);
        let mut answered = [0u32; 6];
        for round in 0..6000 {
            let mut request = seeds[round % seeds.len()].as_bytes().to_vec();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(request.len() + 1);
                match rng.below(5) {
                    0 if at < request.len() => request[at] ^= 1 << rng.below(8),
                    1 => request.truncate(at),
                    2 => {
                        let insert = inserts[rng.below(inserts.len())];
                        request.splice(at..at, insert.iter().copied());
                    }
                    3 if at < request.len() => {
                        let end = (at + 1 + rng.below(40)).min(request.len());
                        let piece = request[at..end].to_vec();
                        request.splice(at..at, piece);
                    }
                    _ => request.insert(at, rng.below(256) as u8),
                }
            }
            let response = match read_head(&mut request.as_slice()) {
                Ok(head) => respond(&head, &explorer),
                Err(response) => response,
            };
            let kind = [200, 400, 404, 405, 431, 500].iter().position(|s| *s == response.status);
            let kind = kind.unwrap_or_else(|| panic!("status {}", response.status));
            answered[kind] += 1;
            let body = String::from_utf8(response.body.clone()).expect("UTF-8");
            if response.status != 200 {
                assert!(body.starts_with("{\"error\":\""), "{body}");
            } else if response.content_type == "application/json" {
                assert!(body.starts_with('{') || body.starts_with('['), "{body}");
            }
            let mut sent = Vec::new();
            response.send(&mut sent, false).unwrap();
        }
        // Both answers and refusals were reached.
        assert!(answered[0] > 500 && answered[1] > 500, "{answered:?}");
    }

    #[test]
    fn heads_end_at_the_blank_line_and_are_bounded() {
        let mut input: &[u8] = b"GET / HTTP/1.1\r\nHost: x\r\n\r\nbody";
        assert_eq!(read_head(&mut input).ok().as_deref(), Some("GET / HTTP/1.1\r\nHost: x"));
        let long = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(MAX_HEAD + 10));
        let mut input = long.as_bytes();
        assert_eq!(read_head(&mut input).err().map(|r| r.status), Some(431));
        let mut input: &[u8] = b"";
        assert_eq!(read_head(&mut input).err().map(|r| r.status), Some(400));
    }
}
