//! What the model's tables are chosen by: the scan of the board square by square ([`Scan`]:
//! the cells and counts coded so far), and the facts of a placement that castling, en passant
//! and the clocks are coded against ([`Placement`]).

use chessbits_bitboard::{Bitboard, ByColor, ByRole, Color, File, Rank, Role, Square};
use chessbits_state::{Board, CastlingSide, Position};

use super::{CELLS, FULLMOVE_CONTEXTS, OFF_BOARD, SYMBOLS};

/// The level tag of a context key.
pub(super) const fn tagged(level: usize, key: u32) -> u32 {
    (level as u32) << 28 | key
}

/// The cell of a square in [`Scan::cells`]: a 9-wide grid whose first column and first row
/// are off the board, so that the cells west and south of every square exist.
#[inline(always)]
pub(super) const fn cell(sq: usize) -> usize {
    10 + (sq >> 3) * 9 + (sq & 7)
}

/// [`Scan::cells`] before any piece: the board cells empty, the others off the board.
pub(super) const EMPTY_CELLS: [u8; CELLS] = {
    let mut cells = [OFF_BOARD; CELLS];
    let mut sq = 0;
    while sq < 64 {
        cells[cell(sq)] = 0;
        sq += 1;
    }
    cells
};

/// What the board scan knows before each rank and each piece: the parts of their contexts.
#[derive(Clone)]
pub(super) struct Scan {
    /// The symbols coded so far, by [`cell`] (empty squares and squares not yet coded 0, off
    /// the board [`OFF_BOARD`]).
    pub(super) cells: [u8; CELLS],
    /// Bit 0: the white king was coded; bit 1: the black king.
    pub(super) kings: u8,
    /// Pieces coded so far.
    pub(super) placed: u8,
    /// Per file: bit 0, a white pawn was coded on it; bit 1, a black pawn.
    pub(super) file_pawns: [u8; 8],
    /// The castling mode is Chess960: the back ranks have their own tables.
    chess960: bool,
    /// The squares whose west, east and north neighbours are occupied (none off the board):
    /// what the occupancies say of a piece's surroundings before any piece is decoded.
    pub(super) neighbours: [u64; 3],
}

/// Per symbol (and [`OFF_BOARD`], and the padding up to 16): what [`Scan::push`] adds, as
/// `king bits << 4 | pawn bits << 1 | is a piece`. Table lookups instead of comparisons: the
/// symbols are data, so branches on them would be mispredicted and comparisons cost more.
pub(super) const SCAN_STEP: [u8; 16] = {
    let mut table = [0u8; 16];
    let mut symbol = 1;
    while symbol < SYMBOLS {
        let pawns = (symbol == 1) as u8 | ((symbol == 7) as u8) << 1;
        let kings = (symbol == 6) as u8 | ((symbol == 12) as u8) << 1;
        table[symbol] = kings << 4 | pawns << 1 | 1;
        symbol += 1;
    }
    table
};

/// `(placed / 4).min(7) * 4`, the count part of the fine context, by pieces placed (0..=64,
/// and up to 127 so that a mask keeps every index in bounds).
pub(super) const COUNT_CONTEXT: [u8; 128] = {
    let mut table = [0u8; 128];
    let mut placed = 0;
    while placed < 128 {
        let quarter = if placed / 4 < 7 { placed / 4 } else { 7 };
        table[placed] = (quarter * 4) as u8;
        placed += 1;
    }
    table
};

impl Scan {
    pub(super) fn new(chess960: bool) -> Scan {
        Scan {
            cells: EMPTY_CELLS,
            kings: 0,
            placed: 0,
            file_pawns: [0; 8],
            chess960,
            neighbours: [0; 3],
        }
    }

    /// Records the occupied squares, decoded before the pieces.
    #[inline(always)]
    pub(super) fn set_occupied(&mut self, occupied: u64) {
        const FILE_A: u64 = 0x0101_0101_0101_0101;
        let west = (occupied & !(FILE_A << 7)) << 1;
        let east = (occupied & !FILE_A) >> 1;
        self.neighbours = [west, east, occupied >> 8];
    }

