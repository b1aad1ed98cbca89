//! The PGN workloads: chessbits' reader against pgn-reader (with shakmaty resolving SAN), on the
//! same files held in memory, single-threaded.
//!
//! - `parse`: every game's tags and mainline tokens are read (SAN tokens parsed, variations
//!   skipped), nothing is resolved: both visitors count the SAN tokens they are handed.
//! - `replay`: the same, and each SAN is resolved against the current position and played
//!   (a bare position, no game history, in both libraries).
//!
//! Both sides must count the same games and moves before they are timed.

use std::ops::ControlFlow;

use chessbits_pgn::{Skip as CbSkip, SliceReader, Visitor as CbVisitor};
use chessbits_notation::san::SanPlus as CbSanPlus;
use chessbits_state::Position as CbPosition;
use shakmaty::{Chess, Position as _};

/// Counts per file: (games, SAN tokens).
pub type Counts = (u64, u64);

/// chessbits, parse only: counts games and SAN tokens.
#[derive(Default)]
struct CbCount {
    sans: u64,
}

impl CbVisitor for CbCount {
    type Output = ();
    type Error = core::convert::Infallible;

    fn begin_variation(&mut self) -> CbSkip {
        CbSkip(true)
    }

    fn san(&mut self, _san: CbSanPlus) -> Result<(), Self::Error> {
        self.sans += 1;
        Ok(())
    }

    fn end_game(&mut self) {}
}

/// chessbits, replay: resolves and plays each SAN on a position.
struct CbReplay {
    pos: CbPosition,
    plies: u64,
}

/// The SAN a replay could not resolve.
struct Unresolved;

impl core::fmt::Display for Unresolved {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("a SAN did not resolve")
    }
}

impl CbVisitor for CbReplay {
    type Output = ();
    type Error = Unresolved;

    fn begin_game(&mut self) {
        self.pos = CbPosition::new();
    }

    fn begin_variation(&mut self) -> CbSkip {
        CbSkip(true)
    }

    fn san(&mut self, san: CbSanPlus) -> Result<(), Unresolved> {
        let m = san.san.to_move(&self.pos).map_err(|_| Unresolved)?;
        self.pos.play_unchecked(m);
        self.plies += 1;
        Ok(())
    }

    fn end_game(&mut self) {}
}

/// chessbits over `bytes`: (games, SANs) parse-only, or (games, plies) replayed.
pub fn chessbits(bytes: &[u8], replay: bool) -> Result<Counts, String> {
    let mut reader = SliceReader::new(bytes);
    let mut games = 0;
    if replay {
        let mut v = CbReplay { pos: CbPosition::new(), plies: 0 };
        while let Some(result) = reader.read_game(&mut v) {
            result.map_err(|e| format!("chessbits: {e}"))?;
            games += 1;
        }
        Ok((games, v.plies))
    } else {
        let mut v = CbCount::default();
        while let Some(result) = reader.read_game(&mut v) {
            result.map_err(|e| format!("chessbits: {e}"))?;
            games += 1;
        }
        Ok((games, v.sans))
    }
}

/// pgn-reader, parse only: counts SAN tokens.
struct PrCount {
    sans: u64,
}

impl pgn_reader::Visitor for PrCount {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }

    fn san(&mut self, _m: &mut (), _san: pgn_reader::SanPlus) -> ControlFlow<()> {
        self.sans += 1;
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _m: ()) {}
}

/// pgn-reader with shakmaty, replay: resolves and plays each SAN on a position.
struct PrReplay {
    plies: u64,
    failed: bool,
}

impl pgn_reader::Visitor for PrReplay {
    type Tags = ();
    type Movetext = Chess;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<(), Chess> {
        ControlFlow::Continue(Chess::default())
    }

    fn san(&mut self, pos: &mut Chess, san: pgn_reader::SanPlus) -> ControlFlow<()> {
        match san.san.to_move(pos) {
            Ok(m) => {
                pos.play_unchecked(m);
                self.plies += 1;
                ControlFlow::Continue(())
            }
            Err(_) => {
                self.failed = true;
                ControlFlow::Break(())
            }
        }
    }

    fn end_game(&mut self, _pos: Chess) {}
}

/// pgn-reader over `bytes`: (games, SANs) parse-only, or (games, plies) replayed.
pub fn pgn_reader(bytes: &[u8], replay: bool) -> Result<Counts, String> {
    let mut reader = pgn_reader::Reader::new(bytes);
    let mut games = 0;
    if replay {
        let mut v = PrReplay { plies: 0, failed: false };
        while reader.read_game(&mut v).map_err(|e| e.to_string())?.is_some() {
            games += 1;
        }
        if v.failed {
            return Err("pgn-reader: a SAN did not resolve".to_owned());
        }
        Ok((games, v.plies))
    } else {
        let mut v = PrCount { sans: 0 };
        while reader.read_game(&mut v).map_err(|e| e.to_string())?.is_some() {
            games += 1;
        }
        Ok((games, v.sans))
    }
}
