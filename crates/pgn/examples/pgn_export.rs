//! Reads PGN games and writes them back in export format.
//!
//! `cargo run -p chessbits-pgn --example pgn_export -- FILE [FIRST [COUNT]]` writes games
//! FIRST.. (from 1) of FILE to standard output, and errors to standard error.

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: pgn_export FILE [FIRST [COUNT]]");
    let first: usize = args.next().map_or(1, |a| a.parse().expect("FIRST"));
    let count: usize = args.next().map_or(usize::MAX, |a| a.parse().expect("COUNT"));
    let bytes = std::fs::read(path).expect("read");
    let games = chessbits_pgn::read_games(&bytes).skip(first.saturating_sub(1)).take(count);
    for (i, game) in games.enumerate() {
        match game {
            Ok(game) => {
                if i > 0 {
                    println!();
                }
                print!("{game}");
            }
            Err(err) => eprintln!("{err}"),
        }
    }
}
