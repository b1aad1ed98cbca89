//! Generated garbage fed to every `chessbits` subcommand, as a file argument and on standard
//! input: the tool exits with status 0, 1 or 2, never by a panic or a signal, and says
//! what went wrong whenever it does not succeed (on stderr, or as an `error` line of its output
//! for the line-by-line commands).

use chessbits_testkit::Rng;

mod common;

/// Inputs: random bytes, random text over a chess alphabet, and mangled valid inputs.
fn inputs() -> Vec<Vec<u8>> {
    let mut rng = Rng::new(0x5eed);
    let alphabet = b"abcdefgh12345678KQRBNPkqrbnp/-+#=x.O0{}()[]\";$!? \n\t\r\0\xff";
    let valid: [&[u8]; 6] = [
        b"[Event \"e\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n",
        b"startpos;e2e4 e7e5 g1f3\n",
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
        b"256\t2c3bb0da9e5ce8e9ef19ce2e5ee1dc9aea89ab85d4c52e0f2fdc01b3e93f1d57\n",
        b"CBG\x01\x00\x00\x00\x00\x00\x00\x00\x00",
        b"((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((( *",
    ];
    let mut out = vec![Vec::new(), b"\n".to_vec()];
    for i in 0..24 {
        let len = (rng.next() % 2000) as usize;
        let bytes: Vec<u8> = match i % 3 {
            0 => (0..len).map(|_| rng.next() as u8).collect(),
            1 => {
                (0..len).map(|_| alphabet[(rng.next() % alphabet.len() as u64) as usize]).collect()
            }
            _ => {
                let mut v = valid[i / 3 % valid.len()].to_vec();
                for _ in 0..1 + rng.next() % 8 {
                    let at = (rng.next() % v.len() as u64) as usize;
                    v[at] = rng.next() as u8;
                }
                v
            }
        };
        out.push(bytes);
    }
    out
}

/// Runs the tool with `args`, `stdin` on standard input; returns the exit code, stderr, and
/// whether stdout has an `error` line.
fn run(args: &[&str], stdin: &[u8]) -> (Option<i32>, String, bool) {
    // The tool may stop reading early (a usage error): the runner ignores a broken pipe.
    let out = common::run(args, stdin);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let error_line = stdout.lines().any(|l| l.starts_with("error") || l.contains("\terror\t"));
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned(), error_line)
}

#[test]
fn garbage_never_crashes_any_subcommand() {
    let dir = std::env::temp_dir().join(format!("chessbits-garbage-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let file = dir.join("input");
    let file = file.to_str().expect("a UTF-8 temp path");
    let out = dir.join("out.cbg");
    let out = out.to_str().expect("a UTF-8 temp path");
    let commands: Vec<Vec<&str>> = vec![
        vec!["pgn", file, "--to", "uci"],
        vec!["pgn", file, "--to", "pgn"],
        vec!["pgn", "-", "--to", "moves:san-like"],
        vec!["san"],
        vec!["pack", file, "-o", out],
        vec!["unpack", file, "--to", "uci"],
        vec!["unpack", file, "--to", "pgn", "--game", "2"],
        vec!["encode", "--format", "grouped+state14"],
        vec!["encode", "--format", "compact"],
        vec!["decode", "--format", "packed"],
        vec!["decode", "--format", "compact+clocks"],
        vec!["decode", "--format", "rle:auto"],
        vec!["no-such-command"],
        vec!["pgn", "--to", "nonsense", file],
    ];
    let mut runs = 0;
    for input in inputs() {
        std::fs::write(file, &input).expect("write the input");
        for args in &commands {
            let (code, stderr, error_line) = run(args, &input);
            let shown = String::from_utf8_lossy(&input[..input.len().min(80)]).into_owned();
            assert!(
                matches!(code, Some(0..=2)),
                "{args:?} on {shown:?}: exit {code:?} (a signal if None)\n{stderr}"
            );
            assert!(!stderr.contains("panicked"), "{args:?} on {shown:?}: {stderr}");
            if code != Some(0) {
                let said = !stderr.trim().is_empty() || error_line;
                assert!(said, "{args:?} on {shown:?}: no message");
            }
            runs += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(runs > 300);
}