    /// `true` if `rank` (0..8) is a back rank coded with the Chess960 tables.
    #[inline(always)]
    pub(super) fn back_rank(&self, rank: usize) -> bool {
        self.chess960 && (rank == 0 || rank == 7)
    }

    /// The occupancy context of `rank` after the rank below it had occupancy `below` (0 for
    /// the first rank): `back × 2048 + rank × 256 + below`, `back` for a Chess960 back rank.
    #[inline(always)]
    pub(super) fn occupancy_key(&self, rank: usize, below: usize) -> usize {
        usize::from(self.back_rank(rank)) << 11 | (rank & 7) << 8 | (below & 0xff)
    }

    /// The coarse context `(sq, n, s)` of `sq`, as an index: `((sq × 14 + n) × 14 + s) × 4`
    /// (the factor 4 is room for a king state the contexts no longer have). `n`, 0..8, says
    /// which of the squares west (1), east (2) and north (4) are occupied: the occupancies say
    /// it, so no piece's table depends on the piece decoded just before it, and the decoder
    /// can look the tables up ahead.
    #[inline(always)]
    pub(super) fn coarse(&self, sq: usize) -> usize {
        let [west, east, north] = self.neighbours;
        let bit = |bb: u64| (bb >> (sq & 63) & 1) as usize;
        let near = bit(west) | bit(east) << 1 | bit(north) << 2;
        let south = self.cells[(cell(sq) - 9) & (CELLS - 1)] as usize;
        sq * 784 + near * 56 + south * 4
    }

    /// The refinement `(cnt, fp)` of the context of `sq`: `cnt × 4 + fp`.
    #[inline(always)]
    pub(super) fn fine(&self, sq: usize) -> usize {
        COUNT_CONTEXT[self.placed as usize & 127] as usize + self.file_pawns[sq & 7] as usize
    }

    /// The Chess960 back-rank context of `sq` (on rank 1 or 8): `((side × 8 + file) × 14 +
    /// aux) × 4 + k`, where `side` is 0 on rank 1 (and `aux` what stands west) and 1 on
    /// rank 8 (and `aux` what stands on the same file of rank 1).
    #[inline(always)]
    pub(super) fn back_key(&self, sq: usize) -> usize {
        let file = sq & 7;
        let (side, aux_cell) = if sq < 8 { (0, cell(sq) - 1) } else { (1, cell(file)) };
        let aux = self.cells[aux_cell & (CELLS - 1)] as usize;
        ((side * 8 + file) * 14 + aux) * 4 + self.kings as usize
    }

    /// The piece context keys of `sq`, most specific first, tagged with their level.
    #[cfg(feature = "fit")]
    pub(super) fn keys(&self, sq: usize) -> Vec<u32> {
        if self.back_rank(sq >> 3) {
            let key = self.back_key(sq) as u32;
            return vec![tagged(5, key), tagged(6, key / 56)];
        }
        let (coarse, fine) = (self.coarse(sq), self.fine(sq));
        let l2 = coarse as u32;
        let l1 = l2 * 8 + fine as u32 / 4;
        let l0 = l1 * 4 + fine as u32 % 4;
        // Level 3, `(sq, n, s)` without the king state, is level 2 now: no longer counted.
        vec![tagged(0, l0), tagged(1, l1), tagged(2, l2), tagged(4, sq as u32)]
    }

    /// Records the piece `symbol` (1..=12) on `sq`, without branching on which (symbols are
    /// data: branches on them are mispredicted).
    #[inline(always)]
    pub(super) fn push(&mut self, sq: usize, symbol: u8) {
        self.cells[cell(sq) & (CELLS - 1)] = symbol;
        let step = SCAN_STEP[symbol as usize & 15];
        self.placed += 1;
        self.file_pawns[sq & 7] |= step >> 1 & 3;
        self.kings |= step >> 4;
    }
}

/// The board symbol of what stands on `sq`.
#[inline]
pub(super) fn symbol_at(pos: &Position, sq: Square) -> u8 {
    pos.board().piece_at(sq).map_or(0, |p| p.code() + 1)
}

/// The occupancy of `rank` (0..8): bit `f` for file `f`.
pub(super) fn rank_occupancy(board: &Board, rank: usize) -> usize {
    (board.occupied().0 >> (8 * (rank & 7)) & 0xff) as usize
}

