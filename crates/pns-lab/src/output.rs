//! CSV files and markdown tables.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A table: a header and rows of cells, written as CSV or markdown.
#[derive(Clone, Debug, Default)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new<S: Into<String>>(header: impl IntoIterator<Item = S>) -> Self {
        Table {
            header: header.into_iter().map(Into::into).collect(),
            rows: Vec::new(),
        }
    }

    pub fn push<S: ToString>(&mut self, row: impl IntoIterator<Item = S>) {
        let r: Vec<String> = row.into_iter().map(|c| c.to_string()).collect();
        debug_assert_eq!(r.len(), self.header.len(), "row width");
        self.rows.push(r);
    }

    /// RFC 4180 CSV (cells with commas, quotes or newlines are quoted).
    pub fn to_csv(&self) -> String {
        fn cell(s: &str) -> String {
            if s.contains([',', '"', '\n']) {
                format!("\"{}\"", s.replace('"', "\"\""))
            } else {
                s.to_string()
            }
        }
        let mut out = String::new();
        for r in std::iter::once(&self.header).chain(&self.rows) {
            let line: Vec<String> = r.iter().map(|c| cell(c)).collect();
            out.push_str(&line.join(","));
            out.push('\n');
        }
        out
    }

    /// A GitHub-flavoured markdown table.
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "| {} |", self.header.join(" | "));
        let _ = writeln!(
            out,
            "|{}|",
            self.header
                .iter()
                .map(|_| "---")
                .collect::<Vec<_>>()
                .join("|")
        );
        for r in &self.rows {
            let _ = writeln!(out, "| {} |", r.join(" | "));
        }
        out
    }

    /// Writes `DIR/NAME.csv` and returns its path.
    pub fn write_csv(&self, dir: &Path, name: &str) -> Result<PathBuf, String> {
        write(dir, &format!("{name}.csv"), &self.to_csv())
    }
}

/// Writes a file into `dir` (created if needed).
pub fn write(dir: &Path, file: &str, text: &str) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let p = dir.join(file);
    std::fs::write(&p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    Ok(p)
}

/// A number with a fixed number of decimals.
pub fn fmt_f(x: f64, decimals: usize) -> String {
    format!("{x:.decimals$}")
}

/// A percentage with two decimals, e.g. `50.13%`.
pub fn pct(x: f64) -> String {
    format!("{:.2}%", x * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_and_markdown_aligns() {
        let mut t = Table::new(["a", "b"]);
        t.push(["1", "x,y"]);
        t.push(["2", "say \"hi\""]);
        assert_eq!(t.to_csv(), "a,b\n1,\"x,y\"\n2,\"say \"\"hi\"\"\"\n");
        let md = t.to_markdown();
        assert!(md.starts_with("| a | b |\n|---|---|\n| 1 | x,y |"));
        assert_eq!(pct(0.5013), "50.13%");
    }
}
