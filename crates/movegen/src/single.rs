//! One move tested on its own: [`legal_move`], the legal move of one piece to one square, with
//! no list and no per-position setup (checkers, pins) — what SAN resolution and move-by-move
//! readers need, where the generator's setup would cost more than the whole answer.
//!
//! A move of a non-king piece is legal when the piece can make it on the board (its attack or
//! push reaches the target, which holds no piece of ours) and afterwards no enemy piece attacks
//! our king: one test with the occupancy the move leaves, which covers checks, pins and
//! discovered checks at once. A king move is legal when its target is not attacked with the
//! king lifted off the board. En passant, whose capture vacates a third square, goes to the
//! generator; castling is not a move of this kind (its `Move16` targets our own rook).

use chessbits_bitboard::{Bitboard, Color, Rank, Role, Square};
use chessbits_move::{Move16, MoveKind};
use chessbits_state::Position;

use crate::gen::attackers;
use crate::{MoveGen, Tables};

/// The legal move of the piece of the side to move on `from` to `to`, promoting to `promotion`
/// (which must be given exactly when a pawn reaches its last rank, as a knight, bishop, rook or
/// queen), if there is one. See [`MoveGen::legal_move`].
pub(crate) fn legal_move(
    t: &'static Tables,
    pos: &Position,
    from: Square,
    to: Square,
    promotion: Option<Role>,
) -> Option<Move16> {
    let board = pos.board();
    let us = pos.turn();
    let ours = pos.us();
    if !ours.contains(from) || ours.contains(to) {
        return None;
    }
    let occupied = board.occupied();
    let capture = pos.them().contains(to);
    let role = board.role_at(from)?;
    let kind = match role {
        Role::Pawn => {
            if Some(to) == pos.ep_square() && t.pawn(us, from).contains(to) {
                // The captured pawn is not on `to`: leave it to the generator.
                return en_passant(pos, from, to, promotion);
            }
            pawn_kind(t, pos, from, to, capture, promotion)?
        }
        Role::King => {
            let reach = t.king(from).contains(to);
            let lifted = occupied - Bitboard::from_square(from);
            if !reach || promotion.is_some() || attackers(t, pos, to, !us, lifted).any() {
                return None;
            }
            return Some(Move16::new(from, to, plain(capture)));
        }
        Role::Knight => plain_if(t.knight(from).contains(to), capture, promotion)?,
        Role::Bishop => plain_if(t.bishop(from, occupied).contains(to), capture, promotion)?,
        Role::Rook => plain_if(t.rook(from, occupied).contains(to), capture, promotion)?,
        Role::Queen => plain_if(t.queen(from, occupied).contains(to), capture, promotion)?,
    };
    // Our king after the move: attacked by anything but the piece taken on `to`?
    let after = (occupied - Bitboard::from_square(from)) | Bitboard::from_square(to);
    let king = pos.our_king();
    let attacked = attackers(t, pos, king, !us, after) - Bitboard::from_square(to);
    attacked.is_empty().then(|| Move16::new(from, to, kind))
}

/// A quiet move or a capture, with no promotion.
fn plain(capture: bool) -> MoveKind {
    if capture {
        MoveKind::Capture
    } else {
        MoveKind::Quiet
    }
}

/// [`plain`] if the piece reaches `to` and no promotion is asked for.
fn plain_if(reach: bool, capture: bool, promotion: Option<Role>) -> Option<MoveKind> {
    (reach && promotion.is_none()).then(|| plain(capture))
}

/// The kind of a pawn move from `from` to `to` on the board, before king safety: a push to an
/// empty square, a double push from the start rank over an empty square, or a diagonal capture;
/// a promotion exactly when `to` is the last rank.
fn pawn_kind(
    t: &Tables,
    pos: &Position,
    from: Square,
    to: Square,
    capture: bool,
    promotion: Option<Role>,
) -> Option<MoveKind> {
    let us = pos.turn();
    let occupied = pos.board().occupied();
    let step: i32 = if us == Color::White { 8 } else { -8 };
    let one = from.offset(0, step.signum());
    let last = to.rank() == Rank::Eighth.relative_to(us);
    let promotes = match promotion {
        None if last => return None,
        Some(role) if !last || !Role::PROMOTIONS.contains(&role) => return None,
        other => other,
    };
    let kind = if t.pawn(us, from).contains(to) {
        if !capture {
            return None;
        }
        match promotes {
            Some(role) => MoveKind::CapturePromotion(role),
            None => MoveKind::Capture,
        }
    } else if Some(to) == one && !occupied.contains(to) {
        match promotes {
            Some(role) => MoveKind::Promotion(role),
            None => MoveKind::Quiet,
        }
    } else if from.rank() == Rank::Second.relative_to(us)
        && Some(to) == one.and_then(|sq| sq.offset(0, step.signum()))
        && !occupied.contains(to)
        && one.is_some_and(|sq| !occupied.contains(sq))
    {
        MoveKind::DoublePush
    } else {
        return None;
    };
    Some(kind)
}

