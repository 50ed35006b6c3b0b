//! SGF text into the reader and the replay that `loadsgf` does: no panic,
//! and whatever is read writes back to text that reads back equal.
#![no_main]

use hane::sgf;
use hane::{Game, Superko};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &[u8]| {
    let Ok(record) = sgf::parse(text) else {
        return;
    };
    let written = sgf::write(&record);
    assert_eq!(
        sgf::parse(written.as_bytes()),
        Ok(record.clone()),
        "{written}"
    );
    // Replay the whole main line, and a prefix of it.
    let _ = Game::from_sgf(&record, None, 7.5, Superko::Positional);
    let _ = Game::from_sgf(&record, Some(text.len() as u64 % 8), 7.5, Superko::Positional);
});
