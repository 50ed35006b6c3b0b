//! The SGF grammar: nodes and properties with nom, the tree of variations
//! with a loop.
//!
//! ```text
//! Collection = GameTree { GameTree }
//! GameTree   = "(" Sequence { GameTree } ")"
//! Sequence   = Node { Node }
//! Node       = ";" { Property }
//! Property   = PropIdent PropValue { PropValue }
//! ```
//!
//! Only the first game tree is read. Nesting is followed with a counter, not
//! with recursion, so its depth costs neither stack nor memory.

use std::borrow::Cow;

use nom::bytes::complete::{tag, take_while, take_while1};
use nom::combinator::cut;
use nom::error::{Error, ErrorKind};
use nom::multi::many1;
use nom::sequence::{pair, preceded};
use nom::IResult;

use super::types::SgfError;

type Res<'a, T> = IResult<&'a [u8], T>;

/// One property of a node, escapes resolved, values still raw bytes.
#[derive(Debug)]
pub(super) struct Property<'a> {
    /// Upper-case letters only: FF[3] identifiers such as `AddBlack` read as `AB`.
    pub ident: Cow<'a, [u8]>,
    pub values: Vec<Cow<'a, [u8]>>,
}

fn whitespace(input: &[u8]) -> Res<'_, &[u8]> {
    take_while(|c: u8| c.is_ascii_whitespace())(input)
}

fn prop_ident(input: &[u8]) -> Res<'_, Cow<'_, [u8]>> {
    let (rest, letters) = take_while1(|c: u8| c.is_ascii_alphabetic())(input)?;
    let ident = if letters.iter().all(u8::is_ascii_uppercase) {
        Cow::Borrowed(letters)
    } else {
        Cow::Owned(
            letters
                .iter()
                .copied()
                .filter(u8::is_ascii_uppercase)
                .collect(),
        )
    };
    Ok((rest, ident))
}

/// `[...]` with `\` escaping the next byte. A `\` before a line break is a
/// soft line break and vanishes with it.
fn prop_value(input: &[u8]) -> Res<'_, Cow<'_, [u8]>> {
    let (body, _) = tag(b"[")(input)?;
    let mut end = 0;
    let mut escaped = false;
    loop {
        match body.get(end) {
            None => {
                return Err(nom::Err::Failure(Error::new(
                    &body[body.len()..],
                    ErrorKind::Eof,
                )))
            }
            Some(b']') => break,
            Some(b'\\') => {
                escaped = true;
                end += 2;
            }
            Some(_) => end += 1,
        }
    }
    let raw = &body[..end];
    let rest = &body[end + 1..];
    let value = if escaped {
        Cow::Owned(unescape(raw))
    } else {
        Cow::Borrowed(raw)
    };
    Ok((rest, value))
}

/// Resolves `\x` to `x` and removes soft line breaks (`\` + `\n`, `\r`,
/// `\r\n` or `\n\r`).
fn unescape(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while let Some(&byte) = raw.get(i) {
        if byte != b'\\' {
            out.push(byte);
            i += 1;
            continue;
        }
        match (raw.get(i + 1), raw.get(i + 2)) {
            (Some(b'\r'), Some(b'\n')) | (Some(b'\n'), Some(b'\r')) => i += 3,
            (Some(b'\r'), _) | (Some(b'\n'), _) => i += 2,
            (Some(&next), _) => {
                out.push(next);
                i += 2;
            }
            (None, _) => i += 1,
        }
    }
    out
}

fn property(input: &[u8]) -> Res<'_, Property<'_>> {
    let (rest, (ident, values)) = pair(
        prop_ident,
        // After an identifier a value must follow: a failure here is final.
        cut(many1(preceded(whitespace, prop_value))),
    )(input)?;
    Ok((rest, Property { ident, values }))
}

/// The properties the reader uses; with [`Keep::Used`] every other one
/// (comments, markup, names) is parsed for syntax and dropped at once, so
/// that a file of millions of `C[]` costs no memory.
const USED_PROPERTIES: [&[u8]; 12] = [
    b"SZ", b"GM", b"AB", b"AW", b"AE", b"PL", b"B", b"W", b"KM", b"HA", b"RU", b"RE",
];

/// Which properties of a node the walk hands over.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Keep {
    /// Those the reader of the main line uses.
    Used,
    /// Every one, for a tree that is written back with what it held.
    All,
}

/// The most properties one node may keep: a game needs a handful; a node
/// of millions of `B[]` is an attack on memory, not a record.
const MAX_KEPT_PROPERTIES: usize = 10_000;

/// `;` and the properties after it, keeping those `keep` asks for.
fn node(input: &[u8], keep: Keep) -> Res<'_, Vec<Property<'_>>> {
    let (mut input, _) = tag(b";")(input)?;
    let mut kept = Vec::new();
    loop {
        let (start, _) = whitespace(input)?;
        match property(start) {
            Ok((rest, found)) => {
                if keep == Keep::All || USED_PROPERTIES.contains(&&*found.ident) {
                    if kept.len() == MAX_KEPT_PROPERTIES {
                        return Err(nom::Err::Failure(Error::new(start, ErrorKind::TooLarge)));
                    }
                    kept.push(found);
                }
                input = rest;
            }
            Err(nom::Err::Error(_)) => return Ok((input, kept)),
            Err(e) => return Err(e),
        }
    }
}

/// Where the walk of the tree stands, which decides what may come next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// Just after `(`: a node must start the sequence.
    FirstNode,
    /// Inside a sequence: another node, a variation, or the end.
    InSequence,
    /// After a variation closed: only more variations or the end.
    AfterVariation,
}

