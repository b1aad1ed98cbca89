//! The perft transposition table: subtree counts shared between threads without locks.

use std::sync::atomic::{AtomicU64, Ordering};

use chessbits_state::Position;

/// A perft transposition table: counts of subtrees keyed by the full 64-bit Zobrist key and the
/// remaining depth, shared between threads without locks.
///
/// Each slot is two `AtomicU64`s: `key ^ data` and `data`, where `data` packs the depth (low 8
/// bits) and the count (high 56 bits). A reader accepts a slot only if the two words give back its
/// full key and the depth matches, so a slot torn by a concurrent writer reads as a miss unless
/// the mixed words happen to XOR to the probed key. That, and two positions sharing a 64-bit key,
/// are the only ways a count can go wrong: each about 2^-64 per probe, the usual bound of full-key
/// hashing. Replacement is always-replace.
pub struct PerftTable {
    slots: Box<[[AtomicU64; 2]]>,
    mask: usize,
}

impl PerftTable {
    /// A table of about `megabytes` MiB (rounded down to a power of two slots; at least one).
    pub fn new(megabytes: usize) -> PerftTable {
        let wanted = (megabytes.saturating_mul(1 << 20) / 16).max(1);
        let len = if wanted.is_power_of_two() { wanted } else { wanted.next_power_of_two() >> 1 };
        let slots = (0..len).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]).collect();
        PerftTable { slots, mask: len - 1 }
    }

    /// The number of slots (at least one).
    #[allow(clippy::len_without_is_empty, reason = "a table always has at least one slot")]
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Always `false`: a table has at least one slot.
    #[deprecated(note = "always false: a table has at least one slot")]
    pub fn is_empty(&self) -> bool {
        false
    }

    #[inline]
    pub(crate) fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        let slot = &self.slots[key as usize & self.mask];
        let data = slot[1].load(Ordering::Relaxed);
        let check = slot[0].load(Ordering::Relaxed);
        (check ^ data == key && data & 0xff == depth as u64).then_some(data >> 8)
    }

    #[inline]
    pub(crate) fn store(&self, key: u64, depth: u32, nodes: u64) {
        // Counts above 2^56 (far beyond any perft that fits a run) are simply not stored.
        if nodes >> 56 != 0 {
            return;
        }
        let data = nodes << 8 | depth as u64;
        let slot = &self.slots[key as usize & self.mask];
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }
}

/// The position's Zobrist key salted with its castling rooks' squares: the Polyglot key says
/// which rights are held but not with which rook, and in Chess960 two positions with the same
/// placement and rights may castle with different rooks.
#[inline]
pub(crate) fn table_key(pos: &Position) -> u64 {
    let castles = pos.castles();
    if castles.is_empty() {
        return pos.key();
    }
    pos.key() ^ castles.rook_squares().0.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(17)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chessbits_bitboard::{Color, Piece, Role, Square};

    #[test]
    fn sizes_and_castling_rook_keys() {
        assert_eq!(PerftTable::new(0).len(), 1);
        assert_eq!(PerftTable::new(1).len(), 1 << 16);
        // Same placement and rights, different castling rook: different table keys.
        let setup = |rooks: &[Square]| {
            let mut s = chessbits_state::Setup::empty();
            s.board.set_piece_at(Square::E1, Piece::new(Color::White, Role::King));
            s.board.set_piece_at(Square::E8, Piece::new(Color::Black, Role::King));
            s.board.set_piece_at(Square::G1, Piece::new(Color::White, Role::Rook));
            s.board.set_piece_at(Square::H1, Piece::new(Color::White, Role::Rook));
            s.castling_rooks = rooks.iter().copied().collect();
            Position::from_setup(&s).unwrap()
        };
        let (outer, inner) = (setup(&[Square::H1]), setup(&[Square::G1]));
        assert_eq!(outer.key(), inner.key());
        assert_ne!(table_key(&outer), table_key(&inner));
    }

    #[test]
    fn a_slot_never_answers_for_another_key_or_depth() {
        let table = PerftTable::new(0);
        table.store(0xdead_beef, 4, 1234);
        assert_eq!(table.probe(0xdead_beef, 4), Some(1234));
        assert_eq!(table.probe(0xdead_beef, 5), None);
        assert_eq!(table.probe(0xdead_beee, 4), None);
        // A torn slot (one word from another entry) reads as a miss here.
        table.slots[0][1].store(99 << 8 | 4, Ordering::Relaxed);
        assert_eq!(table.probe(0xdead_beef, 4), None);
    }
}
