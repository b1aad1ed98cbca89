//! The index file's checksums: one CRC-32 per 64 KiB region of the body (the header and the
//! sections), a table of them after the body, and the table's own CRC-32 last.
//!
//! A reader checks the first region (the header) when it opens the file, and every other
//! region the first time a query reads a byte of it: opening takes the same time at any size. So a query on a
//! memory-mapped index reads the regions it needs, never the whole file, and still never
//! answers from a damaged byte: a region that does not match its checksum is an error
//! ([`IndexError::Checksum`]) the first time and every time it is read.

use core::sync::atomic::{AtomicU64, Ordering};

use crate::format::IndexError;
use crate::mapped::Storage;

/// The bytes of the body each checksum covers (the last region may be shorter).
pub const REGION_LEN: usize = 1 << REGION_BITS;

const REGION_BITS: u32 = 16;

/// The regions of a body of `body` bytes.
pub(crate) fn region_count(body: usize) -> usize {
    body.div_ceil(REGION_LEN)
}

/// The length of the body of a file of `file_len` bytes: the `body` with `body + 4 *
/// region_count(body) + 4 == file_len`, if there is one (a file cut anywhere has none, or a
/// body that its header then disowns).
pub(crate) fn body_len(file_len: usize) -> Option<usize> {
    let sums = file_len.checked_sub(4)?;
    // `body + 4 * ceil(body / R)` grows with `body`: at most one body fits.
    let regions = sums.div_ceil(REGION_LEN + 4);
    let body = sums.checked_sub(4 * regions)?;
    (region_count(body) == regions).then_some(body)
}

/// The CRC-32 (IEEE 802.3, as zip and PNG) of `bytes`.
pub fn crc32(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}

/// The checksums of a body written in pieces: a CRC-32 per region, then the table's.
pub(crate) struct RegionSums {
    sums: Vec<u8>,
    region: crc32fast::Hasher,
    /// The bytes of the current region added so far.
    filled: usize,
}

impl RegionSums {
    pub(crate) fn new() -> RegionSums {
        RegionSums { sums: Vec::new(), region: crc32fast::Hasher::new(), filled: 0 }
    }

    /// Adds the next `bytes` of the body.
    pub(crate) fn update(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let take = bytes.len().min(REGION_LEN - self.filled);
            self.region.update(&bytes[..take]);
            self.filled += take;
            bytes = &bytes[take..];
            if self.filled == REGION_LEN {
                self.end_region();
            }
        }
    }

    fn end_region(&mut self) {
        let region = core::mem::take(&mut self.region);
        self.sums.extend_from_slice(&region.finalize().to_le_bytes());
        self.filled = 0;
    }

    /// The bytes that follow the body: the table of region checksums and its own checksum.
    pub(crate) fn finish(mut self) -> Vec<u8> {
        if self.filled > 0 {
            self.end_region();
        }
        let table = crc32(&self.sums);
        self.sums.extend_from_slice(&table.to_le_bytes());
        self.sums
    }
}

/// Rewrites the checksums of an index file whose body was changed in place, so that they
/// match it again; false if `file`'s length is not one an index can have. For tests that
/// forge damaged files, to reach the reader's checks behind the checksums.
#[doc(hidden)]
pub fn reseal(file: &mut [u8]) -> bool {
    let Some(body) = body_len(file.len()) else { return false };
    let mut sums = RegionSums::new();
    sums.update(&file[..body]);
    file[body..].copy_from_slice(&sums.finish());
    true
}

/// The reader's side: which regions have been checked, and the table to check them against.
pub(crate) struct Regions {
    /// Where the table of checksums starts (the body's length).
    table: usize,
    /// A bit per region, set once it has matched its checksum.
    checked: Box<[AtomicU64]>,
}

impl Regions {
    /// The regions of the index file `file`, its header's region checked: the time it takes
    /// does not grow with the file. The table's own checksum is left to
    /// [`check_all`](Regions::check_all): a damaged entry of the table fails its region, so it
    /// makes an error where a query reads that region, never an answer.
    ///
    /// # Errors
    /// [`IndexError::Checksum`] for a file of a length no index has, or a header that does not
    /// match its checksum.
    pub(crate) fn new(file: &Storage) -> Result<Regions, IndexError> {
        let table = body_len(file.len()).ok_or(IndexError::Checksum { byte: file.len() as u64 })?;
        let words = region_count(table).div_ceil(64);
        let checked = (0..words).map(|_| AtomicU64::new(0)).collect();
        let regions = Regions { table, checked };
        if table > 0 {
            regions.check(file, 0, 1)?;
        }
        Ok(regions)
    }