/// What the walk of a game tree meets, in the order of the file.
pub(super) enum Event<'a> {
    /// A node and the properties it keeps.
    Node(Vec<Property<'a>>),
    /// `(` opening a variation inside the game tree.
    VariationStart,
    /// The `)` that closes it.
    VariationEnd,
}

/// Walks the first game tree of `text` and hands every node of its main line
/// (the first variation at every branch) to `on_node`, with `true` for the
/// root. Other variations are checked for syntax and skipped. Anything after
/// the first game tree is ignored, and so is anything before its `(`.
pub(super) fn walk_main_line<F>(text: &[u8], mut on_node: F) -> Result<(), SgfError>
where
    F: FnMut(&[Property<'_>], bool) -> Result<(), SgfError>,
{
    // Cleared by the first `)`: that closes the deepest node of the main line.
    let mut on_main_line = true;
    let mut is_root = true;
    walk_tree(text, Keep::Used, |event| {
        match event {
            Event::Node(properties) if on_main_line => {
                on_node(&properties, is_root)?;
                is_root = false;
            }
            Event::VariationEnd => on_main_line = false,
            Event::Node(_) | Event::VariationStart => {}
        }
        Ok(())
    })
}

/// Walks the first game tree of `text` and hands `on_event` its nodes and
/// the starts and ends of the variations inside it (the parentheses of the
/// game tree itself are not events). Anything after the first game tree is
/// ignored, and so is anything before its `(`.
pub(super) fn walk_tree<'a, F>(text: &'a [u8], keep: Keep, on_event: F) -> Result<(), SgfError>
where
    F: FnMut(Event<'a>) -> Result<(), SgfError>,
{
    walk_one_tree(text, keep, on_event).map(|_| ())
}

/// How many game trees `text` holds one after another (a collection, FF[4]
/// section 3: `(;GM[1]...)(;GM[1]...)`), counting up to the first that
/// does not read; 0 when the first does not.
pub fn count_game_trees(text: &[u8]) -> usize {
    let mut count = 0;
    let mut rest = text;
    while let Ok(after) = walk_one_tree(rest, Keep::Used, |_| Ok(())) {
        count += 1;
        rest = whitespace(after).map_or(after, |(after, _)| after);
        if rest.first() != Some(&b'(') {
            break;
        }
    }
    count
}

/// `walk_tree`, returning the text after the game tree's closing `)`.
fn walk_one_tree<'a, F>(text: &'a [u8], keep: Keep, mut on_event: F) -> Result<&'a [u8], SgfError>
where
    F: FnMut(Event<'a>) -> Result<(), SgfError>,
{
    let start = text
        .iter()
        .position(|&c| c == b'(')
        .ok_or(SgfError::NoGameTree)?;
    let mut input = text.get(start + 1..).unwrap_or_default();
    let mut depth: usize = 1;
    let mut expect = Expect::FirstNode;
    loop {
        input = whitespace(input).map_or(input, |(rest, _)| rest);
        let syntax_error = |at: &[u8]| syntax_error(text, at);
        match (input.first(), expect) {
            (Some(b';'), Expect::FirstNode | Expect::InSequence) => {
                let (rest, properties) = node(input, keep).map_err(|e| nom_error(text, e))?;
                on_event(Event::Node(properties))?;
                input = rest;
                expect = Expect::InSequence;
            }
            (Some(b'('), Expect::InSequence | Expect::AfterVariation) => {
                depth += 1;
                on_event(Event::VariationStart)?;
                input = &input[1..];
                expect = Expect::FirstNode;
            }
            (Some(b')'), Expect::InSequence | Expect::AfterVariation) => {
                depth -= 1;
                if depth == 0 {
                    return Ok(&input[1..]);
                }
                on_event(Event::VariationEnd)?;
                input = &input[1..];
                expect = Expect::AfterVariation;
            }
            _ => return Err(syntax_error(input)),
        }
    }
}

fn nom_error(text: &[u8], error: nom::Err<Error<&[u8]>>) -> SgfError {
    match error {
        nom::Err::Error(e) | nom::Err::Failure(e) => syntax_error(text, e.input),
        // Only complete parsers are used; report the end of the file anyway.
        nom::Err::Incomplete(_) => syntax_error(text, &[]),
    }
}

/// An error at the start of `rest`, which is a tail of `text`. Only SGF's
/// own punctuation is named: any other byte is the file's content, which
/// an error message does not repeat (the file may be anything the client
/// named, not an SGF file at all).
fn syntax_error(text: &[u8], rest: &[u8]) -> SgfError {
    let unexpected = match rest.first() {
        None => "end of file".to_string(),
        Some(&c) if b"()[];".contains(&c) => format!("'{}'", c as char),
        Some(_) => "character".to_string(),
    };
    SgfError::Syntax {
        unexpected,
        offset: text.len().saturating_sub(rest.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_resolve_escapes_and_soft_line_breaks() {
        let (rest, value) = prop_value(b"[a\\]b\\\\c\\\nd\\\r\ne]x").unwrap();
        assert_eq!(rest, b"x");
        assert_eq!(&*value, b"a]b\\cde");
    }

    #[test]
    fn ff3_identifiers_keep_their_capitals() {
        let (_, p) = property(b"AddBlack[aa][bb]").unwrap();
        assert_eq!(&*p.ident, b"AB");
        assert_eq!(p.values.len(), 2);
    }

    #[test]
    fn unterminated_value_is_an_error_at_the_end() {
        let text = b"(;C[abc";
        let err = walk_main_line(text, |_, _| Ok(())).unwrap_err();
        assert_eq!(
            err,
            SgfError::Syntax {
                unexpected: "end of file".to_string(),
                offset: 7
            }
        );
    }
}
