//! The Monte Carlo tree search: the tree all threads share (`tree`), the
//! walk down it, the playout and the backup (`walk`), the priors of new
//! moves (`priors`), the client's move filter applied where children are
//! made (`filter`) and the report of numbers the search hands upward
//! (`report`).

mod filter;
mod network_prior;
mod priors;
mod report;
mod tree;
mod walk;

pub use filter::{FilterKind, MoveFilter, MoveRule};
pub use report::{root_totals, summarise, MoveTotals, RootMove, SearchReport};
pub use tree::{Node, Tree};
pub use walk::{run_threads, Search, Worker};

#[cfg(test)]
pub use report::sample_report;
