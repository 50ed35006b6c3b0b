//! Dynamic komi: the komi the search plays for, which may differ from the
//! game's so that it keeps telling good moves from bad when far ahead or far
//! behind. When every playout wins (a handicap game's start, a big lead)
//! or every one loses, win rates are all near 1 or 0 and the search has
//! nothing to choose by; asking for a larger margin, or accepting a
//! smaller loss, brings them back towards the middle. Only the search sees
//! it: the game's count, the pass rule and the final score use the real
//! komi.
//!
//! After Pachi's "linear" dynamic komi: a handicap bonus that fades
//! linearly over the first part of the game. No adaptive part, moved after
//! each move by the win rate: the linear fade is what matches supported
//! (docs/strength.md, "Adaptive dynamic komi").

use crate::game::{Action, Color, Game};

/// What one handicap stone is worth, in points (about a first move).
const HANDICAP_STONE_VALUE: f32 = 7.0;
/// The handicap bonus is gone after this many moves per point of the
/// board (200 on 19x19, 45 on 9x9).
const FADE_MOVES_PER_POINT: f32 = 200.0 / 361.0;
/// The handicap bonus for `color`: for Black with handicap stones, what
/// they are worth, fading to nothing as the game goes on.
pub fn handicap_extra(game: &Game, color: Color) -> f32 {
    if color != Color::Black {
        return 0.0;
    }
    let stones = handicap_stones(game);
    if stones < 2 {
        return 0.0;
    }
    let points = game.size().points() as f32;
    let fade = points * FADE_MOVES_PER_POINT;
    let progress = game.moves().count() as f32 / fade;
    stones as f32 * HANDICAP_STONE_VALUE * (1.0 - progress).max(0.0)
}

/// Black's stones put on the board before the first move (the handicap),
/// less White's.
fn handicap_stones(game: &Game) -> usize {
    let mut black = 0usize;
    let mut white = 0usize;
    for action in game.actions() {
        let Action::Setup(stones) = action else {
            break;
        };
        for &(_, color) in stones {
            match color {
                Some(Color::Black) => black += 1,
                Some(Color::White) => white += 1,
                None => {}
            }
        }
    }
    black.saturating_sub(white)
}

/// The komi a search for `color` plays for when it asks `extra` points more
/// than the real komi gives (a negative `extra` accepts a loss that small).
pub fn search_komi(real: f64, color: Color, extra: f32) -> f32 {
    match color {
        Color::Black => real as f32 + extra,
        Color::White => real as f32 - extra,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Vertex;

    fn handicap_game(size: usize, stones: &[&str]) -> Game {
        let mut game = Game::new(size, 0.5);
        let setup: Vec<_> = stones
            .iter()
            .map(|s| (Vertex::parse_gtp(s).expect("vertex"), Some(Color::Black)))
            .collect();
        game.setup(&setup).expect("setup");
        game.set_to_move(Color::White);
        game
    }

    #[test]
    fn the_handicap_bonus_is_blacks_and_fades_to_nothing() {
        let mut game = handicap_game(19, &["D4", "Q16", "D16", "Q4"]);
        assert_eq!(handicap_extra(&game, Color::Black), 28.0);
        assert_eq!(handicap_extra(&game, Color::White), 0.0);
        // White fills columns K-T and Black A-J of rows 6-17, column J
        // left empty between them: nothing is captured.
        let area = |cols: std::ops::Range<usize>| {
            let mut points = Vec::new();
            for row in 5..17 {
                for col in cols.clone() {
                    let v = Vertex::new(col, row);
                    if game.board().get(v).is_none() {
                        points.push(v);
                    }
                }
            }
            points
        };
        let (white, black) = (area(10..19), area(0..9));
        let play = |game: &mut Game, from: usize, to: usize| {
            for i in from..to {
                let w = crate::game::Move::Play(white[i]);
                let b = crate::game::Move::Play(black[i]);
                game.play(Color::White, w).expect("legal");
                game.play(Color::Black, b).expect("legal");
            }
        };
        let near = |a: f32, b: f32| (a - b).abs() < 1e-3;
        play(&mut game, 0, 50);
        assert!(near(handicap_extra(&game, Color::Black), 14.0));
        play(&mut game, 50, 100);
        assert!(near(handicap_extra(&game, Color::Black), 0.0));
        play(&mut game, 100, 101);
        assert_eq!(handicap_extra(&game, Color::Black), 0.0);
        // An even game has no bonus.
        assert_eq!(handicap_extra(&Game::new(19, 7.5), Color::Black), 0.0);
    }

    #[test]
    fn the_search_komi_asks_more_of_the_side_searched_for() {
        assert_eq!(search_komi(7.5, Color::Black, 10.0), 17.5);
        assert_eq!(search_komi(7.5, Color::White, 10.0), -2.5);
        assert_eq!(search_komi(7.5, Color::White, -3.0), 10.5);
    }
}
