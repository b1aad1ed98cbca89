//! `rle:K` and `rle:auto`: the board as runs of equal squares.
//!
//! # Layout
//!
//! The 64 squares a1, b1, ..., h8 (the order of [`nibbles`](crate::classic::nibbles)) are cut into runs of
//! equal codes, each written as
//!
//! ```text
//! 4 bits   the code of the run's squares (see board: 0 empty, 1-12 the pieces)
//! K bits   a count c: the run covers c + 1 squares
//! ```
//!
//! A count of `c` means `c + 1` squares because a run is never empty, so a run covers 1 to `2^K`
//! squares and a longer stretch of equal squares takes several runs. The runs end where they have
//! covered 64 squares; a run that would go past h8 is an error. `K` is fixed by the format
//! (`rle:1` .. `rle:6`, [`write()`] and [`read`]), or stored in front of the runs by `rle:auto`
//! ([`write_auto`], [`read_auto`]):
//!
//! ```text
//! 3 bits   K, 1 to 6 (0 and 7 are invalid)
//! runs     as for rle:K
//! ```
//!
//! `rle:auto` picks the `K` that gives the fewest bits, the smallest `K` on a tie.
//!
//! # Figures
//!
//! | board | K = 1 | 2 | 3 | 4 | 5 | 6 |
//! |---|---:|---:|---:|---:|---:|---:|
//! | start position: runs | 40 | 28 | 22 | 20 | 19 | 19 |
//! | start position: bits | 200 | 168 | **154** | 160 | 171 | 190 |
//! | all 64 squares equal: runs | 32 | 16 | 8 | 4 | 2 | 1 |
//! | no two neighbours equal: bits | 320 | 384 | 448 | 512 | 576 | 640 |
//!
//! A board is at most 64 runs, so at most `64 * (4 + K)` bits.
//!
//! # Worked example
//!
//! The start position at `K = 3` (7 bits a run): `R`, `N`, `B`, `Q`, `K`, `B`, `N`, `R` are runs
//! of one (count 0): `0100 000`, `0010 000`, ...; the eight white pawns one run of eight
//! (`0001 111`); the 32 empty squares four runs of eight (`0000 111` four times); the black pawns
//! (`0111 111`); then the black pieces. 22 runs, 154 bits:
//!
//! ```text
//! 40 40 c2 86 06 08 20 1e 1c 38 70 ef e8 40 91 63 04 88 14 00
//! ```
//!
//! ```
//! use chessbits_codec::classic::rle;
//! use chessbits_codec::classic::board::RunWidth;
//! use chessbits_state::Board;
//!
//! let k = RunWidth::new(3).unwrap();
//! let bits = rle::encode(&Board::new(), k);
//! assert_eq!((bits.len(), rle::runs(&Board::new(), k)), (154, 22));
//! assert_eq!(bits.to_hex(), "4040c2860608201e1c3870efe840916304881400");
//! assert_eq!(rle::decode(bits.as_bytes(), k)?, Board::new());
//! // rle:auto finds K = 3 and stores it in 3 bits.
//! assert_eq!(rle::encode_auto(&Board::new()).len(), 3 + 154);
//! # Ok::<_, chessbits_codec::classic::board::BoardError>(())
//! ```
//!
//! Changing the layout (the order, the count offset, the width field) is a breaking change.

use chessbits_bitboard::Square;
use chessbits_state::Board;

use crate::bits::{BitReader, BitWriter, Bits, Located};
use crate::classic::codes::{code_of, piece_of, BoardError, BoardErrorKind, RunWidth};

/// The maximal runs of equal squares of `board`, a1 first: (code, squares) pairs, and how many.
struct Runs {
    runs: [(u8, u32); 64],
    len: usize,
}

impl Runs {
    fn of(board: &Board) -> Runs {
        let mut runs = Runs { runs: [(0, 0); 64], len: 0 };
        let mut code = code_of(board.piece_at(Square::A1));
        let mut len = 0;
        for sq in Square::ALL {
            let next = code_of(board.piece_at(sq));
            if next != code {
                runs.push(code, len);
                code = next;
                len = 0;
            }
            len += 1;
        }
        runs.push(code, len);
        runs
    }

    fn push(&mut self, code: u8, squares: u32) {
        if let Some(slot) = self.runs.get_mut(self.len) {
            *slot = (code, squares);
            self.len += 1;
        }
    }

