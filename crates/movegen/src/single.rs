//! One move tested on its own: [`legal_move`], the legal move of one piece to one square, and
//! [`legal_moves_to`], the moves of one role to one square (what a SAN names), with no list and
//! no per-position setup (checkers, pins) — what SAN resolution and move-by-move readers need,
//! where the generator's setup would cost more than the whole answer.
//!
//! A move of a non-king piece is legal when the piece can make it on the board (its attack or
//! push reaches the target, which holds no piece of ours) and afterwards no enemy piece attacks
//! our king: one test with the occupancy the move leaves, which covers checks, pins and
//! discovered checks at once. A king move is legal when its target is not attacked with the
//! king lifted off the board. En passant, whose capture vacates a third square, goes to the
//! generator; castling is not a move of this kind (its `Move16` targets our own rook).
//!
//! Sliders are tested through their empty-board rays and the squares between two squares, not
//! through the generator's magic tables: one move at a time, between other work (a PGN reader's
//! scanning and output), the 800 KiB of magic attack sets miss the cache where these small
//! tables do not. `cargo run --release -p chessbits-benches --example san_speed` measures it.

use arrayvec::ArrayVec;
use chessbits_bitboard::tables as fixed;
use chessbits_bitboard::{Bitboard, Color, Rank, Role, Square};
use chessbits_move::{Move16, MoveKind};
use chessbits_state::Position;

use crate::gen::Side;
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
    let enemy = Side::of(pos, !us);
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
            if !reach || promotion.is_some() || attacked(enemy, to, lifted, Bitboard::EMPTY) {
                return None;
            }
            return Some(Move16::new(from, to, plain(capture)));
        }
        Role::Knight => plain_if(t.knight(from).contains(to), capture, promotion)?,
        Role::Bishop => {
            plain_if(slides(fixed::bishop_rays(from), from, to, occupied), capture, promotion)?
        }
        Role::Rook => {
            plain_if(slides(fixed::rook_rays(from), from, to, occupied), capture, promotion)?
        }
        Role::Queen => {
            plain_if(slides(fixed::line(from, to), from, to, occupied), capture, promotion)?
        }
    };
    // Our king after the move: attacked by anything but the piece taken on `to`?
    let after = (occupied - Bitboard::from_square(from)) | Bitboard::from_square(to);
    let safe = !attacked(enemy, pos.our_king(), after, Bitboard::from_square(to));
    safe.then(|| Move16::new(from, to, kind))
}

/// The legal moves to `to` of our pieces of `role` standing on `origins` (castling excluded),
/// promoting to `promotion`: what a SAN names, found with one dispatch on the role. See
/// [`MoveGen::legal_moves_to`].
///
/// Each origin is tested as in [`legal_move`], with the reach known from the role: a knight or
/// king on the target's jump squares always reaches it, a slider on its rays when nothing stands
/// between. At most eight origins can reach one square (one per ray or jump), so the list holds
/// them all. Inlined into its caller: returned through memory, the list's two-byte moves
/// were read back as eight-byte words, a store-forwarding stall that cost a tenth of the
/// function.
#[inline(always)]
pub(crate) fn legal_moves_to(
    pos: &Position,
    role: Role,
    origins: Bitboard,
    to: Square,
    promotion: Option<Role>,
) -> MovesTo {
    let mut found = MovesTo::new();
    let us = pos.turn();
    if pos.us().contains(to) {
        return found;
    }
    let origins = origins & pos.our(role);
    let (reach, lines) = match role {
        Role::Pawn => return pawn_moves_to(pos, origins, to, promotion),
        _ if promotion.is_some() => return found,
        Role::King => {
            let enemy = Side::of(pos, !us);
            let occupied = pos.board().occupied();
            let kind = plain(pos.them().contains(to));
            for from in origins & fixed::king(to) {
                if !attacked(enemy, to, occupied - Bitboard::from_square(from), Bitboard::EMPTY) {
                    push(&mut found, Move16::new(from, to, kind));
                }
            }
            return found;
        }
        Role::Knight => (fixed::knight(to), false),
        Role::Bishop => (fixed::bishop_rays(to), true),
        Role::Rook => (fixed::rook_rays(to), true),
        Role::Queen => (fixed::rook_rays(to) | fixed::bishop_rays(to), true),
    };
    let origins = origins & reach;
    if origins.is_empty() {
        return found;
    }
    let enemy = Side::of(pos, !us);
    let occupied = pos.board().occupied();
    let kind = plain(pos.them().contains(to));
    let king = pos.our_king();
    let taken = Bitboard::from_square(to);
    for from in origins {
        if lines && (fixed::between(from, to) & occupied).any() {
            continue;
        }
        let after = (occupied - Bitboard::from_square(from)) | taken;
        if !attacked(enemy, king, after, taken) {
            push(&mut found, Move16::new(from, to, kind));
        }
    }
    found
}

