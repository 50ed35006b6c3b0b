//! Bytes into the network's weights loader: never a panic; a file it
//! takes describes itself and evaluates the empty 9x9 board to numbers
//! only (a logit, win chance or owner that is not a number would reach a
//! client as null or NaN).
#![no_main]

use hane::{describe_weights, evaluate_weights_on_empty_board};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(description) = describe_weights(bytes) else {
        return;
    };
    assert!(description.contains("residual blocks"), "{description}");
    let evaluation = evaluate_weights_on_empty_board(bytes, 9).expect("a file taken evaluates");
    assert_eq!(evaluation.logits.len(), 82);
    assert!(evaluation.logits.iter().all(|l| l.is_finite()));
    assert!(evaluation.win_chance.is_none_or(|w| (0.0..=1.0).contains(&w)));
    assert!(evaluation
        .ownership
        .as_ref()
        .is_none_or(|o| o.len() == 81 && o.iter().all(|x| (-1.0..=1.0).contains(x))));
});
