//! Dynamic komi: the komi the search plays for, which may differ from the
//! game's so that it keeps telling good moves from bad when far ahead or far
//! behind. When every playout wins (a handicap game's start, a big lead)
//! or every one loses, win rates are all near 1 or 0 and the search has
//! nothing to choose by; asking for a larger margin, or accepting a
//! smaller loss, brings them back towards the middle. Only the search sees
//! it: the game's count, the pass rule and the final score use the real
//! komi.
//!
//! Two parts, after the ideas of Pachi's "linear" and "adaptive" dynamic
//! komi: a handicap bonus that fades linearly over the first part of the
//! game, and an adaptive part that moves a little after each of our moves,
//! up while our winning chance is high and down while it is low.

use crate::game::{Action, BoardSize, Color, Game};

/// What one handicap stone is worth, in points (about a first move).
const HANDICAP_STONE_VALUE: f32 = 7.0;
/// The handicap bonus is gone after this many moves per point of the
/// board (200 on 19x19, 45 on 9x9).
const FADE_MOVES_PER_POINT: f32 = 200.0 / 361.0;
/// Above this winning chance we ask for more ...
const HIGH_WIN_RATE: f32 = 0.8;
/// ... and below this we give back what we asked for ...
const EASE_WIN_RATE: f32 = 0.45;
/// ... and below this we accept a smaller loss.
const LOW_WIN_RATE: f32 = 0.2;
/// The adaptive part stays within this share of the board's points.
const MAX_SHARE_OF_POINTS: f32 = 1.0 / 8.0;

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

/// The adaptive part, per colour (hane may play both sides).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Adaptive {
    extra: [f32; 2],
}

impl Adaptive {
    /// Points `color`'s searches ask for beyond the real komi.
    pub fn extra(&self, color: Color) -> f32 {
        self.extra[color.index()]
    }

    /// After a move of `color` whose search gave `win_rate`: a step up when
    /// the game looks won, back towards the real komi when it no longer
    /// does, below it when it looks lost. Steps grow with the board.
    pub fn update(&mut self, color: Color, win_rate: f32, board_size: impl Into<BoardSize>) {
        let points = board_size.into().points() as f32;
        let step = (points / 81.0).max(1.0);
        let limit = points * MAX_SHARE_OF_POINTS;
        let extra = &mut self.extra[color.index()];
        if win_rate > HIGH_WIN_RATE {
            *extra += step;
        } else if win_rate < EASE_WIN_RATE && *extra > 0.0 {
            *extra = (*extra - step).max(0.0);
        } else if win_rate < LOW_WIN_RATE {
            *extra -= step;
        }
        *extra = extra.clamp(-limit, limit);
    }

    pub fn clear(&mut self) {
        *self = Adaptive::default();
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

    #[test]
    fn the_adaptive_part_rises_when_winning_and_falls_when_losing() {
        let mut adaptive = Adaptive::default();
        adaptive.update(Color::Black, 0.9, 9);
        adaptive.update(Color::Black, 0.9, 9);
        assert_eq!(adaptive.extra(Color::Black), 2.0);
        assert_eq!(adaptive.extra(Color::White), 0.0);
        // In the middle it holds; below the ease line it gives back.
        adaptive.update(Color::Black, 0.6, 9);
        assert_eq!(adaptive.extra(Color::Black), 2.0);
        adaptive.update(Color::Black, 0.4, 9);
        adaptive.update(Color::Black, 0.1, 9);
        assert_eq!(adaptive.extra(Color::Black), 0.0);
        adaptive.update(Color::Black, 0.1, 9);
        assert_eq!(adaptive.extra(Color::Black), -1.0);
        // Bounded by an eighth of the board.
        for _ in 0..100 {
            adaptive.update(Color::White, 0.95, 19);
        }
        assert_eq!(adaptive.extra(Color::White), 361.0 / 8.0);
    }
}