/// [`legal_moves_to`] for pawns (`origins`: our pawns allowed): a capture from the two squares
/// diagonally behind `to`, a push from the square behind it, a double push from two behind. The
/// promotion is checked once; en passant goes to the generator, as in [`legal_move`].
#[inline(always)]
fn pawn_moves_to(
    pos: &Position,
    origins: Bitboard,
    to: Square,
    promotion: Option<Role>,
) -> MovesTo {
    let mut found = MovesTo::new();
    let us = pos.turn();
    let last = to.rank() == Rank::Eighth.relative_to(us);
    match promotion {
        None if last => return found,
        Some(role) if !last || !Role::PROMOTIONS.contains(&role) => return found,
        _ => {}
    }
    let occupied = pos.board().occupied();
    let enemy = Side::of(pos, !us);
    let king = pos.our_king();
    let taken = Bitboard::from_square(to);
    let safe = |from: Square| {
        let after = (occupied - Bitboard::from_square(from)) | taken;
        !attacked(enemy, king, after, taken)
    };
    let diagonal = origins & fixed::pawn(!us, to);
    if pos.them().contains(to) {
        let kind = promotion.map_or(MoveKind::Capture, MoveKind::CapturePromotion);
        for from in diagonal {
            if safe(from) {
                push(&mut found, Move16::new(from, to, kind));
            }
        }
        return found;
    }
    if occupied.contains(to) {
        return found;
    }
    if Some(to) == pos.ep_square() {
        for from in diagonal {
            if let Some(m) = en_passant(pos, from, to, promotion) {
                push(&mut found, m);
            }
        }
    }
    let back = if us == Color::White { -1 } else { 1 };
    let Some(one) = to.offset(0, back) else {
        return found;
    };
    if origins.contains(one) {
        if safe(one) {
            let kind = promotion.map_or(MoveKind::Quiet, MoveKind::Promotion);
            push(&mut found, Move16::new(one, to, kind));
        }
    } else if to.rank() == Rank::Fourth.relative_to(us) && !occupied.contains(one) {
        let two = Square::from_coords(to.file(), Rank::Second.relative_to(us));
        if origins.contains(two) && safe(two) {
            push(&mut found, Move16::new(two, to, MoveKind::DoublePush));
        }
    }
    found
}

/// The list [`MoveGen::legal_moves_to`] fills: at most eight moves, since at most eight
/// pieces of one role reach one square (one per ray or jump).
pub type MovesTo = ArrayVec<Move16, 8>;

/// Adds `m` to `found`, which never holds more than eight moves to one square (see
/// [`legal_moves_to`]); a ninth would be dropped rather than panic.
#[inline(always)]
fn push(found: &mut MovesTo, m: Move16) {
    let _ = found.try_push(m);
}

/// `true` if a slider on `from` whose empty-board rays are `rays` reaches `to` on `occupied`:
/// `to` is on a ray and nothing stands between.
#[inline(always)]
fn slides(rays: Bitboard, from: Square, to: Square, occupied: Bitboard) -> bool {
    rays.contains(to) && (fixed::between(from, to) & occupied).is_empty()
}

/// `true` if a piece of `enemy`, other than one on `spared`, attacks `sq` given `occupied`.
///
/// The sliders are found on the empty-board rays of `sq` and tested square by square for a
/// clear line: a few small tables that stay in the first-level cache, where the magic lookups
/// of the generator reach into 800 KiB of attack sets. One move is tested at a time here, so
/// the cache misses, not the arithmetic, are the cost (issue 44: SAN resolution in blitz games).
#[inline(always)]
fn attacked(enemy: Side, sq: Square, occupied: Bitboard, spared: Bitboard) -> bool {
    let leapers = fixed::knight(sq) & enemy.knights
        | fixed::king(sq) & enemy.kings
        | fixed::pawn(!enemy.color, sq) & enemy.pawns;
    if (leapers - spared).any() {
        return true;
    }
    let sliders =
        (fixed::rook_rays(sq) & enemy.straight | fixed::bishop_rays(sq) & enemy.diagonal) - spared;
    sliders.into_iter().any(|slider| (fixed::between(sq, slider) & occupied).is_empty())
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
/// verifies en passant on its own. Rare, and the generator is large: kept out of line, so that
/// the common moves' code stays small.
#[cold]
#[inline(never)]
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

    /// Every (role, origins, to, promotion) a SAN could name, against the generator's list:
    /// all origins, and a mask from `seed` that keeps about half of them (a SAN's file and rank).
    fn check_moves_to(pos: &Position, seed: u64) -> usize {
        let legal = pos.legal_moves();
        let mut found = 0;
        for role in Role::ALL {
            for to in Square::ALL {
                for promotion in [None, Some(Role::Knight), Some(Role::Queen), Some(Role::King)] {
                    for origins in [Bitboard::FULL, Bitboard(seed.rotate_left(to as u32))] {
                        let mut got = legal_moves_to(pos, role, origins, to, promotion);
                        got.sort_by_key(|m| m.bits());
                        let mut want: Vec<Move16> = legal
                            .iter()
                            .copied()
                            .filter(|m| {
                                pos.board().role_at(m.from()) == Some(role)
                                    && origins.contains(m.from())
                                    && m.to() == to
                                    && m.promotion() == promotion
                                    && !m.is_castling()
                            })
                            .collect();
                        want.sort_by_key(|m| m.bits());
                        assert_eq!(got.as_slice(), want, "{pos:?} {role:?} {to} {promotion:?}");
                        // The trait's provided method, from the generator, agrees.
                        let mut provided =
                            crate::moves_to_by_visit(pos, role, origins, to, promotion);
                        provided.sort_by_key(|m| m.bits());
                        assert_eq!(provided.as_slice(), want, "provided: {pos:?} {role:?} {to}");
                        found += got.len();
                    }
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
            assert!(check_moves_to(&parse(fen), 0x9e37_79b9_7f4a_7c15) > 0, "{fen}");
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
                    check_moves_to(&pos, seed);
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
