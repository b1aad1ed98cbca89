//! The fixed positions that the chessbits benchmarks run on, shared by the criterion benches
//! (`cargo bench -p chessbits-benches`) and the peer comparison in `benches/compare`.
//!
//! The perft suites of `testdata/perft` are compiled in with `include_str!`, so every run of a
//! benchmark sees the same positions: [`standard`] gives the standard perft positions by name with
//! their known node counts, [`suite`] any one suite, and [`movegen_set`] the ~50 positions of the
//! move generation benchmark. Keep these sets fixed: results are only comparable run to run while
//! they are.
//!
//! ```
//! let standard = chessbits_benches::standard();
//! assert_eq!(standard[1].name, "kiwipete");
//! assert_eq!(standard[1].nodes(3), Some(97_862));
//! assert_eq!(chessbits_benches::movegen_set().len(), 51);
//! ```
#![forbid(unsafe_code)]

use chessbits_notation::epd::Epd;
use chessbits_state::Position;

/// The perft suites of `testdata/perft` as `(name, EPD text)`, standard first (the tests' own
/// list, so that both see the same positions).
pub use chessbits_testkit::SUITES;

/// The names of the positions of `standard.epd`, in file order (the chessprogramming.org perft
/// positions; position 4 appears twice, as given and mirrored).
pub const STANDARD_NAMES: [&str; 7] = [
    "startpos",
    "kiwipete",
    "position3",
    "position4",
    "position4-mirrored",
    "position5",
    "position6",
];

/// How many positions [`movegen_set`] takes from each suite other than `standard`.
const MOVEGEN_PER_SUITE: usize = 11;

/// A position of a perft suite with its known node counts.
#[derive(Clone, Debug)]
pub struct EpdPosition {
    /// A name to print: the standard position's name, or `suite:line` (line counted from 1).
    pub name: String,
    /// The six-field FEN as chessbits prints it (X-FEN castling for Chess960): the same text
    /// as the suite line's FEN for every line of these suites.
    pub fen: String,
    /// The parsed position.
    pub position: Position,
    /// `perft[d - 1]` is the node count at depth `d`, for the depths the suite gives.
    pub perft: Vec<u64>,
}

impl EpdPosition {
    /// The known node count at `depth`, if the suite gives it (depth 0 is always 1).
    pub fn nodes(&self, depth: u32) -> Option<u64> {
        match depth {
            0 => Some(1),
            d => self.perft.get(d as usize - 1).copied(),
        }
    }
}

/// The positions of one suite of [`SUITES`] by name, in file order.
///
/// # Panics
/// If `name` is not a suite of [`SUITES`], or if a line of the compiled-in suite does not parse
/// (the suites are fixed test data, checked by the perft tests).
pub fn suite(name: &str) -> Vec<EpdPosition> {
    let Some(&(_, text)) = SUITES.iter().find(|(n, _)| *n == name) else {
        panic!("no perft suite named {name:?}");
    };
    let lines = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'));
    lines
        .enumerate()
        .map(|(i, line)| {
            let label = match name {
                "standard" => STANDARD_NAMES.get(i).map(|n| n.to_string()),
                _ => None,
            };
            parse_line(line, label.unwrap_or_else(|| format!("{name}:{}", i + 1)))
        })
        .collect()
}

/// The standard perft positions (`testdata/perft/standard.epd`), named by [`STANDARD_NAMES`].
pub fn standard() -> Vec<EpdPosition> {
    suite("standard")
}

/// The ~50 positions of the move generation benchmark: the standard positions, then 11 positions
/// spread evenly through each other suite (lines 1, 1 + n/11, 1 + 2n/11, ...).
pub fn movegen_set() -> Vec<EpdPosition> {
    let mut set = standard();
    for &(name, _) in &SUITES[1..] {
        let all = suite(name);
        let n = all.len();
        set.extend((0..MOVEGEN_PER_SUITE.min(n)).map(|i| all[i * n / MOVEGEN_PER_SUITE].clone()));
    }
    set
}

fn parse_line(line: &str, name: String) -> EpdPosition {
    let epd: Epd = line.parse().unwrap_or_else(|e| panic!("{name}: bad EPD {line:?}: {e}"));
    let fen = epd.fen().to_string();
    let position =
        epd.to_position().unwrap_or_else(|e| panic!("{name}: illegal position {fen:?}: {e}"));
    let perft = epd
        .perft_counts()
        .enumerate()
        .map(|(i, (depth, nodes))| match depth as usize == i + 1 {
            true => nodes,
            false => panic!("{name}: depth {depth} where {} was expected", i + 1),
        })
        .collect();
    EpdPosition { name, fen, position, perft }
}

/// The PGN files the speed examples read: those given on the command line, else every `.pgn`
/// of the shared corpus (`../shared/corpus`), sorted.
///
/// # Panics
/// If no file is given and the corpus directory cannot be listed: the examples are tools to
/// be run by hand, where that is the message wanted.
pub fn pgn_files_from_args() -> Vec<std::path::PathBuf> {
    let args: Vec<std::path::PathBuf> = std::env::args().skip(1).map(Into::into).collect();
    if !args.is_empty() {
        return args;
    }
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus"));
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .expect("no corpus")
        .map(|e| e.expect("corpus entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_suite_parses_and_standard_is_named() {
        for (name, _) in SUITES {
            assert!(!suite(name).is_empty(), "{name}");
        }
        let names: Vec<String> = standard().into_iter().map(|p| p.name).collect();
        assert_eq!(names, STANDARD_NAMES);
        let set = movegen_set();
        assert_eq!(set.len(), 7 + 4 * MOVEGEN_PER_SUITE);
        assert_eq!(set[7].name, "perftsuite:1");
        // The printed FEN is the suite's own text.
        for (name, text) in SUITES {
            let lines =
                text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'));
            for (p, line) in suite(name).iter().zip(lines) {
                assert!(line.starts_with(&format!("{} ;D1 ", p.fen)), "{}: {line}", p.name);
            }
        }
    }
}
