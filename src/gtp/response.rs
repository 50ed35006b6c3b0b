//! Formatting of GTP responses: `=id text` or `?id text`, then an empty line;
//! and the writer of streaming responses (analysis), whose lines come while
//! the command runs.

use std::io::{self, Write};

use log::warn;

/// The outcome of one command: the text after `= ` or after `? `.
pub type Reply = Result<String, String>;

/// Formats a whole response, ready to write. Empty lines inside the text
/// would end the response early for every client, so they are dropped.
pub fn format_response(id: Option<u64>, reply: &Reply) -> String {
    let (mark, text) = match reply {
        Ok(text) => ('=', text),
        Err(text) => ('?', text),
    };
    let id = id.map(|id| id.to_string()).unwrap_or_default();
    let body: Vec<&str> = text
        .split('\n')
        .map(|line| line.trim_end_matches('\r'))
        .enumerate()
        .filter(|(i, line)| *i == 0 || !line.trim().is_empty())
        .map(|(_, line)| line)
        .collect();
    format!("{mark}{id} {}\n\n", body.join("\n"))
}

/// Where a streaming command writes the lines of its response as they come.
pub trait ResponseStream {
    /// Writes the response's first line (`=id `) unless already written.
    /// Returns false once the output is gone.
    fn open(&mut self) -> bool;
    /// Writes one line of the response, opening it first. Returns false
    /// once the output is gone: the command should wind up.
    fn line(&mut self, text: &str) -> bool;
}

/// Writes one command's response to `out`: whole at the end, or opened
/// early and streamed line by line, then finished with the reply's text.
pub struct ResponseWriter<W: Write> {
    out: W,
    id: Option<u64>,
    opened: bool,
    /// The first write error; nothing more is written after one.
    error: Option<io::Error>,
}

impl<W: Write> ResponseWriter<W> {
    pub fn new(out: W, id: Option<u64>) -> ResponseWriter<W> {
        ResponseWriter {
            out,
            id,
            opened: false,
            error: None,
        }
    }

    fn write(&mut self, text: &str) -> bool {
        if self.error.is_none() {
            let written = self
                .out
                .write_all(text.as_bytes())
                .and_then(|()| self.out.flush());
            self.error = written.err();
        }
        self.error.is_none()
    }

    /// Ends the response with the reply: the whole response if nothing was
    /// streamed, else the reply's lines and the empty line. An error can no
    /// longer be told once `=` is out; it is logged and the response closed.
    /// Returns the first write error of the response, if any.
    pub fn finish(mut self, reply: &Reply) -> io::Result<()> {
        if !self.opened {
            let response = format_response(self.id, reply);
            self.write(&response);
            return self.error.map_or(Ok(()), Err);
        }
        let mut rest = String::new();
        match reply {
            Ok(text) => {
                for line in text.lines().filter(|l| !l.trim().is_empty()) {
                    rest.push_str(line.trim_end_matches('\r'));
                    rest.push('\n');
                }
            }
            Err(text) => warn!("streamed command failed after its response began: {text}"),
        }
        rest.push('\n');
        self.write(&rest);
        self.error.map_or(Ok(()), Err)
    }
}

impl<W: Write> ResponseStream for ResponseWriter<W> {
    fn open(&mut self) -> bool {
        if !self.opened {
            self.opened = true;
            let id = self.id.map(|id| id.to_string()).unwrap_or_default();
            return self.write(&format!("={id} \n"));
        }
        self.error.is_none()
    }

    fn line(&mut self, text: &str) -> bool {
        if !self.open() {
            return false;
        }
        // One line only: a line break inside would end the response early.
        let line: String = text.chars().filter(|c| !c.is_control()).collect();
        if line.trim().is_empty() {
            return self.error.is_none();
        }
        self.write(&format!("{line}\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn streamed(id: Option<u64>, lines: &[&str], reply: Reply) -> String {
        let mut out = Vec::new();
        let mut writer = ResponseWriter::new(&mut out, id);
        for line in lines {
            assert!(writer.line(line));
        }
        assert!(writer.finish(&reply).is_ok());
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn streamed_responses_open_once_and_end_with_an_empty_line() {
        assert_eq!(
            streamed(Some(7), &["info a", "info b"], Ok(String::new())),
            "=7 \ninfo a\ninfo b\n\n"
        );
        assert_eq!(
            streamed(None, &["info a"], Ok("play D4".into())),
            "= \ninfo a\nplay D4\n\n"
        );
        // Nothing streamed: an ordinary response, errors included.
        assert_eq!(streamed(Some(3), &[], Ok(String::new())), "=3 \n\n");
        assert_eq!(
            streamed(None, &[], Err("illegal move".into())),
            "? illegal move\n\n"
        );
        // Blank and multi-line text cannot end the response early.
        assert_eq!(
            streamed(None, &["", "in\nfo"], Err("late".into())),
            "= \ninfo\n\n"
        );
    }

    #[test]
    fn success_and_failure_with_and_without_id() {
        assert_eq!(format_response(None, &Ok(String::new())), "= \n\n");
        assert_eq!(format_response(Some(12), &Ok("D4".into())), "=12 D4\n\n");
        assert_eq!(
            format_response(Some(3), &Err("illegal move".into())),
            "?3 illegal move\n\n"
        );
    }

    #[test]
    fn empty_lines_inside_a_response_are_dropped() {
        assert_eq!(
            format_response(None, &Ok("\nA\n\nB\n".into())),
            "= \nA\nB\n\n"
        );
    }
}
