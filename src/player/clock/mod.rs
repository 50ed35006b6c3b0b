//! How long to think: the time controls, the clients' clocks and the
//! budget of a move (`time`). When a search under a clock stops early or
//! runs on is the search's own rule (`search::stopping`), given the
//! budget made here.
//!
//! # How the commands are read
//!
//! * `time_settings MAIN BYO STONES` (GTP v2, section 4.2 and 6.3.x): Canadian
//!   byo-yomi. `BYO == 0` means no byo-yomi, i.e. absolute time (even with
//!   `MAIN == 0`: the letter of the spec, so we play as fast as we can rather
//!   than risk losing on time). `BYO > 0 && STONES == 0` means no time limits.
//!   `MAIN == 0` with `BYO > 0 && STONES > 0` is Canadian byo-yomi from the
//!   first move. See [`TimeControl::gtp`].
//! * `time_left COLOUR TIME STONES`: while main time runs, `STONES == 0` and
//!   `TIME` is the main time left. In Canadian byo-yomi `TIME` is the time left
//!   in the current period and `STONES` the stones still to play in it.
//! * `kgs-time_settings none | absolute MAIN | byoyomi MAIN PERIOD PERIODS |
//!   canadian MAIN PERIOD STONES`: KGS's extension. In Japanese byo-yomi KGS
//!   (kgsGtp) sends `time_left COLOUR TIME PERIODS`, where `TIME` is the time
//!   left in the current period and `PERIODS` the periods left, `0` again
//!   meaning main time. This is how Leela, Leela Zero, Pachi and KataGo read
//!   it ("KGS extension" in their time-control code), and we do the same.
//!   GoGui (and gogui-twogtp) only know Canadian byo-yomi and send the
//!   standard form.
//! * Some controllers send `time_left COLOUR 0 0` when main time has just run
//!   out (noted in Pachi and Leela). With byo-yomi that can only mean "main
//!   time is over and the first period starts full", which is also what the
//!   spec's reading gives, so we take it so.
//! * Under "no time limits" a `time_left` that reports real time is still
//!   honoured (the server's word beats our settings: never lose on time);
//!   a report of `0 0` there carries no information and is ignored.

mod lag;
mod time;

pub use lag::MoveCost;
pub use time::{Budget, Clock, TimeControl, MAX_THINK_SECONDS};
