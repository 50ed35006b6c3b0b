//! How long to think: the time controls, the clients' clocks and the
//! budget of a move (`time`). When a search under a clock stops early or
//! runs on is the search's own rule (`search::stopping`), given the
//! budget made here.

mod time;

pub use time::{Budget, Clock, TimeControl, MAX_THINK_SECONDS, UNSEEN_LATENCY};
