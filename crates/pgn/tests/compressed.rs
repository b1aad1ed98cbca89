//! Compressed game files: each compression read back byte for byte, concatenated frames and
//! members, and truncated or corrupt streams reported with their offset after every game before
//! them has been read, also through the parallel pipeline.

#![cfg(feature = "compression")]

use std::io::{self, Read, Write};

use chessbits_pgn::{
    par_games, CompressedStreamError, Compression, Input, Output, Parallel, PgnErrorKind,
    PgnReader, Replay,
};

fn sample() -> Vec<u8> {
    chessbits_testkit::LICHESS_SAMPLE.to_vec()
}

fn compress(bytes: &[u8], compression: Compression) -> Vec<u8> {
    match compression {
        Compression::Zstd => zstd::stream::encode_all(bytes, 3).unwrap(),
        Compression::Gzip => {
            let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            w.write_all(bytes).unwrap();
            w.finish().unwrap()
        }
        Compression::Bzip2 => {
            let mut w = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
            w.write_all(bytes).unwrap();
            w.finish().unwrap()
        }
        _ => bytes.to_vec(),
    }
}

const ALL: [Compression; 4] =
    [Compression::None, Compression::Zstd, Compression::Gzip, Compression::Bzip2];

fn read_all(input: Input) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut input = input;
    input.read_to_end(&mut out)?;
    Ok(out)
}

#[test]
fn every_compression_reads_back_byte_for_byte() {
    let pgn = sample();
    for compression in ALL {
        let packed = compress(&pgn, compression);
        let input = Input::new(io::Cursor::new(packed.clone())).unwrap();
        assert_eq!(input.compression(), compression);
        let count = input.read_count();
        assert_eq!(read_all(input).unwrap(), pgn, "{compression}");
        assert_eq!(count.get(), packed.len() as u64, "{compression}: every byte read");
    }
}

/// `cat a.pgn.zst b.pgn.zst`, `pigz`, `pbzip2`: several frames, members or streams in one file.
#[test]
fn concatenated_streams_read_as_one() {
    let pgn = sample();
    let (a, b) = pgn.split_at(pgn.len() / 3);
    for compression in ALL {
        let mut joined = compress(a, compression);
        joined.extend(compress(b, compression));
        let input = Input::new(io::Cursor::new(joined)).unwrap();
        assert_eq!(read_all(input).unwrap(), pgn, "{compression}");
    }
}

