//! How long to think and for what: the time controls and the budget of a
//! move (`time`), when a search under a clock stops early or runs on
//! (`stopping`), and the komi the search plays for in handicap games
//! (`komi`).

mod komi;
mod stopping;
mod time;

pub use komi::{handicap_extra, search_komi};
pub use stopping::{manage_time, CHECK_INTERVAL};
pub use time::{Budget, Clock, TimeControl, MAX_THINK_SECONDS, UNSEEN_LATENCY};
