//! A client's input, line by line, with a bound on each line: the GTP
//! reader thread and `hane analysis` read their input through it.
//!
//! The input is read as bytes (invalid UTF-8 must not end a session) and
//! split on LF. A client that never sends a newline must not fill the
//! memory, so a line is kept up to `MAX_LINE_BYTES` and the rest of it is
//! read and dropped; a non-blocking stdin that has nothing yet is waited
//! on, not taken for the end of the input.

use std::io::{self, BufRead};
use std::thread;
use std::time::Duration;

/// Longest input line kept whole. Real commands and queries are a few
/// kilobytes at most (`set_free_handicap` with every point of 25x25, a
/// query of a 500-move game); the bound keeps a client that never sends a
/// newline from filling the memory.
pub const MAX_LINE_BYTES: usize = 4 << 20;

/// UTF-8's byte-order mark, which Windows PowerShell writes before what it
/// pipes to a program: before the first line it is no part of it.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

/// How long to wait before looking again at a non-blocking input that had
/// nothing to read: short next to any human or GUI, long next to a read.
const NO_INPUT_YET_WAIT: Duration = Duration::from_millis(5);

/// How a read line ended.
#[derive(Debug, PartialEq, Eq)]
pub enum LineEnd {
    /// A line, whole, without its LF (the last line may lack one).
    Whole,
    /// A line longer than MAX_LINE_BYTES: its first MAX_LINE_BYTES bytes
    /// were kept, the rest read and dropped.
    TooLong,
    /// Nothing left to read.
    Eof,
}

/// The lines of `input`, each bounded, the first without a byte-order mark.
pub struct BoundedLines<R> {
    input: R,
    first: bool,
}

impl<R: BufRead> BoundedLines<R> {
    pub fn new(input: R) -> BoundedLines<R> {
        BoundedLines { input, first: true }
    }

    /// Reads the next line into `line`, which is emptied first.
    pub fn read_into(&mut self, line: &mut Vec<u8>) -> io::Result<LineEnd> {
        line.clear();
        let end = read_bounded_line(&mut self.input, line);
        if std::mem::take(&mut self.first) && line.starts_with(BYTE_ORDER_MARK) {
            line.drain(..BYTE_ORDER_MARK.len());
        }
        end
    }
}

/// Appends one line to `line`, keeping at most MAX_LINE_BYTES of it.
fn read_bounded_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<LineEnd> {
    let mut read_any = false;
    let mut too_long = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            // A non-blocking stdin (a parent may hand one over) has nothing
            // yet: wait for input rather than take it for the end.
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                thread::sleep(NO_INPUT_YET_WAIT);
                continue;
            }
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            break;
        }
        read_any = true;
        let newline = buffer.iter().position(|&byte| byte == b'\n');
        let piece = &buffer[..newline.unwrap_or(buffer.len())];
        let room = MAX_LINE_BYTES - line.len();
        line.extend_from_slice(&piece[..piece.len().min(room)]);
        too_long |= piece.len() > room;
        let consumed = newline.map_or(buffer.len(), |at| at + 1);
        input.consume(consumed);
        if newline.is_some() {
            break;
        }
    }
    Ok(match (read_any, too_long) {
        (false, _) => LineEnd::Eof,
        (true, false) => LineEnd::Whole,
        (true, true) => LineEnd::TooLong,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<(Vec<u8>, LineEnd)> {
        let mut lines = BoundedLines::new(io::BufReader::with_capacity(7, input));
        let mut out = Vec::new();
        loop {
            let mut line = Vec::new();
            match lines.read_into(&mut line) {
                Ok(LineEnd::Eof) => return out,
                Ok(end) => out.push((line, end)),
                Err(e) => panic!("{e}"),
            }
        }
    }

    #[test]
    fn lines_are_split_on_lf_across_buffer_refills() {
        assert_eq!(
            lines(b"name\n\nprotocol_version\r\nlast"),
            vec![
                (b"name".to_vec(), LineEnd::Whole),
                (Vec::new(), LineEnd::Whole),
                (b"protocol_version\r".to_vec(), LineEnd::Whole),
                (b"last".to_vec(), LineEnd::Whole),
            ]
        );
    }

    #[test]
    fn overlong_lines_keep_their_start_and_the_next_line_is_whole() {
        let mut input = b"7 ".to_vec();
        input.resize(MAX_LINE_BYTES + 10, b'x');
        input.extend_from_slice(b"\nname\n");
        let read = lines(&input);
        assert_eq!(read.len(), 2);
        assert_eq!(read[0].0.len(), MAX_LINE_BYTES);
        assert_eq!(read[0].1, LineEnd::TooLong);
        assert_eq!(read[1], (b"name".to_vec(), LineEnd::Whole));
    }

    #[test]
    fn a_line_of_exactly_the_bound_is_whole() {
        let mut input = vec![b'x'; MAX_LINE_BYTES];
        input.push(b'\n');
        assert_eq!(lines(&input)[0].1, LineEnd::Whole);
    }

    #[test]
    fn only_the_first_line_loses_a_byte_order_mark() {
        assert_eq!(
            lines(b"\xEF\xBB\xBFname\n\xEF\xBB\xBFname\n"),
            vec![
                (b"name".to_vec(), LineEnd::Whole),
                (b"\xEF\xBB\xBFname".to_vec(), LineEnd::Whole),
            ]
        );
    }

    /// A non-blocking input with nothing yet is waited on, as `hane
    /// analysis` once did not: it took WouldBlock for an error.
    #[test]
    fn an_input_with_nothing_yet_is_waited_on() {
        struct Slow {
            misses: usize,
            text: &'static [u8],
        }
        impl io::Read for Slow {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.misses > 0 {
                    self.misses -= 1;
                    return Err(io::ErrorKind::WouldBlock.into());
                }
                let n = self.text.len().min(buf.len());
                buf[..n].copy_from_slice(&self.text[..n]);
                self.text = &self.text[n..];
                Ok(n)
            }
        }
        let slow = Slow {
            misses: 3,
            text: b"name\n",
        };
        let mut lines = BoundedLines::new(io::BufReader::new(slow));
        let mut line = Vec::new();
        assert_eq!(lines.read_into(&mut line).ok(), Some(LineEnd::Whole));
        assert_eq!(line, b"name");
    }
}
