//! What a placement and its fields say by themselves, before any move is generated: attacks,
//! pins, and python-chess's `status()` with the castling rights and en passant square it plays
//! with. A board set up piece by piece answers these before it is a legal position.

use chessbits_bitboard::{Bitboard, Color, File, Rank, Role, Square};
use chessbits_move::CastlingMode;
use chessbits_movegen::attacks;
use chessbits_state::{Board, Setup, Status};

/// The castling rights of `setup` that python-chess plays with (its
/// `clean_castling_rights`): a rook of the right color on its back rank, with its king there
/// too; in standard chess the rook in a corner and the king on e1/e8, in Chess960 the
/// outermost rook on each side of the king.
pub(crate) fn clean_rights(setup: &Setup) -> Bitboard {
    let board = &setup.board;
    let chess960 = setup.castling_mode == CastlingMode::Chess960;
    let mut clean = Bitboard::EMPTY;
    for color in [Color::White, Color::Black] {
        let back = Bitboard::from_rank(Rank::First.relative_to(color));
        let rooks = setup.castling_rooks & board.by_role(Role::Rook) & board.by_color(color) & back;
        let kings = board.by_role(Role::King) & board.by_color(color) & back;
        let Some(king) = kings.last() else { continue };
        if !chess960 {
            let home = Square::from_coords(File::E, Rank::First.relative_to(color));
            if kings.contains(home) {
                clean |= rooks & Bitboard::CORNERS;
            }
            continue;
        }
        if let Some(a_side) = rooks.first().filter(|&rook| rook < king) {
            clean |= Bitboard::from_square(a_side);
        }
        if let Some(h_side) = rooks.last().filter(|&rook| rook > king) {
            clean |= Bitboard::from_square(h_side);
        }
    }
    clean
}

/// The en passant square of `setup` if a double push can have left it (python-chess's
/// `_valid_ep_square`): on the third or sixth rank as the side to move says, the pawn that
/// pushed in front of it, it and the square the pawn came from empty.
pub(crate) fn valid_ep_square(setup: &Setup) -> Option<Square> {
    let ep = setup.ep_square?;
    let board = &setup.board;
    let (rank, pushed, from) = match setup.turn {
        Color::White => (Rank::Sixth, ep.offset(0, -1), ep.offset(0, 1)),
        Color::Black => (Rank::Third, ep.offset(0, 1), ep.offset(0, -1)),
    };
    let (pushed, from) = (pushed?, from?);
    let pawns = board.by_role(Role::Pawn) & board.by_color(!setup.turn);
    (ep.rank() == rank
        && pawns.contains(pushed)
        && !board.occupied().contains(ep)
        && !board.occupied().contains(from))
    .then_some(ep)
}

/// The pieces of `color` that attack `square` with `occupied` standing (python-chess's
/// `attackers_mask(color, square, occupied)`: a piece of `color` counts wherever it stands,
/// and `occupied` says only what blocks the sliders).
pub(crate) fn attackers(
    board: &chessbits_state::Board,
    color: Color,
    square: Square,
    occupied: Bitboard,
) -> Bitboard {
    use chessbits_movegen::attacks;
    let role = |role| board.by_role(role);
    let straight = role(Role::Rook) | role(Role::Queen);
    let diagonal = role(Role::Bishop) | role(Role::Queen);
    let found = (attacks::king(square) & role(Role::King))
        | (attacks::knight(square) & role(Role::Knight))
        | (attacks::rook(square, occupied) & straight)
        | (attacks::bishop(square, occupied) & diagonal)
        | (attacks::pawn(!color, square) & role(Role::Pawn));
    found & board.by_color(color)
}

