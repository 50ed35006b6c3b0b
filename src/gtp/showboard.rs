//! `showboard`: the board as text, as GNU Go draws it, with the captures
//! beside the top rows and the count below.

use crate::game::{result_text, Color, Game, Vertex};

/// The board of `game`, `X` Black and `O` White, the last move in
/// parentheses, row 1 at the bottom.
pub(super) fn showboard(game: &Game) -> String {
    let board = game.board();
    let size = board.size();
    let letters: String = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
        .chars()
        .take(size.width)
        .flat_map(|c| [' ', c])
        .collect();
    let mut lines = vec![String::new(), format!("   {letters}")];
    for row in (0..size.height).rev() {
        let mut line = format!("{:>2} ", row + 1);
        for col in 0..size.width {
            let v = Vertex::new(col, row);
            let last = game.last_move().and_then(|(_, m)| m.vertex()) == Some(v);
            line.push(if last { '(' } else { ' ' });
            line.push(match board.get(v) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '.',
            });
        }
        line.push_str(&format!(" {}", row + 1));
        match row {
            r if r == size.height - 1 => line.push_str(&format!(
                "    Black (X) has captured {} stones",
                game.captures(Color::Black)
            )),
            r if r + 2 == size.height => line.push_str(&format!(
                "    White (O) has captured {} stones",
                game.captures(Color::White)
            )),
            _ => {}
        }
        lines.push(line);
    }
    lines.push(format!("   {letters}"));
    lines.push(format!(
        "{} to move, komi {}, Tromp-Taylor count {}",
        game.to_move(),
        game.komi(),
        result_text(game.score())
    ));
    lines.join("\n")
}
