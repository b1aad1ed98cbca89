//! Fitting a new [`Model`] from positions (`cargo xtask fit-compact`): [`Fitter`] counts what
//! the model codes, and [`Model::to_rust`] writes the fitted tables as the source of
//! `compact_model.rs`. Behind the `fit` feature: programs that only code positions never
//! compile it.

use std::collections::HashMap;

use chessbits_state::Position;

use super::*;

/// Counts what the model codes over many positions, to fit a new [`Model`]
/// (`cargo xtask fit-compact` regenerates the built-in one with it).
///
/// ```
/// use chessbits_codec::compact::Fitter;
/// use chessbits_state::Position;
///
/// let mut fitter = Fitter::new();
/// fitter.add(&Position::new());
/// let model = fitter.model(1);
/// let bytes = model.encode(&Position::new(), false);
/// assert_eq!(model.decode(bytes.as_bytes()).unwrap(), Position::new());
/// ```
#[derive(Clone, Debug)]
pub struct Fitter {
    occupancy: HashMap<u32, Box<[u64; OCCUPANCIES]>>,
    pieces: HashMap<u32, [u64; PIECES]>,
    turn: [u64; 2],
    castle: [[u64; 2]; 2],
    castle_rook: [u64; 8],
    ep: [[u64; 2]; 2],
    halfmoves: [u64; HALFMOVE_DIRECT + 1],
    fullmove_bits: [[u64; 33]; FULLMOVE_CONTEXTS],
    positions: u64,
}

impl Default for Fitter {
    fn default() -> Fitter {
        Fitter::new()
    }
}

impl Fitter {
    /// A fitter that has seen nothing.
    pub fn new() -> Fitter {
        Fitter {
            occupancy: HashMap::new(),
            pieces: HashMap::new(),
            turn: [0; 2],
            castle: [[0; 2]; 2],
            castle_rook: [0; 8],
            ep: [[0; 2]; 2],
            halfmoves: [0; HALFMOVE_DIRECT + 1],
            fullmove_bits: [[0; 33]; FULLMOVE_CONTEXTS],
            positions: 0,
        }
    }

    /// How many positions were added.
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// Counts the symbols of `pos`, clocks included.
    pub fn add(&mut self, pos: &Position) {
        self.positions += 1;
        let chess960 = pos.castling_mode() == CastlingMode::Chess960;
        let mut scan = Scan::new(chess960);
        let mut below = 0;
        for rank in 0..8 {
            let occupancy = rank_occupancy(pos.board(), rank);
            let key = scan.occupancy_key(rank, below) as u32;
            for key in [tagged(0, key), tagged(1, key >> 8)] {
                self.occupancy.entry(key).or_insert_with(|| Box::new([0; OCCUPANCIES]))
                    [occupancy] += 1;
            }
            below = occupancy;
        }
        scan.set_occupied(pos.board().occupied().0);
        for sq in pos.board().occupied() {
            let (sq, symbol) = (sq as usize, symbol_at(pos, sq));
            for key in scan.keys(sq) {
                self.pieces.entry(key).or_insert([0; PIECES])[(symbol as usize - 1) % PIECES] += 1;
            }
            scan.push(sq, symbol);
        }
        let board = &Placement::of(pos.board());
        self.turn[pos.turn() as usize] += 1;
        let castles = pos.castles();
        for color in Color::ALL {
            let back = back_rank_rooks(board, color);
            for side in CastlingSide::ALL {
                let candidates = castling_candidates(back, side, chess960);
                if candidates.is_empty() {
                    continue;
                }
                let rook = castles.rook(color, side);
                self.castle[castle_context(board, color, candidates)]
                    [usize::from(rook.is_some())] += 1;
                if let Some(rook) = rook.filter(|_| candidates.more_than_one()) {
                    if let Some(index) = corner_first(candidates, side).position(|sq| sq == rook) {
                        self.castle_rook[index.min(7)] += 1;
                    }
                }
            }
        }
        let candidates = ep_candidates(board, pos.turn());
        if candidates.any() {
            self.ep[usize::from(candidates.more_than_one())]
                [usize::from(pos.ep_square().is_some())] += 1;
        }
        self.halfmoves[(pos.halfmoves() as usize).min(HALFMOVE_DIRECT)] += 1;
        let bits = 32 - pos.fullmoves().saturating_sub(1).leading_zeros();
        self.fullmove_bits[fullmove_context(board)][bits as usize] += 1;
    }

