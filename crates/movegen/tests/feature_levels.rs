//! Every `#[target_feature]` this crate spells out names one of the feature levels of
//! `chessbits_bitboard::isa` exactly: a copy called after a level's detection must be compiled
//! for that level's features and no others, or the detection would not make the call safe.

use std::path::Path;

use chessbits_bitboard::isa::{AVX2_FEATURES, AVX512_FEATURES, FAST_BITS_FEATURES};

/// The feature lists of the `#[target_feature(enable = "...")]` attributes in `source`, with
/// the line each starts on (an attribute may wrap over lines).
fn spelled_lists(source: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut rest = source;
    let mut offset = 0;
    while let Some(at) = rest.find("#[target_feature(") {
        let after = &rest[at..];
        let end = after.find(")]").expect("an attribute closes");
        let attribute: String = after[..end].split_whitespace().collect();
        let line = source[..offset + at].lines().count() + 1;
        let list = attribute
            .strip_prefix("#[target_feature(enable=\"")
            .and_then(|l| l.strip_suffix('"'))
            .filter(|l| !l.contains('"'))
            .unwrap_or_else(|| panic!("line {line}: not one enable list: {attribute}"));
        found.push((line, list.to_string()));
        offset += at + end;
        rest = &rest[at + end..];
    }
    found
}

/// The Rust files under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_spelled_attribute_is_a_level() {
    let mut files = Vec::new();
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    let levels = [FAST_BITS_FEATURES, AVX2_FEATURES, AVX512_FEATURES];
    let mut spelled = 0;
    for file in &files {
        let source = std::fs::read_to_string(file).expect("readable source");
        for (line, list) in spelled_lists(&source) {
            assert!(levels.contains(&list.as_str()), "{}:{line}: {list}", file.display());
            spelled += 1;
        }
    }
    // The SIMD helpers of the AVX2 and AVX-512 widths: if none were found, the scan is wrong.
    assert!(spelled >= 10, "only {spelled} attributes found");
}

#[test]
fn the_scan_reads_wrapped_attributes_and_refuses_others() {
    let source = "x\n#[target_feature(\n    enable = \"popcnt,avx2\"\n)]\nfn f() {}\n";
    assert_eq!(spelled_lists(source), [(2, "popcnt,avx2".to_string())]);
    let two = "#[target_feature(enable = \"a\", enable = \"b\")]";
    assert!(std::panic::catch_unwind(|| spelled_lists(two)).is_err());
}
