//! Recovery after a broken game: the parser skips the rest of it, as a reader that skips the
//! game would end it, so that the next game starts at the same byte for every visitor and
//! every reader.

use memchr::memchr2;

use super::{Parser, Phase, TAG_PROBE};
use crate::source::Source;
use crate::visitor::SkipGame;

impl<S: Source> Parser<S> {
    /// Skips the rest of a game after an error.
    pub(super) fn recover(&mut self) {
        if core::mem::take(&mut self.refused_tags) {
            // Refused once its tags were read: the movetext is skipped as the skipping reader
            // skips it, so the game ends where `Chunks` ends it.
            self.skip_movetext_from_start();
            return;
        }
        if self.phase == Phase::Tags && core::mem::take(&mut self.refused_tag) {
            // The visitor refused a well-formed tag: the tags after it are read as a reader
            // that skips the game reads them, so that the game ends where it ends for every
            // visitor (`Chunks` cuts an input where the skipping reader ends its games).
            if self.tags(&mut SkipGame).is_ok() {
                self.skip_movetext_from_start();
                return;
            }
            // A broken tag after it: skipped as a broken tag is.
        }
        if self.phase == Phase::Tags {
            // Skip the bad tag (to its `]` or the end of its line; a tag over the length
            // limit whole) and the tags after it.
            match self.long_tag.take() {
                Some(u64::MAX) => self.skip_line(),
                Some(end) => self.skip_to(end),
                None => self.skip_tag(),
            }
            while self.skip_space() == Some(b'[') {
                self.fill(TAG_PROBE);
                let rest = self.src.buf().get(self.pos..).unwrap_or_default();
                if rest.starts_with(b"[Event ") || rest.starts_with(b"[Event\t") {
                    return;
                }
                self.skip_tag();
            }
            self.depth = 0;
        }
        self.skip_movetext(self.depth, false);
    }

    /// Skips to input offset `end`, which the buffer holds (a tag read whole).
    fn skip_to(&mut self, end: u64) {
        let at = usize::try_from(end.saturating_sub(self.src.base())).unwrap_or(usize::MAX);
        self.pos = self.pos.max(at.min(self.src.buf().len()));
    }

    /// Skips to after the next `]` on this line, or to the next line.
    fn skip_tag(&mut self) {
        loop {
            let buf = self.src.buf();
            let rest = buf.get(self.pos..).unwrap_or_default();
            if let Some(i) = memchr2(b']', b'\n', rest) {
                self.pos += i + 1;
                return;
            }
            self.pos = buf.len();
            if !self.fill(1) {
                return;
            }
        }
    }
}
