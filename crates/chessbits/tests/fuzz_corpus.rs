//! Replays the committed fuzz corpora on stable: every file under `fuzz/corpus/<target>/` and
//! `fuzz/regressions/<target>/` (at the workspace root) goes through the same body the fuzz
//! target `<target>` runs (`fuzz/targets.rs`). A regression file is an input that once made a
//! target fail; it stays as a test.

use std::path::Path;

#[path = "../../../fuzz/targets.rs"]
mod targets;

#[test]
fn every_corpus_file_passes_its_target() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut files = 0;
    for &(name, body) in targets::TARGETS {
        for dir in ["corpus", "regressions"] {
            let Ok(entries) = std::fs::read_dir(root.join(dir).join(name)) else { continue };
            for entry in entries {
                let path = entry.expect("a readable directory").path();
                let data = std::fs::read(&path).expect("a readable file");
                // Named when it fails: the panic is caught only to add the file's name.
                if let Err(panic) = std::panic::catch_unwind(|| body(&data)) {
                    eprintln!("{} fails its target {name}", path.display());
                    std::panic::resume_unwind(panic);
                }
                files += 1;
            }
        }
    }
    // The corpora are committed: an empty run means they went missing.
    assert!(files >= targets::TARGETS.len(), "only {files} corpus files");
}

#[test]
fn empty_and_tiny_inputs_pass_every_target() {
    for &(_, body) in targets::TARGETS {
        for data in [&b""[..], b"\0", b"\n", b"\xff\xff", b"1. e4 e5 *"] {
            body(data);
        }
    }
}