/// python-chess's `status()` flags for `setup`, by python-chess's rules: pieces and kings
/// counted, castling rights and the en passant square against those it plays with, the side
/// not to move in check, and checks no move could give.
pub(crate) fn status(setup: &Setup) -> u32 {
    let board = &setup.board;
    let occupied = board.occupied();
    let (white, black) = (board.by_color(Color::White), board.by_color(Color::Black));
    let kings = board.by_role(Role::King);
    let pawns = board.by_role(Role::Pawn);
    let mut flags = 0;
    let mut flag = |on: bool, value: u32| {
        if on {
            flags |= value;
        }
    };
    flag(occupied.is_empty(), STATUS_EMPTY);
    flag((white & kings).is_empty(), STATUS_NO_WHITE_KING);
    flag((black & kings).is_empty(), STATUS_NO_BLACK_KING);
    flag(kings.count() > 2, STATUS_TOO_MANY_KINGS);
    // python-chess does not count promoted pieces; chessbits plays no position with more of
    // them than missing pawns explain (its move lists have room for the legal moves of those
    // alone), and flags it as too many pieces, the nearest of python-chess's flags.
    let material = setup.status();
    let too_much = |color: Color| match color {
        Color::White => material.contains(Status::TOO_MUCH_WHITE_MATERIAL),
        Color::Black => material.contains(Status::TOO_MUCH_BLACK_MATERIAL),
    };
    flag(white.count() > 16 || too_much(Color::White), STATUS_TOO_MANY_WHITE_PIECES);
    flag(black.count() > 16 || too_much(Color::Black), STATUS_TOO_MANY_BLACK_PIECES);
    flag((white & pawns).count() > 8, STATUS_TOO_MANY_WHITE_PAWNS);
    flag((black & pawns).count() > 8, STATUS_TOO_MANY_BLACK_PAWNS);
    flag((pawns & Bitboard::BACKRANKS).any(), STATUS_PAWNS_ON_BACKRANK);
    flag(setup.castling_rooks != clean_rights(setup), STATUS_BAD_CASTLING_RIGHTS);
    let ep = valid_ep_square(setup);
    flag(setup.ep_square != ep, STATUS_INVALID_EP_SQUARE);
    let us = setup.turn;
    // The king python-chess names for a side: the highest square of its kings.
    let king_of = |color: Color| (kings & board.by_color(color)).last();
    flag(
        king_of(!us).is_some_and(|king| attackers(board, us, king, occupied).any()),
        STATUS_OPPOSITE_CHECK,
    );
    let checkers =
        king_of(us).map_or(Bitboard::EMPTY, |king| attackers(board, !us, king, occupied));
    let our_kings = kings & board.by_color(us);
    if let (Some(first), Some(last)) = (checkers.first(), checkers.last()) {
        flag(checkers.count() > 2, STATUS_TOO_MANY_CHECKERS);
        let impossible = match ep {
            // A double push just played: one checker, the pushed pawn or a piece it uncovered.
            Some(ep) => {
                let pushed = Square::new(ep as u32 ^ 8);
                let from = Square::new(ep as u32 ^ 24);
                let before =
                    (occupied & !Bitboard::from_square(pushed)) | Bitboard::from_square(from);
                checkers.count() > 1
                    || (last != pushed
                        && our_kings
                            .into_iter()
                            .any(|king| attackers(board, !us, king, before).any()))
            }
            None => {
                checkers.count() > 2
                    || (checkers.count() == 2 && (attacks::line(first, last) & our_kings).any())
            }
        };
        flag(impossible, STATUS_IMPOSSIBLE_CHECK);
    }
    flags
}

/// python-chess's status flags, with its values.
pub(crate) const STATUS_NO_WHITE_KING: u32 = 1 << 0;
pub(crate) const STATUS_NO_BLACK_KING: u32 = 1 << 1;
pub(crate) const STATUS_TOO_MANY_KINGS: u32 = 1 << 2;
pub(crate) const STATUS_TOO_MANY_WHITE_PAWNS: u32 = 1 << 3;
pub(crate) const STATUS_TOO_MANY_BLACK_PAWNS: u32 = 1 << 4;
pub(crate) const STATUS_PAWNS_ON_BACKRANK: u32 = 1 << 5;
pub(crate) const STATUS_TOO_MANY_WHITE_PIECES: u32 = 1 << 6;
pub(crate) const STATUS_TOO_MANY_BLACK_PIECES: u32 = 1 << 7;
pub(crate) const STATUS_BAD_CASTLING_RIGHTS: u32 = 1 << 8;
pub(crate) const STATUS_INVALID_EP_SQUARE: u32 = 1 << 9;
pub(crate) const STATUS_OPPOSITE_CHECK: u32 = 1 << 10;
pub(crate) const STATUS_EMPTY: u32 = 1 << 11;
pub(crate) const STATUS_TOO_MANY_CHECKERS: u32 = 1 << 15;
pub(crate) const STATUS_IMPOSSIBLE_CHECK: u32 = 1 << 16;