    /// The model of the counts: an occupancy table for every context seen at least
    /// `min_count` times and a piece table for every context where at least `min_count`
    /// pieces were seen (at least [`MIN_COUNT_CHESS960`] for the Chess960 back ranks, whose
    /// games are few), and the fallbacks always; each table's frequencies proportional to its
    /// counts, with a frequency of at least 1 for every symbol that is possible there.
    pub fn model(&self, min_count: u64) -> Model {
        let min_960 = min_count.min(MIN_COUNT_CHESS960);
        // Chess960 contexts: the back-rank pieces' and the back-rank occupancies'.
        let min_pieces = |key: u32| if key >> 28 == 5 { min_960 } else { min_count };
        let min_occupancy =
            |key: u32| if key & 0x0fff_ffff >= 1 << 11 { min_960 } else { min_count };
        // The pieces: the contexts seen often enough, the most seen first; the fallbacks (the
        // squares' own, the back-rank squares') always.
        let fallback = |key: u32| matches!(key >> 28, 4 | 6);
        let mut kept: Vec<(u64, u32)> = self
            .pieces
            .iter()
            .map(|(&key, counts)| (counts.iter().sum::<u64>(), key))
            .filter(|&(seen, key)| fallback(key) || seen >= min_pieces(key))
            .collect();
        kept.sort_unstable_by_key(|&(seen, key)| (!fallback(key), core::cmp::Reverse(seen), key));
        kept.truncate(MAX_TABLES);
        let mut pieces: Vec<(u32, [u16; PIECES])> = kept
            .iter()
            .map(|&(_, key)| {
                let counts = self.pieces.get(&key).copied().unwrap_or([0; PIECES]);
                (key, normalize(&counts, &allowed_pieces(key)))
            })
            .collect();
        // Every fallback has its table, seen or not.
        for key in (0..64).map(|sq| tagged(4, sq)).chain((0..16).map(|side| tagged(6, side))) {
            if !self.pieces.contains_key(&key) {
                pieces.push((key, normalize(&[0; PIECES], &allowed_pieces(key))));
            }
        }
        pieces.sort_unstable_by_key(|&(key, _)| key);

        // The occupancies: the same, the ranks' own tables always.
        let mut occupancy: Vec<(u32, Vec<u16>)> = self
            .occupancy
            .iter()
            .filter(|&(&key, counts)| {
                key >> 28 == 1 || counts.iter().sum::<u64>() >= min_occupancy(key)
            })
            .map(|(&key, counts)| (key, normalize(counts, &[true; OCCUPANCIES]).to_vec()))
            .collect();
        for key in (0..16).map(|rank| tagged(1, rank)) {
            if !self.occupancy.contains_key(&key) {
                let uniform = normalize(&[0; OCCUPANCIES], &[true; OCCUPANCIES]);
                occupancy.push((key, uniform.to_vec()));
            }
        }
        occupancy.sort_unstable_by_key(|(key, _)| *key);
        occupancy.truncate(MAX_TABLES);

        let all = |n| [true; 65][..n].to_vec();
        Model::new(Freqs {
            occupancy,
            pieces,
            turn: normalize(&self.turn, &all(2)),
            castle: self.castle.map(|c| normalize(&c, &all(2))),
            castle_rook: normalize(&self.castle_rook, &all(8)),
            ep: self.ep.map(|c| normalize(&c, &all(2))),
            halfmoves: normalize(&self.halfmoves, &all(HALFMOVE_DIRECT + 1)),
            fullmove_bits: self.fullmove_bits.map(|c| normalize(&c, &all(33))),
        })
    }
}

/// Which pieces a piece context allows (by symbol less one): no pawn on the first or last
/// rank, no king already coded (where the context says).
fn allowed_pieces(key: u32) -> Vec<bool> {
    let level = key >> 28;
    let key = key & 0x0fff_ffff;
    // Divide away the features below the square: (n, s) = 196, k = 4 (always 0 now), cnt = 8, fp = 4; on a
    // Chess960 back rank, aux = 14 and k = 4 below (side, file).
    let (back, kings) = match level {
        0 => (!(8..56).contains(&(key / (196 * 128))), Some(key / 32 % 4)),
        1 => (!(8..56).contains(&(key / (196 * 32))), Some(key / 8 % 4)),
        2 => (!(8..56).contains(&(key / (196 * 4))), Some(key % 4)),
        3 => (!(8..56).contains(&(key / 196)), None),
        4 => (!(8..56).contains(&key), None),
        5 => (true, Some(key % 4)),
        _ => (true, None),
    };
    (0..PIECES)
        .map(|piece| match piece {
            0 | 6 => !back,
            5 => kings.is_none_or(|k| k & 1 == 0),
            11 => kings.is_none_or(|k| k & 2 == 0),
            _ => true,
        })
        .collect()
}

/// Frequencies summing to [`TOTAL`] in proportion to `counts`: at least 1 for an allowed
/// symbol, 0 for the others.
/// Writes context tables for [`Model::to_rust`] as `static NAME: [(u32, [u16; N]); len]`:
/// each context's key and its `n` frequencies.
fn write_tables<'a>(
    out: &mut String,
    name: &str,
    what: &str,
    n: usize,
    tables: impl ExactSizeIterator<Item = (u32, &'a [u16])>,
) {
    use core::fmt::Write;
    let _ = writeln!(
        out,
        "/// The {what} tables: the context key (level << 28 | key) and the {n} frequencies."
    );
    let _ = writeln!(out, "#[rustfmt::skip]");
    let _ = writeln!(out, "static {name}: [(u32, [u16; {n}]); {}] = [", tables.len());
    for (key, freqs) in tables {
        let list = freqs.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(",");
        let _ = writeln!(out, "({key},[{list}]),");
    }
    let _ = writeln!(out, "];");
}

