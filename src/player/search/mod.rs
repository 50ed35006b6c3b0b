//! The Monte Carlo tree search: the tree all threads share (`tree`), the
//! walk down it, the playout and the backup (`search`), each thread's own
//! state and sums (`worker`), the priors of new moves (`priors`) and the
//! network's (`network_prior`), the client's move filter applied where
//! children are made (`filter`), the report of numbers the search hands
//! upward (`report`), the choice of a child on the walk down
//! (`selection`), the network's judgement kept in the tree and backed up
//! with each playout (`judgement`), the playouts' margins (`margins`), when a search
//! under a clock stops (`stopping`), the komi its playouts count in
//! handicap games (`komi`) and the value head's share of each playout's
//! result (`value_share`).

mod filter;
mod judgement;
mod komi;
mod margins;
mod network_prior;
mod priors;
mod report;
mod selection;
mod stopping;
mod threads;
mod tree;
mod value_share;
// Each file is named for the one type it holds: `Search` in search.rs.
#[allow(clippy::module_inception)]
mod search;
mod worker;

pub use filter::{FilterKind, MoveFilter, MoveRule};
pub use komi::{handicap_extra, search_komi};
pub use report::{summarise, RootMove, SearchReport};
pub use search::Search;
pub use stopping::{manage_time, CHECK_INTERVAL};
pub use threads::run_threads;
pub use tree::{Tree, NODE_BYTES};
pub use worker::Worker;

#[cfg(test)]
pub use report::sample_report;
