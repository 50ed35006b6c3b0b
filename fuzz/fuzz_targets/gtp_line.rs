//! One raw input line into the GTP parser: it must never panic, and a line
//! that is not ignored must make exactly one well-formed response.
#![no_main]

use hane::format_response;
use hane::parse_line;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|line: &[u8]| {
    // The reader splits on LF, so a line never holds one.
    if line.contains(&b'\n') {
        return;
    }
    let Some(request) = parse_line(line) else {
        return;
    };
    let reply = request
        .command
        .map(|_| String::new())
        .map_err(|e| e.to_string());
    let response = format_response(request.id, &reply);
    assert!(response.ends_with("\n\n"));
    assert_eq!(response.matches("\n\n").count(), 1, "{response:?}");
});
