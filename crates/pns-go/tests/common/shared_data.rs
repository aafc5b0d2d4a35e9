//! Where the tests find the external test data: the folder `shared/data`
//! beside the repository checkout (README.md, "Test data"). Every test that
//! reads it goes through here, so that a missing folder fails with one clear
//! message naming the path instead of an unwrap on `NotFound`.
//!
//! Used by the pns-games tests (through `common`) and the pns-cli tests
//! (included by path).

use std::path::{Path, PathBuf};

/// The path of `rel` (e.g. `connect4/Test_L2_R1`) under the shared data
/// folder. Panics, naming the path, if it does not exist.
pub fn shared_data(rel: &str) -> PathBuf {
    // crates/<crate> -> the checkout -> the folder holding it.
    let beside = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(3)
        .expect("the crate lies two folders below the checkout");
    let path = beside.join("shared/data").join(rel);
    assert!(
        path.exists(),
        "test data not found: {} (the tests read the folder shared/data beside the \
         repository checkout; see README.md, \"Test data\")",
        path.display()
    );
    path
}

/// The text of `rel` under the shared data folder (see [`shared_data`]).
pub fn read_shared(rel: &str) -> String {
    let path = shared_data(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}
