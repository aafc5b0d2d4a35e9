//! The registry of experiments. Each experiment is one module; add it to
//! [`ALL`].

use crate::Experiment;

pub mod connect6_deep_dfpn;
pub mod deep_dfpn_grid;
pub mod deeppn_common;
pub mod deeppn_r_sweep_hex;
pub mod deeppn_r_sweep_othello;
pub mod ghi_one_eye;
pub mod hex_table_a3;
pub mod lambda_capturing;
pub mod othello_table_a2;
pub mod ppns_common;
pub mod ppns_connect4;
pub mod ppns_othello;
pub mod ppns_synthetic;
pub mod tsume_aesthetics;

/// Every experiment, by name.
pub static ALL: &[Experiment] = &[
    ppns_connect4::EXPERIMENT,
    ppns_othello::EXPERIMENT,
    ppns_synthetic::EXPERIMENT,
    othello_table_a2::EXPERIMENT,
    hex_table_a3::EXPERIMENT,
    deeppn_r_sweep_othello::EXPERIMENT,
    deeppn_r_sweep_hex::EXPERIMENT,
    deep_dfpn_grid::EXPERIMENT,
    ghi_one_eye::EXPERIMENT,
    lambda_capturing::EXPERIMENT,
    connect6_deep_dfpn::EXPERIMENT,
    tsume_aesthetics::EXPERIMENT,
];

/// A file of the shared test data, `shared/data/REL`: `../shared/data/REL`
/// from the working directory, else beside this checkout (the experiments
/// that read the data run from either).
pub(crate) fn shared_data_file(rel: &str) -> Result<std::path::PathBuf, String> {
    let rel = format!("shared/data/{rel}");
    let here = std::path::PathBuf::from("..").join(&rel);
    if here.exists() {
        return Ok(here);
    }
    let beside = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(3)
        .map(|p| p.join(&rel));
    match beside {
        Some(p) if p.exists() => Ok(p),
        _ => Err(format!(
            "test data not found: ../{rel} (run from the checkout, beside ../shared)"
        )),
    }
}