    fn iter(&self) -> impl Iterator<Item = (u8, u32)> + '_ {
        self.runs.iter().take(self.len).copied()
    }

    /// The number of runs at width `k`: each maximal run split into runs of at most `2^K`.
    fn count(&self, k: RunWidth) -> usize {
        self.iter().map(|(_, len)| len.div_ceil(k.max_run()) as usize).sum()
    }

    /// The width that takes the fewest bits (the smallest on a tie).
    fn best_width(&self) -> RunWidth {
        let bits = |k: RunWidth| self.count(k) * (4 + k.get() as usize);
        RunWidth::ALL.into_iter().min_by_key(|&k| bits(k)).unwrap_or(RunWidth::ALL[0])
    }

    fn write(&self, w: &mut BitWriter, k: RunWidth) {
        let width = k.get() as u32;
        for (code, mut len) in self.iter() {
            while len > 0 {
                let run = len.min(k.max_run());
                w.write(u64::from(code) << width | u64::from(run - 1), 4 + width);
                len -= run;
            }
        }
    }
}

/// The number of runs `board` takes at width `k`.
pub fn runs(board: &Board, k: RunWidth) -> usize {
    Runs::of(board).count(k)
}

/// The number of bits `board` takes in `rle:K`.
pub fn len(board: &Board, k: RunWidth) -> usize {
    runs(board, k) * (4 + k.get() as usize)
}

/// The width that takes the fewest bits for `board` (the smallest on a tie).
pub fn best_width(board: &Board) -> RunWidth {
    Runs::of(board).best_width()
}

/// The number of bits `board` takes in `rle:auto`.
pub fn len_auto(board: &Board) -> usize {
    3 + len(board, best_width(board))
}

/// Appends the runs of `board` at width `k`.
pub fn write(w: &mut BitWriter, board: &Board, k: RunWidth) {
    Runs::of(board).write(w, k);
}

/// Appends `board` in `rle:auto`: the best width in 3 bits, then the runs.
pub fn write_auto(w: &mut BitWriter, board: &Board) {
    let runs = Runs::of(board);
    let k = runs.best_width();
    w.write(u64::from(k.get()), 3);
    runs.write(w, k);
}

/// Reads runs at width `k` until they cover the 64 squares.
///
/// # Errors
/// [`BoardError`] at the run at fault: a code of 13-15, a run past h8, or the end of the stream.
pub fn read(r: &mut BitReader<'_>, k: RunWidth) -> Result<Board, BoardError> {
    let mut board = Board::empty();
    let mut next: u32 = 0;
    while next < 64 {
        let at = r.position();
        let run = r.read(4 + k.get() as u32)?;
        let code = (run >> k.get()) as u8;
        let len = (run & ((1 << k.get()) - 1)) as u32 + 1;
        let from = Square::new(next);
        if next + len > 64 {
            return Err(Located::invalid(at, BoardErrorKind::RunPastEnd { from, squares: len }));
        }
        if code != 0 {
            let piece =
                piece_of(code).ok_or(Located::invalid(at, BoardErrorKind::InvalidCode(code)))?;
            for i in next..next + len {
                board.set_piece_at(Square::new(i), piece);
            }
        }
        next += len;
    }
    Ok(board)
}

/// Reads a board in `rle:auto`.
///
/// # Errors
/// As [`read`], and [`BoardErrorKind::InvalidRunWidth`] for a width of 0 or 7.
pub fn read_auto(r: &mut BitReader<'_>) -> Result<Board, BoardError> {
    let at = r.position();
    let k = r.read(3)? as u8;
    let k = RunWidth::new(k).ok_or(Located::invalid(at, BoardErrorKind::InvalidRunWidth(k)))?;
    read(r, k)
}

/// `board` in `rle:K` as a stream of its own.
pub fn encode(board: &Board, k: RunWidth) -> Bits {
    BitWriter::stream(len(board, k), |w| write(w, board, k))
}

/// `board` in `rle:auto` as a stream of its own.
pub fn encode_auto(board: &Board) -> Bits {
    let mut w = BitWriter::with_capacity(64 * 10 + 3);
    write_auto(&mut w, board);
    w.finish()
}

/// Reads a board in `rle:K` from `bytes`, which must hold nothing else.
///
/// # Errors
/// As [`read`], and trailing bits that are not padding.
pub fn decode(bytes: &[u8], k: RunWidth) -> Result<Board, BoardError> {
    BitReader::whole(bytes, |r| read(r, k))
}