/// The squares the piece on `square` attacks (none for an empty square; a pinned piece
/// still attacks), as python-chess's `attacks(square)`.
pub(crate) fn attacks(board: &Board, square: Square) -> Bitboard {
    board.piece_at(square).map_or(Bitboard::EMPTY, |piece| {
        attacks_of(piece.role, piece.color, square, board.occupied())
    })
}

/// `m` written as python-chess's `Board.uci(move, chess960=)` writes it on `board`, whose
/// kings and rooks alone decide (the move need not be legal): a king's move from e1 (e8) to
/// g1 or c1 (g8, c8) where no rook stands is castling, the king's move onto its rook's
/// corner; with `chess960` it is written so, and without it a move from e1 (e8), its king
/// there, onto the h or a corner of its rank is written as the king's two squares.
pub(crate) fn castling_uci(
    board: &Board,
    m: chessbits_move::UciMove,
    chess960: bool,
) -> chessbits_move::UciMove {
    use chessbits_move::UciMove;
    let UciMove::Normal { from, mut to, mut promotion } = m else { return m };
    let (kings, rooks) = (board.by_role(Role::King), board.by_role(Role::Rook));
    let home = [Rank::First, Rank::Eighth]
        .into_iter()
        .find(|&rank| from == Square::from_coords(File::E, rank) && kings.contains(from));
    let Some(rank) = home else { return m };
    let at = |file| Square::from_coords(file, rank);
    for (king_to, corner) in [(File::G, File::H), (File::C, File::A)] {
        if to == at(king_to) && !rooks.contains(to) {
            (to, promotion) = (at(corner), None);
        }
    }
    if !chess960 && promotion.is_none() {
        for (king_to, corner) in [(File::G, File::H), (File::C, File::A)] {
            if to == at(corner) {
                to = at(king_to);
            }
        }
    }
    UciMove::Normal { from, to, promotion }
}

/// The pseudo-legal moves of the side to move in `pos`, as python-chess's
/// `generate_pseudo_legal_moves()` gives them: every piece's moves to a square it attacks or
/// (a pawn) pushes to, promotions to queen, rook, bishop and knight, en passant onto the en
/// passant square where a pawn attacks it, and the castling moves, whether or not the king
/// is left in check. Castling is written as `pos` writes it.
pub(crate) fn pseudo_legal_moves(pos: &chessbits_state::Position) -> Vec<chessbits_move::UciMove> {
    pseudo_legal_moves_within(pos, Bitboard::FULL, Bitboard::FULL)
}

/// The pseudo-legal moves from a square of `from` to a square of `to`, as python-chess's
/// `generate_pseudo_legal_moves(from_mask, to_mask)`: a castling move is the king's from its
/// square to its rook's, whatever square the king lands on.
pub(crate) fn pseudo_legal_moves_within(
    pos: &chessbits_state::Position,
    from: Bitboard,
    to: Bitboard,
) -> Vec<chessbits_move::UciMove> {
    use chessbits_move::UciMove;
    use chessbits_movegen::MoveGen;
    let board = pos.board();
    let us = pos.turn();
    let ours = board.by_color(us);
    let theirs = board.by_color(!us);
    let occupied = board.occupied();
    let last_rank = Rank::Eighth.relative_to(us);
    let mut moves = Vec::with_capacity(64);
    let mut push = |from: Square, to: Square| {
        let pawn = board.role_at(from) == Some(Role::Pawn);
        if pawn && to.rank() == last_rank {
            for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                moves.push(UciMove::Normal { from, to, promotion: Some(role) });
            }
        } else {
            moves.push(UciMove::Normal { from, to, promotion: None });
        }
    };
    let (from_mask, to_mask) = (from, to);
    for from in ours & from_mask {
        let Some(role) = board.role_at(from) else { continue };
        let targets = match role {
            Role::Pawn => {
                let mut targets = attacks::pawn(us, from) & theirs;
                let ahead = |sq: Square| sq.offset(0, if us == Color::White { 1 } else { -1 });
                if let Some(one) = ahead(from).filter(|&sq| !occupied.contains(sq)) {
                    targets |= Bitboard::from_square(one);
                    let start = [Rank::First, Rank::Second].map(|r| r.relative_to(us));
                    if let Some(two) = ahead(one).filter(|&sq| !occupied.contains(sq)) {
                        if start.contains(&from.rank()) {
                            targets |= Bitboard::from_square(two);
                        }
                    }
                }
                targets
            }
            other => attacks_of(other, us, from, occupied) & !ours,
        };
        for to in targets & to_mask {
            push(from, to);
        }
    }
    moves.extend(pseudo_legal_ep(pos, from_mask, to_mask));
    let castling = pos.castling_moves();
    let within =
        castling.iter().filter(|m| from_mask.contains(m.from()) && to_mask.contains(m.to()));
    moves.extend(within.map(|&m| pos.uci(m)));
    moves
}

