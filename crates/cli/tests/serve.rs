//! `chessbits serve` over HTTP, as a browser or a script talks to it: every endpoint, the
//! same answers as `chessbits index`, bad input, path traversal, oversized and malformed
//! requests, and a server that stays up through all of them (issue 45).
#![cfg(feature = "serve")]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod common;

use common::{text, BIN};

fn sample() -> String {
    chessbits_testkit::data("games/lichess-2021-10-sample.pgn").display().to_string()
}

/// A temporary index of the sample.
fn index() -> String {
    let dir = std::env::temp_dir().join(format!("chessbits-serve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("sample.cbx").to_string_lossy().into_owned();
    if !std::path::Path::new(&path).exists() {
        let out = common::run(&["index", "build", &sample(), "-o", &path, "-q"], b"");
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    path
}

/// A running server, stopped when dropped.
struct Server {
    child: Child,
    address: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `chessbits serve FILE --port 0` and reads its address from the first line.
fn serve(file: &str) -> Server {
    serve_all(&[file])
}

/// Starts `chessbits serve FILE... --port 0`: several indexes are shards.
fn serve_all(files: &[&str]) -> Server {
    serve_with(files, &[])
}

/// Starts `chessbits serve FILE... --port 0` with more options.
fn serve_with(files: &[&str], options: &[&str]) -> Server {
    let mut child = Command::new(BIN)
        .arg("serve")
        .args(files)
        .args(["--port", "0", "-q"])
        .args(options)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let stderr = child.stderr.take().expect("stderr");
    let mut line = String::new();
    BufReader::new(stderr).read_line(&mut line).expect("a first line");
    let address = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_owned();
    assert!(address.starts_with("127.0.0.1:"), "{line}");
    Server { child, address }
}

/// The status, the headers and the body of a raw request.
fn raw(server: &Server, request: &[u8]) -> (u16, String, Vec<u8>) {
    let mut stream = TcpStream::connect(&server.address).expect("connects");
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    // The server may answer and close before the whole of an oversized request is sent.
    let _ = stream.write_all(request);
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let split = response.windows(4).position(|w| w == b"\r\n\r\n").expect("a head");
    let head = String::from_utf8_lossy(&response[..split]).into_owned();
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status");
    (status, head, response[split + 4..].to_vec())
}

fn get(server: &Server, target: &str) -> (u16, String, String) {
    let request = format!("GET {target} HTTP/1.1\r\nHost: x\r\n\r\n");
    let (status, head, body) = raw(server, request.as_bytes());
    (status, head, text(&body))
}

/// `chessbits index SUBCOMMAND INDEX ARGS --json`.
fn cli_json(subcommand: &str, index: &str, args: &[&str]) -> String {
    let mut all = vec!["index", subcommand, index, "--json"];
    all.extend_from_slice(args);
    let out = common::run(&all, b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

const FEN_AFTER_E4_E5: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";

#[test]
fn the_api_answers_as_the_index_commands_do() {
    let index = index();
    let server = serve(&index);
    for (target, args) in [
        ("/api/explore", vec![]),
        ("/api/explore?moves=e2e4%20e7e5", vec!["--moves", "e2e4 e7e5"]),
        ("/api/explore?fen=rnbqkbnr%2Fpppp1ppp%2F8%2F4p3%2F4P3%2F8%2FPPPP1PPP%2FRNBQKBNR+w+KQkq+-+0+2", vec!["--fen", FEN_AFTER_E4_E5]),
        ("/api/explore?moves=e2e4&speed=bullet&min_rating=1600", vec!["--moves", "e2e4", "--speed", "bullet", "--min-rating", "1600"]),
    ] {
        let (status, head, body) = get(&server, target);
        assert_eq!(status, 200, "{target}: {body}");
        assert!(head.contains("Content-Type: application/json"), "{head}");
        let mut args = args.clone();
        if args.is_empty() {
            args.extend(["--moves", ""]);
        }
        assert_eq!(body, cli_json("explore", &index, &args), "{target}");
    }
    let (status, _, body) = get(&server, "/api/find?moves=e2e4%20e7e5&limit=7");
    assert_eq!(status, 200);
    assert_eq!(body, cli_json("find", &index, &["--moves", "e2e4 e7e5", "--limit", "7"]));
    let (_, _, all) = get(&server, "/api/find?moves=e2e4");
    assert_eq!(all, cli_json("find", &index, &["--moves", "e2e4"]), "no limit: every game");
    let (status, _, info) = get(&server, "/api/info");
    assert_eq!(status, 200);
    assert!(info.starts_with("{\"games\":66,"), "{info}");
}

#[test]
fn positions_games_and_pgn() {
    let server = serve(&index());
    let (status, _, body) = get(&server, "/api/position?moves=e2e4&san=e5%20Nf3");
    assert_eq!(status, 200, "{body}");
    assert!(
        body.contains(r#""fen":"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2""#),
        "{body}"
    );
    assert!(body.contains(r#"{"uci":"g1f3","san":"Nf3"}"#), "{body}");
    // 29 legal moves for black after 1. e4 e5 2. Nf3.
    assert_eq!(body.matches("\"from\":").count(), 29, "{body}");
    // Game 1 of the sample, as the PGN reader reads it.
    let uci = common::run(&["pgn", &sample(), "--to", "uci"], b"");
    let first = text(&uci.stdout).lines().next().unwrap().to_owned();
    let moves: Vec<&str> = first.split('\t').nth(2).unwrap().split(' ').collect();
    let (status, _, game) = get(&server, "/api/game?game=1");
    assert_eq!(status, 200, "{game}");
    assert_eq!(game.matches("\"uci\":").count(), moves.len());
    assert!(game.contains(&format!("{{\"uci\":\"{}\",\"san\":\"e4\"}}", moves[0])), "{game}");
    let (status, head, pgn) = get(&server, "/api/pgn?game=1");
    assert_eq!(status, 200);
    assert!(head.contains("attachment; filename=\"game-1.pgn\""), "{head}");
    // The PGN reads back to the same moves.
    let back = common::run(&["pgn", "-", "--to", "uci"], pgn.as_bytes());
    assert_eq!(
        text(&back.stdout).lines().next().unwrap().split('\t').nth(2),
        first.split('\t').nth(2)
    );
    let (status, _, body) = get(&server, "/api/game?game=999");
    assert_eq!(status, 400);
    assert!(body.contains("no game 999"), "{body}");
    // After a double push whose only capturer is pinned, the FEN keeps the en passant square,
    // as the index keys the position: set back as a FEN, it is the same position.
    let target = "/api/position?fen=7k/4p3/8/K2P3r/8/8/8/8%20b%20-%20-%200%201&moves=e7e5";
    let (status, _, body) = get(&server, target);
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(r#""fen":"7k/8/8/K2Pp2r/8/8/8/8 w - e6 0 2""#), "{body}");
}

#[test]
fn bad_input_is_a_400_with_a_message_and_the_server_stays_up() {
    let server = serve(&index());
    for (target, message) in [
        ("/api/explore?fen=not+a+fen", "bad FEN"),
        ("/api/position?moves=e2e5", "move 1 (e2e5)"),
        ("/api/position?san=e4+e5+Ke3", "move 3 (Ke3)"),
        ("/api/explore?speed=hyperbullet", "unknown speed"),
        ("/api/explore?min_rating=strong", "min_rating: not a number"),
        ("/api/find?limit=-1", "limit: not a number"),
        ("/api/explore?fen=%zz", "bad escape"),
        ("/api/game", "game=N"),
        ("/api/game?game=1&index=3", "no index 3"),
    ] {
        let (status, head, body) = get(&server, target);
        assert_eq!(status, 400, "{target}: {body}");
        assert!(head.contains("application/json"));
        assert!(body.starts_with("{\"error\":") && body.contains(message), "{target}: {body}");
    }
    for target in [
        "/../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/assets/../Cargo.toml",
        "/api",
        "/api/explore/x",
        "//etc/passwd",
    ] {
        let (status, _, body) = get(&server, target);
        assert_eq!(status, 404, "{target}: {body}");
        assert!(!body.contains("root:"), "{target}");
    }
    let (status, _, _) =
        raw(&server, b"POST /api/explore HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc");
    assert_eq!(status, 405);
    let huge = format!("GET /api/explore?fen={} HTTP/1.1\r\n\r\n", "a".repeat(20_000));
    let (status, _, _) = raw(&server, huge.as_bytes());
    assert_eq!(status, 431);
    let many_headers = format!("GET / HTTP/1.1\r\n{}\r\n", "X-A: b\r\n".repeat(2000));
    assert_eq!(raw(&server, many_headers.as_bytes()).0, 431);
    let (status, _, _) = raw(&server, b"\xff\xfe\x00garbage\r\n\r\n");
    assert_eq!(status, 400);
    // 1,200 legal moves (the knights out and back): more than a position may list.
    let moves = vec!["g1f3+g8f6+f3g1+f6g8"; 300].join("+");
    let (status, _, body) = get(&server, &format!("/api/position?moves={moves}"));
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("more than 1000 moves"), "{body}");
    // A client that connects and says nothing does not stop the others.
    let _idle = TcpStream::connect(&server.address).unwrap();
    let (status, _, _) = get(&server, "/api/info");
    assert_eq!(status, 200, "still up");
}

#[test]
fn the_page_is_self_contained_and_small() {
    let server = serve(&index());
    let (status, head, page) = get(&server, "/");
    assert_eq!(status, 200);
    assert!(head.contains("text/html"));
    assert!(head.contains("Content-Security-Policy: default-src 'self'"), "{head}");
    assert!(page.len() < 200 * 1024, "{} bytes", page.len());
    // Nothing from elsewhere: no absolute URL in a src, href or fetch.
    for pattern in ["src=\"http", "href=\"http", "fetch(\"http", "//cdn", "@import"] {
        assert!(!page.contains(pattern), "{pattern}");
    }
    for id in ["board", "explore", "games", "fen", "paste", "flip"] {
        assert!(page.contains(&format!("id=\"{id}\"")), "{id}");
    }
    let (status, head, body) = raw_head(&server);
    assert_eq!(status, 200);
    assert!(head.contains("Content-Length: ") && body.is_empty());
}

/// A HEAD request for the page.
fn raw_head(server: &Server) -> (u16, String, Vec<u8>) {
    raw(server, b"HEAD / HTTP/1.1\r\n\r\n")
}

#[test]
fn a_pgn_file_is_indexed_in_memory_first() {
    let server = serve(&sample());
    let (status, _, body) = get(&server, "/api/explore?moves=e2e4");
    assert_eq!(status, 200);
    assert_eq!(body, cli_json("explore", &index(), &["--moves", "e2e4"]));
}

/// Two shards, each half of the sample's games: explore and find answer over both as
/// `chessbits index` does over both (the counts summed, the games of each shard in turn), and
/// a game is fetched from its shard by `index=`.
#[test]
fn shards_answer_together_and_games_come_from_their_shard() {
    let sample = std::fs::read_to_string(sample()).unwrap();
    let starts: Vec<usize> = sample.match_indices("[Event ").map(|(at, _)| at).collect();
    let half = starts[starts.len() / 2];
    let dir = std::env::temp_dir().join(format!("chessbits-serve-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut shards = Vec::new();
    for (name, part) in [("a", &sample[..half]), ("b", &sample[half..])] {
        let pgn = dir.join(format!("{name}.pgn"));
        std::fs::write(&pgn, part).unwrap();
        let cbx = dir.join(format!("{name}.cbx")).to_string_lossy().into_owned();
        let out = common::run(&["index", "build", &pgn.to_string_lossy(), "-o", &cbx, "-q"], b"");
        assert!(out.status.success(), "{}", text(&out.stderr));
        shards.push(cbx);
    }
    let server = serve_all(&[&shards[0], &shards[1]]);
    let both = |subcommand: &str, args: &[&str]| {
        let mut all = vec!["index", subcommand, &shards[0], &shards[1], "--json"];
        all.extend_from_slice(args);
        let out = common::run(&all, b"");
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let (status, _, explored) = get(&server, "/api/explore?moves=e2e4");
    assert_eq!(status, 200, "{explored}");
    assert_eq!(explored, both("explore", &["--moves", "e2e4"]));
    // The same counts as one index of all the games.
    assert_eq!(explored, cli_json("explore", &index(), &["--moves", "e2e4"]));
    let (_, _, found) = get(&server, "/api/find?moves=e2e4");
    assert_eq!(found, both("find", &["--moves", "e2e4"]));
    // Game 1 of each shard is its own first game.
    let first_white = |part: &str| {
        let at = part.find("[White \"").unwrap() + 8;
        part[at..at + part[at..].find('"').unwrap()].to_owned()
    };
    for (i, part) in [&sample[..half], &sample[half..]].into_iter().enumerate() {
        let (status, _, game) = get(&server, &format!("/api/game?game=1&index={i}"));
        assert_eq!(status, 200, "{game}");
        let white = format!("\"white\":\"{}\"", first_white(part));
        assert!(game.contains(&white), "shard {i}: {game}");
    }
    let (status, _, missing) = get(&server, "/api/game?game=1&index=2");
    assert_eq!(status, 400, "{missing}");
    assert!(missing.contains("no index 2"), "{missing}");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A client that sends its head a byte at a time gets a 408 once the head's time is up, not
/// a connection held for as long as it keeps sending (a trial held all 64 connections for
/// minutes that way: the timeout was each read's). The server answers others afterwards.
#[test]
fn a_head_sent_slowly_is_a_408_when_its_time_is_up() {
    let server = serve_with(&[&index()], &["--head-timeout-ms", "1000"]);
    let mut stream = TcpStream::connect(&server.address).expect("connects");
    stream.set_read_timeout(Some(Duration::from_millis(100))).unwrap();
    let started = Instant::now();
    stream.write_all(b"GET /api/info HTTP/1.1\r\n").unwrap();
    let mut response = Vec::new();
    while started.elapsed() < Duration::from_secs(8) {
        // A header byte every 100 ms: each read sees data long before a read timeout would.
        if stream.write_all(b"X").is_err() {
            break;
        }
        let mut buf = [0; 4096];
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => response.extend_from_slice(&buf[..n]),
            Err(_) => {}
        }
    }
    let elapsed = started.elapsed();
    let text = String::from_utf8_lossy(&response);
    assert!(text.starts_with("HTTP/1.1 408 "), "{text:?} after {elapsed:?}");
    assert!(elapsed < Duration::from_secs(5), "answered after {elapsed:?}");
    assert_eq!(get(&server, "/api/info").0, 200);
}
