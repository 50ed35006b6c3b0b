//! From SGF properties to an [`SgfGame`].

use std::borrow::Cow;

use super::syntax::{walk_main_line, Property};
use super::types::{quote, SgfAction, SgfError, SgfGame, MAX_MAIN_LINE_ACTIONS, MAX_SETUP_POINTS};
use crate::game::color::Color;
use crate::game::rules::MAX_KOMI;
use crate::game::vertex::{BoardSize, Move, Vertex};

/// Reads the first game tree of an SGF collection: game information from the
/// root (and from later main-line nodes for KM, HA, RU, RE) and the actions
/// of the main line. Text is not assumed to be UTF-8.
pub fn parse(text: &[u8]) -> Result<SgfGame, SgfError> {
    let mut game = SgfGame::default();
    let mut setup_points_left = MAX_SETUP_POINTS;
    walk_main_line(text, |properties, is_root| {
        read_main_line_node(&mut game, properties, is_root, &mut setup_points_left)
    })?;
    Ok(game)
}

/// Adds what one node of the main line says to `game`: the game
/// information and the actions, within the bounds on setup points and on
/// the main line.
pub(super) fn read_main_line_node(
    game: &mut SgfGame,
    properties: &[Property<'_>],
    is_root: bool,
    setup_points_left: &mut usize,
) -> Result<(), SgfError> {
    if is_root {
        read_root_only(game, properties)?;
    }
    read_node(game, properties, setup_points_left)?;
    if game.actions.len() > MAX_MAIN_LINE_ACTIONS {
        return Err(SgfError::MainLineTooLong);
    }
    Ok(())
}

/// SZ and GM, which only the root may hold. SZ is read first because the
/// points of the root's own setup depend on it, whatever the property order.
fn read_root_only(game: &mut SgfGame, properties: &[Property<'_>]) -> Result<(), SgfError> {
    for property in properties {
        match &*property.ident {
            b"SZ" => game.size = board_size(single_value(property)?)?,
            b"GM" => {
                let value = single_value(property)?;
                if value.trim_ascii() != b"1" {
                    return Err(SgfError::NotGo(quote(value)));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The actions of one main-line node, in the order setup, player to move,
/// moves; plus the game information it holds.
/// `points_left` counts down the setup points the whole file may still add.
fn read_node(
    game: &mut SgfGame,
    properties: &[Property<'_>],
    points_left: &mut usize,
) -> Result<(), SgfError> {
    let mut black = Vec::new();
    let mut white = Vec::new();
    let mut empty = Vec::new();
    let mut to_move = None;
    let mut moves = Vec::new();
    for property in properties {
        match &*property.ident {
            b"AB" => point_list(property, game.size, &mut black, points_left)?,
            b"AW" => point_list(property, game.size, &mut white, points_left)?,
            b"AE" => point_list(property, game.size, &mut empty, points_left)?,
            b"PL" => to_move = Some(player(property)?),
            b"B" => moves.push(SgfAction::Play(Color::Black, a_move(property, game.size)?)),
            b"W" => moves.push(SgfAction::Play(Color::White, a_move(property, game.size)?)),
            b"KM" => game.komi = komi(property)?,
            b"HA" => game.handicap = handicap(property)?,
            b"RU" => game.rules = simple_text(single_value(property)?),
            b"RE" => game.result = simple_text(single_value(property)?),
            _ => {}
        }
    }
    if !(black.is_empty() && white.is_empty() && empty.is_empty()) {
        let stones = (black.into_iter().map(|v| (v, Some(Color::Black))))
            .chain(white.into_iter().map(|v| (v, Some(Color::White))))
            .chain(empty.into_iter().map(|v| (v, None)))
            .collect();
        game.actions.push(SgfAction::Setup(stones));
    }
    if let Some(color) = to_move {
        game.actions.push(SgfAction::ToMove(color));
    }
    game.actions.extend(moves);
    Ok(())
}

fn bad_value(property: &Property<'_>) -> SgfError {
    let joined: Vec<u8> = property.values.join(&b"]["[..]);
    SgfError::BadValue {
        property: String::from_utf8_lossy(&property.ident).into_owned(),
        value: quote(&joined),
    }
}

/// The value of a property that takes exactly one.
fn single_value<'p>(property: &'p Property<'_>) -> Result<&'p [u8], SgfError> {
    match property.values.as_slice() {
        [value] => Ok(value),
        _ => Err(bad_value(property)),
    }
}

/// `SZ[9]`, or `SZ[9:7]` for a board 9 columns wide and 7 rows high (FF[4]);
/// sides outside 2..=25 are refused.
fn board_size(value: &[u8]) -> Result<BoardSize, SgfError> {
    let text = value.trim_ascii();
    let bad = || SgfError::BadValue {
        property: "SZ".to_string(),
        value: quote(value),
    };
    let (cols, rows) = match text.iter().position(|&c| c == b':') {
        Some(colon) => (&text[..colon], &text[colon + 1..]),
        None => (text, text),
    };
    let cols = number(cols).ok_or_else(bad)?;
    let rows = number(rows).ok_or_else(bad)?;
    BoardSize::new(cols, rows).ok_or_else(|| SgfError::UnsupportedSize(quote(text)))
}

/// A plain decimal number, digits only.
fn number(text: &[u8]) -> Option<usize> {
    if text.is_empty() || !text.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(text).ok()?.parse().ok()
}

/// `KM[6.5]`; an empty value means no komi is given. A decimal comma
/// (`KM[6,5]`, as files from programs in a comma locale write it) is read
/// as the point it stands for: refusing the whole game over it, where a
/// missing komi reads as the default, served no one. A komi past
/// [`MAX_KOMI`] is refused as GTP's `komi` refuses it: it would only turn
/// every score printed after it into infinities.
fn komi(property: &Property<'_>) -> Result<Option<f64>, SgfError> {
    let text = single_value(property)?.trim_ascii();
    if text.is_empty() {
        return Ok(None);
    }
    let is_real_syntax = text
        .iter()
        .all(|&c| c.is_ascii_digit() || matches!(c, b'+' | b'-' | b'.' | b','));
    let komi = std::str::from_utf8(text)
        .ok()
        .filter(|t| is_real_syntax && t.matches(',').count() + t.matches('.').count() <= 1)
        .and_then(|t| t.replace(',', ".").parse::<f64>().ok())
        .filter(|k| k.is_finite() && k.abs() <= MAX_KOMI);
    komi.map(Some).ok_or_else(|| bad_value(property))
}

/// `HA[2]`; an empty value means none is given.
fn handicap(property: &Property<'_>) -> Result<Option<u32>, SgfError> {
    let text = single_value(property)?.trim_ascii();
    if text.is_empty() {
        return Ok(None);
    }
    number(text)
        .and_then(|n| u32::try_from(n).ok())
        .map(Some)
        .ok_or_else(|| bad_value(property))
}

/// `PL[B]` or `PL[W]` (any case).
fn player(property: &Property<'_>) -> Result<Color, SgfError> {
    match single_value(property)?.trim_ascii() {
        b"B" | b"b" => Ok(Color::Black),
        b"W" | b"w" => Ok(Color::White),
        _ => Err(bad_value(property)),
    }
}

/// SimpleText: line breaks and other white space become spaces; bytes that
/// are not UTF-8 are replaced. An empty value counts as absent.
fn simple_text(value: &[u8]) -> Option<String> {
    if value.is_empty() {
        return None;
    }
    let mut spaced = Vec::with_capacity(value.len());
    let mut i = 0;
    while let Some(&c) = value.get(i) {
        let pair = (c, value.get(i + 1).copied());
        if matches!(pair, (b'\r', Some(b'\n')) | (b'\n', Some(b'\r'))) {
            i += 1;
        }
        spaced.push(if c.is_ascii_whitespace() || c == 0x0b {
            b' '
        } else {
            c
        });
        i += 1;
    }
    Some(String::from_utf8_lossy(&spaced).into_owned())
}

/// `B[dd]`; `B[]` is a pass, and so is `B[tt]` on boards up to 19x19 (where
/// `tt` cannot be a point).
fn a_move(property: &Property<'_>, size: BoardSize) -> Result<Move, SgfError> {
    let value = single_value(property)?.trim_ascii();
    if value.is_empty() || (size.width <= 19 && size.height <= 19 && value == b"tt") {
        return Ok(Move::Pass);
    }
    point(value, size).map(Move::Play)
}

/// The points of AB / AW / AE, with FF[4] rectangles `aa:cc` spelled out row
/// by row. An empty value adds nothing. Fails once `points_left` runs out.
fn point_list(
    property: &Property<'_>,
    size: BoardSize,
    points: &mut Vec<Vertex>,
    points_left: &mut usize,
) -> Result<(), SgfError> {
    for value in &property.values {
        let value: &[u8] = Cow::as_ref(value).trim_ascii();
        if value.is_empty() {
            continue;
        }
        let Some(colon) = value.iter().position(|&c| c == b':') else {
            take_setup_points(points_left, 1)?;
            points.push(point(value, size)?);
            continue;
        };
        let first = point(&value[..colon], size)?;
        let second = point(&value[colon + 1..], size)?;
        let (left, right) = (first.col.min(second.col), first.col.max(second.col));
        let (bottom, top) = (first.row.min(second.row), first.row.max(second.row));
        let count = (right - left + 1) as usize * (top - bottom + 1) as usize;
        take_setup_points(points_left, count)?;
        for row in (bottom..=top).rev() {
            points.extend((left..=right).map(|col| Vertex { col, row }));
        }
    }
    Ok(())
}

fn take_setup_points(points_left: &mut usize, count: usize) -> Result<(), SgfError> {
    *points_left = points_left
        .checked_sub(count)
        .ok_or(SgfError::TooManySetupPoints)?;
    Ok(())
}

/// Two letters, column then row from the top: `aa` is the top-left corner.
fn point(value: &[u8], size: BoardSize) -> Result<Vertex, SgfError> {
    let bad = || SgfError::BadPoint {
        point: quote(value),
        size,
    };
    let [x, y] = value else {
        return Err(bad());
    };
    let col = coordinate(*x).filter(|&c| c < size.width).ok_or_else(bad)?;
    let y = coordinate(*y)
        .filter(|&r| r < size.height)
        .ok_or_else(bad)?;
    Ok(Vertex::new(col, size.height - 1 - y))
}

/// FF[4] coordinates: `a`..`z` are 0..25, `A`..`Z` are 26..51.
fn coordinate(letter: u8) -> Option<usize> {
    match letter {
        b'a'..=b'z' => Some((letter - b'a') as usize),
        b'A'..=b'Z' => Some((letter - b'A') as usize + 26),
        _ => None,
    }
}
