//! Human-readable output and the JSON records (see docs/JSON.md).

use pns_core::{Stats, StopReason};
use serde_json::{json, Value};

/// `12345678` → `12,345,678`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A duration in ms as a short human string.
pub fn ms(t: f64) -> String {
    if t < 1.0 {
        format!("{:.1} µs", t * 1000.0)
    } else if t < 1000.0 {
        format!("{t:.2} ms")
    } else {
        format!("{:.2} s", t / 1000.0)
    }
}

fn mib(b: u64) -> String {
    format!("{:.1} MiB", b as f64 / (1 << 20) as f64)
}

/// The statistics block of `pns solve`.
pub fn print_stats(s: &Stats) {
    println!(
        "nodes      {} visits ({} nodes/s), {} expanded, {} generated",
        thousands(s.visits),
        thousands(s.nodes_per_sec as u64),
        thousands(s.expanded),
        thousands(s.nodes)
    );
    println!(
        "iterations {} (average most-proving depth {:.2}, max depth {})",
        thousands(s.iterations),
        s.avg_mpn_depth,
        s.max_depth
    );
    println!(
        "seesaw     {} re-traversals, {} root switches",
        thousands(s.seesaw_revisits),
        thousands(s.seesaw_root_switches)
    );
    println!(
        "numbers    root pn/dn max {}/{}, any node max {}/{}",
        thousands(s.max_root_pn),
        thousands(s.max_root_dn),
        thousands(s.max_pn),
        thousands(s.max_dn)
    );
    if s.tt_probes > 0 {
        println!(
            "table      {} probes, {} hits, {} stores, {} replacements, {} collections ({} removed)",
            thousands(s.tt_probes),
            thousands(s.tt_hits),
            thousands(s.tt_stores),
            thousands(s.tt_replacements),
            thousands(s.tt_collections),
            thousands(s.tt_collected)
        );
    }
    if s.playouts > 0 {
        println!("playouts   {}", thousands(s.playouts));
    }
    println!(
        "time       {}, search memory {}, process peak {}",
        ms(s.time_ms),
        mib(s.peak_memory_bytes),
        peak_rss().map(mib).unwrap_or_else(|| "n/a".into())
    );
}

/// The process' peak resident memory (Linux), in bytes.
pub fn peak_rss() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let l = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = l.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The stop reason as JSON (null when none).
pub fn stop_json(s: Option<StopReason>) -> Value {
    match s {
        Some(r) => json!(r.name()),
        None => Value::Null,
    }
}
