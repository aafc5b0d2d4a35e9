//! What every search returns: a status and the statistics record.

use crate::limits::StopReason;
use crate::problem::Status;
use crate::stats::Stats;

/// The outcome of one search of one AND/OR problem.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// `Proven`, `Disproven`, or `Unknown` when a limit ended the search.
    pub status: Status,
    pub stats: Stats,
    /// Which limit ended the search, when one did.
    pub stop: Option<StopReason>,
}