/// The placement as bitboards: what the castling, en passant and clock contexts read. The
/// decoder has it without building a [`Board`]; the encoder and the fitter take it from one.
#[derive(Copy, Clone, Debug)]
pub(super) struct Placement {
    pub(super) by_role: ByRole<Bitboard>,
    pub(super) by_color: ByColor<Bitboard>,
}

impl Placement {
    pub(super) fn of(board: &Board) -> Placement {
        Placement { by_role: ByRole(Role::ALL.map(|r| board.by_role(r))), by_color: board.colors() }
    }

    #[inline]
    pub(super) fn occupied(&self) -> Bitboard {
        self.by_color.white | self.by_color.black
    }

    #[inline]
    pub(super) fn by_piece(&self, role: Role, color: Color) -> Bitboard {
        self.by_role[role] & self.by_color[color]
    }

    /// The king of `color`, if it has exactly one.
    #[inline]
    pub(super) fn king_of(&self, color: Color) -> Option<Square> {
        self.by_piece(Role::King, color).single()
    }
}

/// The king of `color` on its back rank and the rooks of `color` there, if it has both.
#[inline]
pub(super) fn back_rank_rooks(board: &Placement, color: Color) -> Option<(Square, Bitboard)> {
    let back = Bitboard::backrank(color);
    let king = board.king_of(color).filter(|k| back.contains(*k))?;
    let rooks = board.by_piece(Role::Rook, color) & back;
    rooks.any().then_some((king, rooks))
}

/// The rooks that may hold the castling right on `side` of the color whose king and
/// back-rank rooks are `back` ([`back_rank_rooks`]), corner first: in Chess960, the rooks
/// beyond the king; in standard chess, the rook in the corner of `side` with the king on the
/// e-file.
#[inline]
pub(super) fn castling_candidates(
    back: Option<(Square, Bitboard)>,
    side: CastlingSide,
    chess960: bool,
) -> Bitboard {
    let Some((king, rooks)) = back else {
        return Bitboard::EMPTY;
    };
    if !chess960 {
        if king.file() != File::E {
            return Bitboard::EMPTY;
        }
        let corner = match side {
            CastlingSide::KingSide => File::H,
            CastlingSide::QueenSide => File::A,
        };
        return rooks & Bitboard::from(Square::from_coords(corner, king.rank()));
    }
    let beyond = match side {
        CastlingSide::KingSide => Bitboard(!(2u64 << king as u32).wrapping_sub(1)),
        CastlingSide::QueenSide => Bitboard((1u64 << king as u32).wrapping_sub(1)),
    };
    rooks & beyond
}

/// The candidates of `side` ordered from the corner.
pub(super) fn corner_first(
    candidates: Bitboard,
    side: CastlingSide,
) -> impl Iterator<Item = Square> {
    let mut bb = candidates;
    core::iter::from_fn(move || match side {
        CastlingSide::KingSide => {
            let sq = bb.last()?;
            bb.discard(sq);
            Some(sq)
        }
        CastlingSide::QueenSide => bb.pop_first(),
    })
}

/// The context of a castling right: 0 for a king on e with a rook in the corner among the
/// candidates, 1 otherwise.
pub(super) fn castle_context(board: &Placement, color: Color, candidates: Bitboard) -> usize {
    let back = Rank::First.relative_to(color);
    let e = Square::from_coords(File::E, back);
    let corners = Bitboard::CORNERS & Bitboard::from_rank(back);
    usize::from(!(board.king_of(color) == Some(e) && candidates.intersects(corners)))
}

/// The pawns of `!turn` that may just have double pushed: the squares they skipped.
pub(super) fn ep_candidates(board: &Placement, turn: Color) -> Bitboard {
    let them = !turn;
    let pushed =
        board.by_piece(Role::Pawn, them) & Bitboard::from_rank(Rank::Fourth.relative_to(them));
    let skipped = pushed.forward(turn);
    let free = !board.occupied();
    // The skipped square and the start square behind it, both empty.
    skipped & free & free.forward(them)
}

/// The fullmove context: pieces / 4.
pub(super) fn fullmove_context(board: &Placement) -> usize {
    (board.occupied().count() as usize / 4).min(FULLMOVE_CONTEXTS - 1)
}