/// The pseudo-legal en passant captures from `from` to `to` (python-chess's
/// `generate_pseudo_legal_ep`): each pawn of the side to move that attacks the en passant
/// square, when that square is empty.
pub(crate) fn pseudo_legal_ep(
    pos: &chessbits_state::Position,
    from: Bitboard,
    to: Bitboard,
) -> Vec<chessbits_move::UciMove> {
    let board = pos.board();
    let Some(ep) = pos.ep_square().filter(|&ep| !board.occupied().contains(ep) && to.contains(ep))
    else {
        return Vec::new();
    };
    let takers = attacks::pawn(!pos.turn(), ep)
        & board.by_piece(chessbits_bitboard::Piece { role: Role::Pawn, color: pos.turn() });
    (takers & from)
        .into_iter()
        .map(|from| chessbits_move::UciMove::Normal { from, to: ep, promotion: None })
        .collect()
}

/// The squares a `role` of `color` on `square` attacks with `occupied` standing.
fn attacks_of(role: Role, color: Color, square: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => attacks::pawn(color, square),
        Role::Knight => attacks::knight(square),
        Role::Bishop => attacks::bishop(square, occupied),
        Role::Rook => attacks::rook(square, occupied),
        Role::Queen => attacks::queen(square, occupied),
        Role::King => attacks::king(square),
    }
}

/// The pieces of `color` that attack `square` (python-chess's `attackers_mask`).
pub(crate) fn attackers_mask(board: &Board, color: Color, square: Square) -> Bitboard {
    attackers(board, color, square, board.occupied())
}

/// The squares the piece of `color` on `square` may move along: every square if it is not
/// pinned, else the line through its king and the pinner (python-chess's `pin_mask`).
pub(crate) fn pin_mask(board: &Board, color: Color, square: Square) -> Bitboard {
    use chessbits_bitboard::tables::{between, bishop_rays, line, rook_rays};
    let Some(king) = (board.by_role(Role::King) & board.by_color(color)).last() else {
        return Bitboard::FULL;
    };
    let sq = Bitboard::from_square(square);
    let them = board.by_color(!color);
    let queens = board.by_role(Role::Queen);
    let snipers = (rook_rays(king) & (board.by_role(Role::Rook) | queens) & them)
        | (bishop_rays(king) & (board.by_role(Role::Bishop) | queens) & them);
    snipers
        .into_iter()
        .find(|&sniper| between(sniper, king) & (board.occupied() | sq) == sq)
        .map_or(Bitboard::FULL, |sniper| line(sniper, king))
}

/// Whether the side that just moved left its king attacked (python-chess's
/// `was_into_check`): its highest king attacked by the side to move.
pub(crate) fn was_into_check(setup: &Setup) -> bool {
    let board = &setup.board;
    let them = !setup.turn;
    (board.by_role(Role::King) & board.by_color(them))
        .last()
        .is_some_and(|king| attackers(board, setup.turn, king, board.occupied()).any())
}