/// Reads a board in `rle:auto` from `bytes`, which must hold nothing else.
///
/// # Errors
/// As [`read_auto`], and trailing bits that are not padding.
pub fn decode_auto(bytes: &[u8]) -> Result<Board, BoardError> {
    BitReader::whole(bytes, read_auto)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::DecodeErrorKind;
    use chessbits_bitboard::{Color, Piece, Role};
    use chessbits_notation::fen::Fen;

    fn width(k: u8) -> RunWidth {
        RunWidth::new(k).unwrap()
    }

    fn board(fen: &str) -> Board {
        fen.parse::<Fen>().unwrap().0.board
    }

    /// A board where no square equals the one before it: empty and white pawn by turns.
    fn alternating() -> Board {
        let mut board = Board::empty();
        for sq in Square::ALL.into_iter().skip(1).step_by(2) {
            board.set_piece_at(sq, Piece::new(Color::White, Role::Pawn));
        }
        board
    }

    /// Checks the runs and bits of `board` at every width, and that each round-trips.
    fn check(board: &Board, runs_by_width: [usize; 6]) {
        for (k, expected) in RunWidth::ALL.into_iter().zip(runs_by_width) {
            let bits = encode(board, k);
            assert_eq!(runs(board, k), expected, "K = {}", k.get());
            assert_eq!(bits.len(), expected * (4 + k.get() as usize), "K = {}", k.get());
            assert_eq!(len(board, k), bits.len());
            assert_eq!(decode(bits.as_bytes(), k), Ok(*board), "K = {}", k.get());
        }
        let auto = encode_auto(board);
        assert_eq!(auto.len(), len_auto(board));
        assert_eq!(decode_auto(auto.as_bytes()), Ok(*board));
        let smallest = RunWidth::ALL.into_iter().map(|k| len(board, k)).min();
        assert_eq!(Some(auto.len() - 3), smallest);
    }

    #[test]
    fn published_figures() {
        let start = Board::new();
        check(&start, [40, 28, 22, 20, 19, 19]);
        assert_eq!(len(&start, width(6)), 190);
        assert_eq!(len(&start, width(4)), 160);
        assert_eq!(len(&start, width(3)), 154);
        assert_eq!(best_width(&start), width(3));
        // All squares equal: one run at K = 6.
        check(&Board::empty(), [32, 16, 8, 4, 2, 1]);
        check(
            &board("QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ w - -"),
            [32, 16, 8, 4, 2, 1],
        );
        assert_eq!(len(&Board::empty(), width(6)), 10);
        // No two neighbours equal: 64 runs whatever K.
        check(&alternating(), [64; 6]);
        assert_eq!(len(&alternating(), width(6)), 640);
        assert_eq!(len(&alternating(), width(4)), 512);
        assert_eq!(best_width(&alternating()), width(1));
    }

    #[test]
    fn worked_example() {
        let bits = encode(&Board::new(), width(3));
        insta::assert_snapshot!(bits, @"4040c2860608201e1c3870efe840916304881400");
        insta::assert_snapshot!(encode(&Board::empty(), width(6)), @"0fc0");
        insta::assert_snapshot!(encode_auto(&Board::empty()), @"c1f8");
    }

    #[test]
    fn bad_streams_say_where() {
        let k = width(3);
        // Runs of (empty, count): seven of 8 squares from a1, one of 7 from a8, one of 8 from h8.
        let mut w = BitWriter::new();
        for _ in 0..7 {
            w.write(0x07, 7);
        }
        w.write(0x06, 7);
        w.write(0x07, 7);
        let bits = w.finish();
        let err = decode(bits.as_bytes(), k).unwrap_err();
        assert_eq!(
            err,
            Located::invalid(56, BoardErrorKind::RunPastEnd { from: Square::H8, squares: 8 })
        );
        insta::assert_snapshot!(err, @"bit 56: a run of 8 squares from h8 goes past h8");
        // Code 14.
        let err = decode(&[0b1110_0000], k).unwrap_err();
        assert_eq!(err, Located::invalid(0, BoardErrorKind::InvalidCode(14)));
        // Truncated after one run.
        let err = decode(&[0b0000_1110], k).unwrap_err();
        assert_eq!(
            err,
            Located { at: crate::bits::Bit(7), kind: DecodeErrorKind::Truncated { wanted: 6 } }
        );
        // Widths 0 and 7.
        for (byte, k) in [(0b0000_0000, 0), (0b1110_0000, 7)] {
            let err = decode_auto(&[byte, 0]).unwrap_err();
            assert_eq!(err, Located::invalid(0, BoardErrorKind::InvalidRunWidth(k)));
        }
    }
}
