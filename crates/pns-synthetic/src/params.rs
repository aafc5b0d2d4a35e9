//! The `name=value,...` lists both synthetic notations begin with.

use pns_core::GameError;

/// The `(name, value)` items of a comma-separated list.
pub(crate) fn items(s: &str) -> impl Iterator<Item = Result<(&str, &str), GameError>> {
    s.split(',')
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(|item| {
            item.split_once('=')
                .ok_or_else(|| GameError::new(format!("'{item}' is not name=value")))
        })
}

/// The value `v` of parameter `k` as a number no larger than `max`.
pub(crate) fn number(k: &str, v: &str, max: u64) -> Result<u64, GameError> {
    let n: u64 = v
        .parse()
        .map_err(|_| GameError::new(format!("{k}: '{v}' is not a number")))?;
    if n > max {
        return Err(GameError::new(format!(
            "{k}: {n} is over the maximum {max}"
        )));
    }
    Ok(n)
}
