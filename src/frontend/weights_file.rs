//! A network's weights file named on the command line (`--network FILE`):
//! read by the front-end's one bounded reader, so that a folder, a FIFO or
//! /dev/zero is refused unread, and handed to the player as bytes.

use std::path::Path;
use std::sync::Arc;

use super::sgf_file::{read_regular_file, Unreadable};
use crate::player::{evaluator_from_bytes, SharedEvaluator};

/// Weights files larger than this are refused unread: the largest network
/// the header's bounds allow is far smaller than a corrupt length could
/// ask.
const MAX_WEIGHTS_BYTES: u64 = 256 << 20;

/// The network of the weights file at `path`, behind a cache of its own;
/// the error names the file and says why it cannot be used.
pub fn evaluator_from_file(path: &Path) -> Result<Arc<SharedEvaluator>, String> {
    let named = |why: String| format!("{}: {why}", path.display());
    let bytes = read_regular_file(path, MAX_WEIGHTS_BYTES).map_err(|refusal| {
        named(match refusal {
            Unreadable::NotAFile => "not a regular file".to_string(),
            Unreadable::TooLarge => {
                format!("more than {MAX_WEIGHTS_BYTES} bytes, more than any network hane reads")
            }
            Unreadable::Io(e) => e,
        })
    })?;
    let evaluator = evaluator_from_bytes(&bytes).map_err(named)?;
    log::info!("network {}: {}", path.display(), evaluator.description());
    Ok(evaluator)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(path: &str) -> String {
        evaluator_from_file(Path::new(path))
            .err()
            .unwrap_or_else(|| panic!("{path} was taken"))
    }

    #[test]
    fn weights_files_are_read_or_refused_with_the_reason() {
        let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/data/policy-net.bin");
        let evaluator = evaluator_from_file(Path::new(shipped)).expect("the shipped file");
        assert!(evaluator.heads().value && evaluator.heads().ownership);
        let missing = refusal("/nonexistent/net.bin");
        assert!(missing.starts_with("/nonexistent/net.bin: ") && missing.contains("No such file"));
        let folder = env!("CARGO_MANIFEST_DIR");
        assert_eq!(refusal(folder), format!("{folder}: not a regular file"));
        let readme = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
        assert_eq!(
            refusal(readme),
            format!("{readme}: not a hane policy network file")
        );
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_refused_unread() {
        // /dev/zero never ends and its metadata says 0 bytes: refused
        // before a byte is read.
        assert_eq!(refusal("/dev/zero"), "/dev/zero: not a regular file");
    }
}
