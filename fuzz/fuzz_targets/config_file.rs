//! Bytes as a KataGo config file (and a second file it may @include) into
//! the reader and the settings: never a panic, and every error a line of
//! text naming the file.
#![no_main]

use std::path::PathBuf;

use hane::{read_config_file, KataSettings};
use libfuzzer_sys::fuzz_target;

fn folder() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hane-fuzz-config-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir
}

fuzz_target!(|bytes: &[u8]| {
    let dir = folder();
    // The input split in two at its first NUL: the config and "other.cfg",
    // which the first may name with @include (or include itself).
    let (main, other) = match bytes.iter().position(|&b| b == 0) {
        Some(at) => (&bytes[..at], &bytes[at + 1..]),
        None => (bytes, &b""[..]),
    };
    let path = dir.join("main.cfg");
    if std::fs::write(&path, main).is_err() || std::fs::write(dir.join("other.cfg"), other).is_err() {
        return;
    }
    match read_config_file(&path) {
        Ok(pairs) => {
            let mut settings = KataSettings::default();
            let _ = settings.set_all(&pairs);
        }
        Err(message) => assert!(!message.is_empty() && !message.contains('\n'), "{message}"),
    }
});
