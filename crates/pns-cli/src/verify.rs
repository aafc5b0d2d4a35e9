//! `pns verify`: exit 0 when the certificate is valid, 1 with the reason
//! when it is not.

use pns_core::certificate::Certificate;
use pns_core::verify::verify;
use serde_json::json;

use crate::games::read_position;
use crate::{with_game, CliError, VerifyArgs};
use pns_games::RegisteredGame;

pub fn run(a: &VerifyArgs) -> Result<u8, CliError> {
    with_game!(a.game.as_str(), false, G => verify_game::<G>(a))
}

fn verify_game<G: RegisteredGame>(a: &VerifyArgs) -> Result<u8, CliError> {
    let g: G = read_position(&a.position)?;
    let bytes = std::fs::read(&a.file)
        .map_err(|e| CliError::usage(format!("cannot read {}: {e}", a.file.display())))?;
    // A file that is not text is a certificate that fails, not bad usage.
    let result = String::from_utf8(bytes)
        .map_err(|e| {
            format!(
                "not a pns certificate: not UTF-8 text (byte {})",
                e.utf8_error().valid_up_to()
            )
        })
        .and_then(|text| Certificate::parse(&text))
        .and_then(|c| verify(&g, &c));
    let (ok, msg) = match &result {
        Ok(v) => (true, format!("valid: {v} for the side to move")),
        Err(e) => (false, format!("invalid: {e}")),
    };
    if a.json {
        println!(
            "{}",
            json!({"valid": ok, "value": result.as_ref().ok().map(|v| v.name()),
                   "reason": result.as_ref().err()})
        );
    } else {
        println!("{msg}");
    }
    Ok(if ok { 0 } else { 1 })
}
