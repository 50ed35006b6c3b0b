//! The text a panic was raised with, for the error a front-end answers
//! instead of dying (GTP's `internal error (...)`, the JSON analysis's
//! error object).

use std::any::Any;

/// The message of `panic!` with a literal (`&str`) or a format (`String`);
/// a payload of another type (`panic_any`, which hane never raises) has
/// none to give.
pub fn panic_message(payload: &(dyn Any + Send)) -> &str {
    if let Some(text) = payload.downcast_ref::<&str>() {
        text
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text
    } else {
        "unknown panic"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_of_a_literal_and_of_a_format() {
        let literal = std::panic::catch_unwind(|| panic!("a literal")).unwrap_err();
        assert_eq!(panic_message(literal.as_ref()), "a literal");
        let formatted = std::panic::catch_unwind(|| panic!("{} {}", "a", "format")).unwrap_err();
        assert_eq!(panic_message(formatted.as_ref()), "a format");
        let other = std::panic::catch_unwind(|| std::panic::panic_any(7)).unwrap_err();
        assert_eq!(panic_message(other.as_ref()), "unknown panic");
    }
}
