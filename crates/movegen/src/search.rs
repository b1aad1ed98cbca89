//! Move lists for a search: every legal move generated in one pass into a tactical list
//! (captures, en passant, promotions) and a quiet list, in lists allocated once per ply.
//!
//! An engine's search wants captures first and no allocation per node. [`generate_split`]
//! fills the two lists of a [`SplitMoves`] in the one pass that builds a full move list (each
//! set of targets goes to the list its kind belongs to), which costs less than asking for
//! captures and quiets separately (two generations). A [`MoveStack`] holds one `SplitMoves`
//! per ply, allocated once; a recursive search takes the first for its own moves and hands the
//! rest down with [`slice::split_first_mut`] (the example at [`MoveStack`]).

use core::ops::{Deref, DerefMut};

use chessbits_move::{Move16, MoveList};
use chessbits_state::Position;

use crate::gen::Gen;
use crate::isa;
use crate::tables::{tables, Tables};

/// Clears `tactical` and `quiet`, then fills them with every legal move of `pos` in one pass:
/// captures (en passant included), promotions and capture-promotions into `tactical`, the rest
/// (castling and double pushes included) into `quiet`.
///
/// Each list is in generation order; a legal position has at most 218 moves, so the lists never
/// fill up.
///
/// ```
/// use chessbits_move::MoveList;
/// use chessbits_movegen::{generate_split, MoveGen};
/// use chessbits_state::Position;
///
/// let (mut tactical, mut quiet) = (MoveList::new(), MoveList::new());
/// generate_split(&Position::new(), &mut tactical, &mut quiet);
/// assert_eq!((tactical.len(), quiet.len()), (0, 20));
/// ```
pub fn generate_split(pos: &Position, tactical: &mut MoveList, quiet: &mut MoveList) {
    tactical.clear();
    quiet.clear();
    isa::dispatch!(split_with_fast_bits, split_with, (tables(), pos, tactical, quiet))
}

/// The body of [`generate_split`], compiled portably and for newer CPU features.
#[inline(always)]
fn split_with(t: &'static Tables, pos: &Position, tactical: &mut MoveList, quiet: &mut MoveList) {
    Gen::new(t, pos).push_split(tactical, quiet);
}

isa::fast_bits_copy!(
    /// [`split_with`] compiled for the fast-bits features.
    fn split_with_fast_bits = split_with(
        t: &'static Tables,
        pos: &Position,
        tactical: &mut MoveList,
        quiet: &mut MoveList,
    )
);

/// The legal moves of one position as a tactical list and a quiet list (see
/// [`generate_split`]): one ply of a [`MoveStack`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SplitMoves {
    tactical: MoveList,
    quiet: MoveList,
}

impl SplitMoves {
    /// Two empty lists.
    pub fn new() -> SplitMoves {
        SplitMoves::default()
    }

    /// Replaces the lists with the legal moves of `pos` ([`generate_split`]).
    #[inline]
    pub fn generate(&mut self, pos: &Position) {
        generate_split(pos, &mut self.tactical, &mut self.quiet);
    }

    /// Captures (en passant included) and promotions, in generation order until reordered.
    pub fn tactical(&self) -> &MoveList {
        &self.tactical
    }

    /// The tactical list, to reorder (by victim and attacker, say) or trim.
    pub fn tactical_mut(&mut self) -> &mut MoveList {
        &mut self.tactical
    }

    /// The moves that neither capture nor promote.
    pub fn quiet(&self) -> &MoveList {
        &self.quiet
    }

    /// The quiet list, to reorder (by history, say) or trim.
    pub fn quiet_mut(&mut self) -> &mut MoveList {
        &mut self.quiet
    }

    /// The number of moves in both lists.
    pub fn len(&self) -> usize {
        self.tactical.len() + self.quiet.len()
    }

    /// `true` if both lists are empty (after [`SplitMoves::generate`]: checkmate or
    /// stalemate).
    pub fn is_empty(&self) -> bool {
        self.tactical.is_empty() && self.quiet.is_empty()
    }

    /// Every move, tactical ones first.
    pub fn iter(&self) -> impl Iterator<Item = Move16> + '_ {
        self.tactical.iter().chain(&self.quiet).copied()
    }
}

/// Preallocated move lists for a search, one [`SplitMoves`] per ply, so generating at a node
/// allocates nothing. It dereferences to the slice of plies: index it by ply, or walk down with
/// [`slice::split_first_mut`]:
///
/// ```
/// use chessbits_movegen::{perft, MoveStack, SplitMoves};
/// use chessbits_state::Position;
///
/// /// Counts the move tree, tactical moves first at every node.
/// fn count(pos: &mut Position, plies: &mut [SplitMoves]) -> u64 {
///     let Some((here, below)) = plies.split_first_mut() else { return 1 };
///     here.generate(pos);
///     let mut nodes = 0;
///     for m in here.iter() {
///         let undo = pos.play_unchecked(m);
///         nodes += count(pos, below);
///         pos.undo(undo);
///     }
///     nodes
/// }
///
/// let mut stack = MoveStack::new(3);
/// let mut pos = Position::new();
/// assert_eq!(count(&mut pos, &mut stack), perft(&pos, 3));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveStack {
    plies: Box<[SplitMoves]>,
}

impl MoveStack {
    /// Lists for `plies` plies (about 1 KiB each), allocated now and never again.
    pub fn new(plies: usize) -> MoveStack {
        MoveStack { plies: (0..plies).map(|_| SplitMoves::new()).collect() }
    }
}

impl Deref for MoveStack {
    type Target = [SplitMoves];

    fn deref(&self) -> &[SplitMoves] {
        &self.plies
    }
}

impl DerefMut for MoveStack {
    fn deref_mut(&mut self) -> &mut [SplitMoves] {
        &mut self.plies
    }
}
