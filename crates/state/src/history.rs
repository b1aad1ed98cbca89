//! [`History`]: the keys of the positions of a game, for repetition counting.

/// The positions a game went through, as repetition keys, with how far back each one may repeat.
///
/// Each entry is a position's key and the number of plies since the last irreversible move
/// (capture, pawn move or loss of a castling right) at that position. A position can only repeat
/// one that is an even number of plies back (same side to move) and within that window, so
/// counting repetitions scans at most `plies / 2` keys.
///
/// The keys are supplied by the caller: a position's key in the FIDE sense (same placement,
/// side to move, castling rights and en passant *possibility*) is the Zobrist key with the en
/// passant file only when the capture is legal, which needs move generation; the `Game` type of
/// `chessbits-movegen` does this.
///
/// ```
/// use chessbits_state::History;
///
/// let mut history = History::new(0xa);
/// history.push(0xb, false);
/// history.push(0xa, false);
/// assert_eq!(history.repetitions(), 2);
/// history.push(0xc, true); // irreversible: nothing before it can repeat
/// assert_eq!(history.repetitions(), 1);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    entries: Vec<Entry>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Entry {
    key: u64,
    reversible_plies: u32,
}

impl History {
    /// A history that starts at the position with `key`. Positions before it are unknown, so
    /// they never count as repetitions.
    pub fn new(key: u64) -> History {
        History { entries: vec![Entry { key, reversible_plies: 0 }] }
    }

    /// Starts over at the position with `key`, as [`History::new`] does, keeping the memory
    /// of the positions recorded so far (for a reader that replays many games).
    pub fn reset(&mut self, key: u64) {
        self.entries.clear();
        self.entries.push(Entry { key, reversible_plies: 0 });
    }

    /// Records the position reached by the next move; `irreversible` if that move was a capture,
    /// a pawn move or cost a castling right.
    pub fn push(&mut self, key: u64, irreversible: bool) {
        let reversible_plies = if irreversible {
            0
        } else {
            self.entries.last().map_or(0, |e| e.reversible_plies + 1)
        };
        self.entries.push(Entry { key, reversible_plies });
    }

    /// Forgets the last position (the move was taken back). The starting position stays.
    pub fn pop(&mut self) {
        if self.entries.len() > 1 {
            self.entries.pop();
        }
    }

    /// The number of positions recorded, the current one included.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Always `false`: a history holds at least its starting position.
    #[deprecated(note = "always false: a history holds at least its starting position")]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The key of the current position.
    pub fn key(&self) -> u64 {
        self.entries.last().map_or(0, |e| e.key)
    }

    /// Plies since the last irreversible move at the current position.
    pub fn reversible_plies(&self) -> u32 {
        self.entries.last().map_or(0, |e| e.reversible_plies)
    }

    /// How often the current position has occurred, itself included (1 = first time).
    pub fn repetitions(&self) -> u32 {
        let Some((current, earlier)) = self.entries.split_last() else { return 0 };
        occurrences(earlier, current.key, current.reversible_plies)
    }

    /// How often the position with `key` would have occurred, itself included, if the next
    /// move (`irreversible` as for [`History::push`]) reached it: what [`History::repetitions`]
    /// would say after `push(key, irreversible)`, without pushing. For draw claims made by
    /// announcing a move (FIDE 9.2.1).
    pub fn repetitions_after(&self, key: u64, irreversible: bool) -> u32 {
        match irreversible {
            true => 1,
            false => occurrences(&self.entries, key, self.reversible_plies() + 1),
        }
    }
}

/// 1 plus how many of the entries an even number of plies before the position after `earlier`
/// (2, 4, ... up to `window` back) have `key`.
fn occurrences(earlier: &[Entry], key: u64, window: u32) -> u32 {
    let same_side = earlier.iter().rev().skip(1).step_by(2).take(window as usize / 2);
    1 + same_side.filter(|e| e.key == key).count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_only_same_side_positions_in_the_window() {
        let mut h = History::new(1);
        for key in [2, 1, 2, 1, 2, 1] {
            h.push(key, false);
        }
        assert_eq!(h.repetitions(), 4);
        h.pop();
        assert_eq!(h.repetitions(), 3, "key 2 at plies 1, 3, 5");
        h.push(1, true);
        assert_eq!(h.repetitions(), 1);
        assert_eq!(h.reversible_plies(), 0);
        // An odd distance never counts, even with an equal key.
        let mut odd = History::new(7);
        odd.push(7, false);
        assert_eq!(odd.repetitions(), 1);
        odd.pop();
        odd.pop();
        assert_eq!(odd.len(), 1);
    }

    #[test]
    fn repetitions_after_a_move_match_pushing_it() {
        // Every key 1..=3, reversible or not, after every prefix of a history with repeats.
        let steps = [(2, false), (1, false), (2, false), (3, true), (2, false), (3, false)];
        let mut h = History::new(1);
        for (key, irreversible) in steps.into_iter().chain([(1, false), (2, false)]) {
            for next in 1..=3 {
                for irr in [false, true] {
                    let mut pushed = h.clone();
                    pushed.push(next, irr);
                    assert_eq!(
                        h.repetitions_after(next, irr),
                        pushed.repetitions(),
                        "{h:?} {next}"
                    );
                }
            }
            h.push(key, irreversible);
        }
        assert_eq!(h.repetitions_after(1, false), 2, "1 two plies back");
        assert_eq!(h.repetitions_after(3, false), 1, "3 only at odd distances or before the reset");
    }
}