/// Whether `setup` has a castling right only Chess960 can write: a rook off its corner or a
/// king off its e-file square (python-chess's `has_chess960_castling_rights`).
pub(crate) fn has_chess960_castling_rights(setup: &Setup) -> bool {
    let mut chess960 = *setup;
    chess960.castling_mode = CastlingMode::Chess960;
    let rights = clean_rights(&chess960);
    let king_off = |color: Color| {
        let home = Square::from_coords(File::E, Rank::First.relative_to(color));
        (rights & Bitboard::from_rank(home.rank())).any()
            && setup.board.piece_at(home) != Some(Role::King.of(color))
    };
    (rights & !Bitboard::CORNERS).any() || king_off(Color::White) || king_off(Color::Black)
}

/// Whether `m` captures with `turn` to move and `ep` the en passant square (python-chess's
/// rule, the move need not be legal): a piece of the other side stands on its destination,
/// or it is an en passant capture ([`is_en_passant`]).
pub(crate) fn is_capture(
    board: &Board,
    turn: Color,
    ep: Option<Square>,
    m: chessbits_move::UciMove,
) -> bool {
    let chessbits_move::UciMove::Normal { to, .. } = m else { return false };
    board.by_color(!turn).contains(to) || is_en_passant(board, turn, ep, m)
}

/// Whether `m` is an en passant capture: a pawn of `turn` going diagonally onto `ep`, the
/// en passant square, which is empty (one file and one rank over, as python-chess's `7 or
/// 9 squares`: `e5c6` is none).
pub(crate) fn is_en_passant(
    board: &Board,
    turn: Color,
    ep: Option<Square>,
    m: chessbits_move::UciMove,
) -> bool {
    let chessbits_move::UciMove::Normal { from, to, .. } = m else { return false };
    ep == Some(to)
        && board.role_at(from) == Some(Role::Pawn)
        && board.color_at(from) == Some(turn)
        && (from.file() as i32 - to.file() as i32).abs() == 1
        && (from.rank() as i32 - to.rank() as i32).abs() == 1
        && board.piece_at(to).is_none()
}

/// Whether `m` takes away one of `rights` (the castling rooks): it touches such a rook's
/// square, or moves a king whose back rank holds one.
pub(crate) fn loses_castling_rights(
    board: &Board,
    rights: Bitboard,
    m: chessbits_move::UciMove,
) -> bool {
    let chessbits_move::UciMove::Normal { from, to, .. } = m else { return false };
    let touched = Bitboard::from_square(from) | Bitboard::from_square(to);
    let king_moves = |color: Color| {
        let back = Bitboard::from_rank(Rank::First.relative_to(color));
        (rights & back).any() && (touched & board.by_role(Role::King) & board.by_color(color)).any()
    };
    (touched & rights).any() || king_moves(Color::White) || king_moves(Color::Black)
}

/// The castling field of `setup` as python-chess writes it, of the rights it plays with
/// ([`clean_rights`]): white's then black's, rooks from the h-file side; in X-FEN `K`/`Q`
/// for the outermost rook on its side of the king and the file letter for one inside, in
/// Shredder-FEN always the file letter; `-` for none.
pub(crate) fn castling_field(setup: &Setup, shredder: bool) -> String {
    let board = &setup.board;
    let rights = clean_rights(setup);
    let mut field = String::new();
    for color in [Color::White, Color::Black] {
        let Some(king) = (board.by_role(Role::King) & board.by_color(color)).last() else {
            continue;
        };
        let back = Bitboard::from_rank(Rank::First.relative_to(color));
        let rooks = board.by_role(Role::Rook) & board.by_color(color) & back;
        for rook in (rights & back).into_iter().rev() {
            let a_side = rook.file() < king.file();
            let inner = (rooks & !Bitboard::from_square(rook))
                .into_iter()
                .any(|other| (other.file() < rook.file()) == a_side);
            let letter = match (shredder || inner, a_side) {
                (true, _) => rook.file().char(),
                (false, true) => 'q',
                (false, false) => 'k',
            };
            field.push(if color == Color::White { letter.to_ascii_uppercase() } else { letter });
        }
    }
    if field.is_empty() {
        field.push('-');
    }
    field
}
