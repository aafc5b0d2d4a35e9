//! Parallel, ordered runs: each work item gets its own table and a seed
//! derived from the experiment seed and its index, so results do not depend
//! on the number of threads or on scheduling.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use pns_core::rng::splitmix64;
use pns_core::Table;
use rayon::prelude::*;

use crate::ExpOptions;

/// Progress callback: (items done, items in all).
pub type ProgressFn = Arc<dyn Fn(usize, usize) + Send + Sync>;

/// Stack size for search threads (recursion follows game length).
pub const STACK_BYTES: usize = 256 << 20;

/// The seed of work item `i` of an experiment seeded `seed`.
pub fn item_seed(seed: u64, i: usize) -> u64 {
    splitmix64(seed ^ splitmix64(i as u64 + 1))
}

/// Maps `f` over `items` on the experiment's threads, in order, giving each
/// call a thread-local table of `hash_mb` MiB (cleared by the searches).
pub fn par_map<T, R, F>(
    opts: &ExpOptions,
    hash_mb: usize,
    items: &[T],
    f: F,
) -> Result<Vec<R>, String>
where
    T: Sync,
    R: Send,
    F: Fn(&mut Table, usize, &T) -> R + Sync + Send,
{
    let mut b = rayon::ThreadPoolBuilder::new().stack_size(STACK_BYTES);
    if let Some(n) = opts.threads {
        b = b.num_threads(n);
    }
    let pool = b
        .build()
        .map_err(|e| format!("cannot start threads: {e}"))?;
    let done = AtomicUsize::new(0);
    let total = items.len();
    let progress = opts.progress.clone();
    Ok(pool.install(|| {
        items
            .par_iter()
            .enumerate()
            .map_init(
                || {
                    // One worker searches one item at a time on its table.
                    let mut tt = Table::with_mb(hash_mb);
                    tt.set_shared(false);
                    tt
                },
                |tt, (i, item)| {
                    let r = f(tt, i, item);
                    let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if let Some(p) = &progress {
                        p(d, total);
                    }
                    r
                },
            )
            .collect()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_ordered_and_seeds_distinct() {
        let opts = ExpOptions {
            positions: None,
            seed: 1,
            out: std::env::temp_dir(),
            threads: Some(2),
            progress: None,
        };
        let items: Vec<usize> = (0..100).collect();
        let r = par_map(&opts, 1, &items, |_, i, &x| (i, x * 2)).unwrap();
        assert!(r
            .iter()
            .enumerate()
            .all(|(i, &(j, y))| i == j && y == 2 * i));
        assert_ne!(item_seed(1, 0), item_seed(1, 1));
        assert_ne!(item_seed(1, 0), item_seed(2, 0));
    }
}