    /// The body's length: where the checksums start.
    pub(crate) fn body_len(&self) -> usize {
        self.table
    }

    /// Checks the regions that bytes `at..end` of the body lie in (`end > at`), those not
    /// checked before.
    #[inline]
    pub(crate) fn check(&self, file: &Storage, at: usize, end: usize) -> Result<(), IndexError> {
        for region in at >> REGION_BITS..=(end - 1) >> REGION_BITS {
            let (word, bit) = (region / 64, 1u64 << (region % 64));
            let word = self
                .checked
                .get(word)
                .ok_or(IndexError::Corrupt { field: "offset", byte: at as u64 })?;
            if word.load(Ordering::Relaxed) & bit == 0 {
                self.check_region(file, region)?;
                word.fetch_or(bit, Ordering::Relaxed);
            }
        }
        Ok(())
    }

    #[cold]
    fn check_region(&self, file: &Storage, region: usize) -> Result<(), IndexError> {
        let start = region << REGION_BITS;
        let end = (start + REGION_LEN).min(self.table);
        file.will_need(start, end - start);
        let sum_at = self.table + 4 * region;
        match (file.get(start..end), file.get(sum_at..sum_at + 4)) {
            (Some(body), Some(stored)) if crc32(body).to_le_bytes() == stored => Ok(()),
            _ => Err(IndexError::Checksum { byte: start as u64 }),
        }
    }

    /// Checks the checksum table against its own checksum, then every region.
    pub(crate) fn check_all(&self, file: &Storage) -> Result<(), IndexError> {
        let (sums, stored) = file[self.table..].split_at(file.len() - self.table - 4);
        if crc32(sums).to_le_bytes() != stored {
            return Err(IndexError::Checksum { byte: self.table as u64 });
        }
        if self.table > 0 {
            self.check(file, 0, self.table)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_check_value() {
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
        assert_eq!(crc32(b""), 0);
    }

    /// Every body length maps to one file length and back; the lengths between them are no
    /// index's.
    #[test]
    fn body_lengths_round_trip() {
        let mut files = Vec::new();
        for body in (1..5).chain(REGION_LEN - 2..REGION_LEN + 3).chain([3 * REGION_LEN + 7]) {
            let file = body + 4 * region_count(body) + 4;
            assert_eq!(body_len(file), Some(body), "body {body}");
            files.push(file);
        }
        // A region's 4 bytes of checksum make lengths that no body gives.
        let after_one = REGION_LEN + 4 + 4;
        assert_eq!(body_len(after_one + 1), None);
        assert_eq!(body_len(after_one + 4), None);
        assert_eq!(body_len(3), None);
    }

    /// The sums written in pieces equal those of the whole, and a flipped byte is caught in
    /// its region only.
    #[test]
    fn regions_catch_a_flipped_byte_where_it_is() {
        let body: Vec<u8> = (0..3 * REGION_LEN + 100).map(|i| (i * 7 + i / 300) as u8).collect();
        let mut sums = RegionSums::new();
        for piece in body.chunks(1000) {
            sums.update(piece);
        }
        let mut file = body.clone();
        file.extend(sums.finish());
        let mut whole = file.clone();
        assert!(reseal(&mut whole));
        assert_eq!(whole, file);
        let intact = Storage::Owned(file.clone());
        let regions = Regions::new(&intact).unwrap();
        regions.check_all(&intact).unwrap();
        file[2 * REGION_LEN + 5] ^= 4;
        let file = Storage::Owned(file);
        let regions = Regions::new(&file).unwrap();
        assert!(regions.check(&file, 0, 2 * REGION_LEN).is_ok());
        let at = 2 * REGION_LEN as u64;
        for _ in 0..2 {
            let err = regions.check(&file, 2 * REGION_LEN + 10, 2 * REGION_LEN + 11);
            assert!(matches!(err, Err(IndexError::Checksum { byte }) if byte == at), "{err:?}");
        }
        assert!(regions.check(&file, 3 * REGION_LEN, 3 * REGION_LEN + 100).is_ok());
        let mut file = file.to_vec();
        // The table's own checksum is the whole check's, not the opening's.
        let last = file.len() - 1;
        file[last] ^= 1;
        let table = Storage::Owned(file.clone());
        let regions = Regions::new(&table).unwrap();
        let err = regions.check_all(&table);
        assert!(matches!(err, Err(IndexError::Checksum { byte }) if byte == body.len() as u64));
        file[1] ^= 1;
        let file = Storage::Owned(file);
        assert!(matches!(Regions::new(&file), Err(IndexError::Checksum { byte: 0 })));
    }
}
