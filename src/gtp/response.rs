//! Formatting of GTP responses: `=id text` or `?id text`, then an empty line.

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

#[cfg(test)]
mod tests {
    use super::*;

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