/// The en passant capture from `from` to `to`, if legal: asked of the generator, which
/// verifies en passant on its own.
fn en_passant(pos: &Position, from: Square, to: Square, promotion: Option<Role>) -> Option<Move16> {
    if promotion.is_some() {
        return None;
    }
    let mut found = None;
    pos.visit_moves(Bitboard::from_square(from), Bitboard::from_square(to), |moves| {
        found = moves.into_iter().find(|m| m.is_en_passant());
        found.is_some()
    });
    found
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::tables;

    /// Every (from, to, promotion) the side to move could name, against the generator's list.
    fn check(pos: &Position) -> usize {
        let legal = pos.legal_moves();
        let mut found = 0;
        for from in pos.us() {
            for to in Square::ALL {
                for promotion in [None, Some(Role::Knight), Some(Role::Queen), Some(Role::King)] {
                    let got = legal_move(tables(), pos, from, to, promotion);
                    let want = legal.iter().copied().find(|m| {
                        m.from() == from
                            && m.to() == to
                            && m.promotion() == promotion
                            && !m.is_castling()
                    });
                    assert_eq!(got, want, "{pos:?} {from}{to} {promotion:?}");
                    found += usize::from(got.is_some());
                }
            }
        }
        found
    }

    #[test]
    fn agrees_with_the_generator_on_hand_picked_positions() {
        // A pinned knight, a pinned bishop that may slide along the pin, en passant that would
        // expose the king on the rank, a double check, promotions with and without capture.
        for fen in [
            "4k3/8/8/8/8/8/3n4/r2NK3 w - - 0 1",
            "4k3/8/8/8/8/b7/1B6/2K5 w - - 0 1",
            "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2",
            "4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1",
            "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
        ] {
            assert!(check(&parse(fen)) > 0, "{fen}");
        }
    }

    /// Positions of random games (pins, checks, sliders on the king's lines, promotions),
    /// each asked every (from, to, promotion): the generator's answer every time.
    #[test]
    fn agrees_with_the_generator_along_random_games() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut positions = 0;
        for start in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            for _ in 0..6 {
                let mut pos = parse(start);
                for _ in 0..60 {
                    check(&pos);
                    positions += 1;
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let m = legal[(seed % legal.len() as u64) as usize];
                    pos.play_unchecked(m);
                }
            }
        }
        assert!(positions > 500, "{positions}");
    }

    #[test]
    fn is_legal_agrees_with_the_list_on_every_move16() {
        // Every 16-bit value, so moves with a wrong kind (a capture flag on a quiet move, a
        // promotion of a piece, castling that is not) are refused as the list refuses them.
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2",
            "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1",
            "rnbqkbnr/pp1ppppp/8/2pP4/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 2",
        ] {
            let pos = parse(fen);
            let legal = pos.legal_moves();
            for bits in 0..=u16::MAX {
                let m = Move16::from_bits(bits);
                assert_eq!(pos.is_legal(m), legal.contains(&m), "{fen}: {m:?}");
            }
        }
    }

    /// A position from the placement, side to move, castling (`KQkq` only) and en passant
    /// fields of `fen`: a tiny reader for tests, FEN being a higher layer's.
    pub(crate) fn parse(fen: &str) -> Position {
        let mut fields = fen.split(' ');
        let mut setup = chessbits_state::Setup::empty();
        let (mut file, mut rank) = (0i32, 7i32);
        for c in fields.next().unwrap_or_default().chars() {
            match c {
                '/' => (file, rank) = (0, rank - 1),
                '1'..='8' => file += c as i32 - '0' as i32,
                _ => {
                    let piece = chessbits_bitboard::Piece::from_char(c).unwrap();
                    let sq = Square::from_index((rank * 8 + file) as u8).unwrap();
                    setup.board.set_piece_at(sq, piece);
                    file += 1;
                }
            }
        }
        if fields.next() == Some("b") {
            setup.turn = Color::Black;
        }
        for c in fields.next().unwrap_or_default().chars() {
            let corner = match c {
                'K' => Square::H1,
                'Q' => Square::A1,
                'k' => Square::H8,
                'q' => Square::A8,
                _ => continue,
            };
            setup.castling_rooks.add(corner);
        }
        setup.ep_square = fields.next().and_then(|s| s.parse().ok());
        Position::from_setup(&setup).unwrap()
    }
}