#[test]
fn output_compresses_by_extension() {
    let dir = std::env::temp_dir().join(format!("chessbits-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = sample();
    for (name, compression) in [
        ("g.pgn", Compression::None),
        ("g.pgn.zst", Compression::Zstd),
        ("g.pgn.gz", Compression::Gzip),
        ("g.pgn.bz2", Compression::Bzip2),
    ] {
        let path = dir.join(name);
        let mut out = Output::create(&path).unwrap();
        out.write_all(&pgn).unwrap();
        out.finish().unwrap();
        let input = Input::open(&path).unwrap();
        assert_eq!(input.compression(), compression, "{name}");
        assert_eq!(read_all(input).unwrap(), pgn, "{name}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn archives_that_are_not_read_say_so() {
    let zip = Input::new(&b"PK\x03\x04\x14\x00rest"[..]).unwrap_err();
    assert_eq!(zip.to_string(), "the input is a zip archive: unzip it first");
    let xz = Input::new(&b"\xfd7zXZ\x00rest"[..]).unwrap_err();
    assert!(xz.to_string().starts_with("the input is an xz stream"), "{xz}");
    // Short and empty inputs are plain.
    assert_eq!(Input::new(&b""[..]).unwrap().compression(), Compression::None);
    assert_eq!(Input::new(&b"1."[..]).unwrap().compression(), Compression::None);
}

/// Every game of `input` read by one reader: numbers and results as text.
fn games(input: impl Read) -> Vec<String> {
    let mut reader = PgnReader::new(input);
    let mut out = Vec::new();
    while let Some(game) = reader.read_game(&mut Replay::default()) {
        out.push(match game {
            Ok(g) => format!("{} ok {}", reader.games(), g.game.moves().len()),
            Err(e) => format!("{} {e}", reader.games()),
        });
    }
    out
}

/// Every game of the compressed `packed` read by `par_games` with `options`, as [`games`]
/// writes them.
fn parallel_games(packed: &[u8], options: &Parallel) -> Vec<String> {
    let input = Input::new(io::Cursor::new(packed.to_vec())).unwrap();
    let mut parallel = Vec::new();
    par_games(
        input,
        options,
        Replay::default,
        |n, g| match g {
            Ok(g) => format!("{n} ok {}", g.game.moves().len()),
            Err(e) => format!("{n} {e}"),
        },
        |line| {
            parallel.push(line);
            Ok::<_, io::Error>(())
        },
    )
    .unwrap();
    parallel
}

/// A truncated stream: the games before the cut, then the read error naming the compression
/// and the byte it stopped at; the same through the parallel pipeline.
#[test]
fn a_truncated_stream_ends_with_an_error_after_the_games_before_it() {
    // Several of zstd's 128 KiB blocks: a decoder gives a block's bytes once it has all of it.
    let pgn = sample().repeat(4);
    let complete = games(&pgn[..]);
    for compression in [Compression::Zstd, Compression::Gzip, Compression::Bzip2] {
        let packed = compress(&pgn, compression);
        // Past the first block (the repeats compress to little), short of the end.
        let cut = packed.len() - packed.len() / 20;
        let got = games(Input::new(io::Cursor::new(packed[..cut].to_vec())).unwrap());
        let last = got.last().unwrap();
        assert!(
            last.contains(&format!("read error: {compression} stream broken at byte")),
            "{compression}: {last}"
        );
        // Every game before the broken one reads as in the whole file.
        assert!(got.len() > 10, "{compression}: {} games", got.len());
        assert_eq!(got[..got.len() - 2], complete[..got.len() - 2], "{compression}");
        // The error inside carries where it stopped.
        let mut input = Input::new(io::Cursor::new(packed[..cut].to_vec())).unwrap();
        let err = io::copy(&mut input, &mut io::sink()).unwrap_err();
        let inner = err.get_ref().and_then(|e| e.downcast_ref::<CompressedStreamError>()).unwrap();
        assert_eq!(inner.compression, compression);
        assert!(inner.offset <= cut as u64 && inner.offset > 0, "{compression}: {inner}");
        assert!(inner.decompressed < pgn.len() as u64);
        for threads in [2, 3] {
            let options = Parallel::new(threads).with_chunk_size(10_000);
            let parallel = parallel_games(&packed[..cut], &options);
            assert_eq!(parallel, got, "{compression}, {threads} threads");
        }
    }
}

/// Garbage in the middle of a stream, and garbage after a good one: a read error, never a
/// panic, never a game made of garbage.
#[test]
fn garbage_in_a_stream_is_a_read_error() {
    let pgn = sample();
    for compression in [Compression::Zstd, Compression::Gzip, Compression::Bzip2] {
        let packed = compress(&pgn, compression);
        let mut broken = packed.clone();
        let mid = broken.len() / 2;
        for b in &mut broken[mid..mid + 64] {
            *b ^= 0x5a;
        }
        let got = games(Input::new(io::Cursor::new(broken)).unwrap());
        assert!(got.last().unwrap().contains("read error"), "{compression}: {:?}", got.last());
        let mut trailing = packed.clone();
        trailing.extend_from_slice(b"this is not a frame");
        let mut input = Input::new(io::Cursor::new(trailing)).unwrap();
        let read = io::copy(&mut input, &mut io::sink());
        assert!(read.is_err(), "{compression}: trailing garbage read as {read:?}");
    }
}

#[test]
fn a_read_error_is_a_pgn_io_error() {
    let packed = compress(&sample(), Compression::Zstd);
    let mut reader = PgnReader::new(Input::new(io::Cursor::new(packed[..500].to_vec())).unwrap());
    let mut last = None;
    while let Some(game) = reader.read_game(&mut Replay::default()) {
        last = Some(game);
    }
    let err = last.unwrap().unwrap_err();
    assert!(matches!(err.kind, PgnErrorKind::Io(_)), "{err}");
}

/// A damaged stream reads the same on every thread count: the same games, then the same
/// error. Where a decompressor stops inside a damaged block depends on the sizes it is asked
/// for, and one thread asked for small reads where the pipeline's reading thread asked for a
/// megabyte, so a bzip2 file with one flipped bit gave 2,742 games on one thread and 1,620 on
/// two (a newcomer's trial, on TWIC 920).
#[test]
fn a_damaged_stream_reads_the_same_on_every_thread_count() {
    let pgn = sample().repeat(12);
    let mut errors = 0;
    for compression in [Compression::Zstd, Compression::Gzip, Compression::Bzip2] {
        let packed = compress(&pgn, compression);
        for (at, bit) in
            [(packed.len() / 3, 0x10), (packed.len() / 2, 0x01), (packed.len() - 9, 0x04)]
        {
            let mut damaged = packed.clone();
            damaged[at] ^= bit;
            // Garbled games, a read error, or both (a zstd frame written without a checksum
            // may decode to other bytes without one).
            let serial = games(Input::new(io::Cursor::new(damaged.clone())).unwrap());
            errors += usize::from(serial.last().is_some_and(|last| last.contains("read error")));
            for threads in [2, 3] {
                let parallel = parallel_games(&damaged, &Parallel::new(threads));
                assert!(parallel == serial, "{compression}, byte {at}, {threads} threads");
            }
        }
    }
    assert!(errors >= 5, "{errors} of 9 damaged streams ended in a read error");
}
