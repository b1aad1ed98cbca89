//! The perft suites of this folder, compiled in, for the tests of every crate: include it with
//! `#[path = "../../../testdata/perft/suites.rs"] mod suites;` (the `include_str!` paths are
//! relative to this file, so they hold from any crate).

/// Every suite as `(file name, text)`, standard first.
#[allow(dead_code, reason = "each test uses what it needs")]
pub const SUITES: [(&str, &str); 5] = [
    ("standard.epd", include_str!("standard.epd")),
    ("perftsuite.epd", include_str!("perftsuite.epd")),
    ("random.epd", include_str!("random.epd")),
    ("chess960.epd", include_str!("chess960.epd")),
    ("tricky.epd", include_str!("tricky.epd")),
];