fn normalize<const N: usize>(counts: &[u64; N], allowed: &[bool]) -> [u16; N] {
    let allowed = |i: usize| allowed.get(i).copied().unwrap_or(false);
    let n_allowed = (0..N).filter(|&i| allowed(i)).count() as u64;
    let total: u64 = (0..N).filter(|&i| allowed(i)).map(|i| counts[i]).sum();
    let budget = u64::from(TOTAL) - n_allowed;
    let mut freqs = [0u16; N];
    for (i, f) in freqs.iter_mut().enumerate() {
        if allowed(i) {
            let share =
                (counts[i] * budget).checked_div(total).unwrap_or(budget / n_allowed.max(1));
            *f = (1 + share) as u16;
        }
    }
    let sum: u64 = freqs.iter().map(|&f| u64::from(f)).sum();
    if let Some(max) =
        (0..N).filter(|&i| allowed(i)).max_by_key(|&i| (freqs[i], core::cmp::Reverse(i)))
    {
        freqs[max] += (u64::from(TOTAL) - sum) as u16;
    }
    freqs
}

impl Model {
    /// The model as the Rust source of `compact_model.rs`, after `header` (comment lines).
    pub fn to_rust(&self, header: &str) -> String {
        use core::fmt::Write;
        let f = &self.freqs;
        let mut out = String::new();
        for line in header.lines() {
            let _ = writeln!(out, "{}", format!("//! {line}").trim_end());
        }
        let list =
            |values: &[u16]| values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(",");
        let nested = |rows: &[&[u16]]| {
            rows.iter().map(|r| format!("[{}]", list(r))).collect::<Vec<_>>().join(",")
        };
        let _ = writeln!(out, "\nuse super::Freqs;\n");
        let _ = writeln!(out, "/// The fitted frequencies.");
        let _ = writeln!(out, "#[rustfmt::skip]");
        let _ = writeln!(out, "pub(super) fn freqs() -> Freqs {{");
        let _ = writeln!(out, "    Freqs {{");
        let _ = writeln!(
            out,
            "        occupancy: OCCUPANCY.iter().map(|(key, f)| (*key, f.to_vec())).collect(),"
        );
        let _ = writeln!(out, "        pieces: PIECES.to_vec(),");
        let _ = writeln!(out, "        turn: [{}],", list(&f.turn));
        let _ = writeln!(out, "        castle: [{}],", nested(&[&f.castle[0], &f.castle[1]]));
        let _ = writeln!(out, "        castle_rook: [{}],", list(&f.castle_rook));
        let _ = writeln!(out, "        ep: [{}],", nested(&[&f.ep[0], &f.ep[1]]));
        let _ = writeln!(out, "        halfmoves: [{}],", list(&f.halfmoves));
        let rows: Vec<&[u16]> = f.fullmove_bits.iter().map(|r| &r[..]).collect();
        let _ = writeln!(out, "        fullmove_bits: [{}],", nested(&rows));
        let _ = writeln!(out, "    }}\n}}\n");
        let occupancy = f.occupancy.iter().map(|(key, freqs)| (*key, &freqs[..]));
        write_tables(&mut out, "OCCUPANCY", "occupancy", 256, occupancy);
        out.push('\n');
        let pieces = f.pieces.iter().map(|(key, freqs)| (*key, &freqs[..]));
        write_tables(&mut out, "PIECES", "piece", PIECES, pieces);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_keeps_room_for_what_can_happen() {
        assert_eq!(normalize(&[0, 0], &[true, true]), [16384, 16384]);
        assert_eq!(normalize(&[1_000_000, 0], &[true, true]), [32767, 1]);
        assert_eq!(normalize(&[5, 5, 5], &[true, false, true]), [16384, 0, 16384]);
        // A pawn has no room on the back ranks, nor a king already coded.
        let allowed = allowed_pieces(tagged(4, 0));
        assert_eq!(allowed.iter().filter(|&&a| !a).count(), 2);
        // e3 (square 20), empty west and south, both kings coded.
        let kings_seen = tagged(2, (20 * 14 * 14) * 4 + 3);
        assert_eq!(
            allowed_pieces(kings_seen),
            [true, true, true, true, true, false, true, true, true, true, true, false]
        );
        // A Chess960 back rank: no pawns; the white king coded (k = 1).
        assert_eq!(
            allowed_pieces(tagged(5, (3 * 14 + 2) * 4 + 1)),
            [false, true, true, true, true, false, false, true, true, true, true, true]
        );
    }
}
