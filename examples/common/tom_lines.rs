//! The Tom corpus's one-game-a-line form, shared by the offline tools
//! (examples/fit_prior, examples/write_planes).

/// A line `ID<TAB>;B[pd];W[dc];...` as an SGF game of 19x19, or None for
/// a line with no moves.
pub fn line_game(line: &[u8]) -> Option<Vec<u8>> {
    let moves = match line.iter().position(|&b| b == b'\t') {
        Some(tab) => &line[tab + 1..],
        None => line,
    };
    let moves = moves.strip_suffix(b"\r").unwrap_or(moves);
    if !moves.starts_with(b";") {
        return None;
    }
    let mut sgf = b"(;SZ[19]".to_vec();
    sgf.extend_from_slice(moves);
    sgf.push(b')');
    Some(sgf)
}
