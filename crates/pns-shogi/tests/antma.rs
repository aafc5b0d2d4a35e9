//! The 72 problems of antma/tsumeshogi-check's tests
//! (../shared/data/shogi/antma-tsume.tsv): every mate found with its
//! stated length (futile interpositions not counted), every `nomate<=N`
//! line without a mate of N plies or fewer.

use crate::shared_data;

use shared_data::read_shared as shared;

use pns_core::{Status, Table};
use pns_shogi::{solve, Tsume, TsumeOptions};

#[test]
fn antma_72_right_with_lengths() {
    let text = shared("shogi/antma-tsume.tsv");
    let mut tt = Table::with_mb(16);
    let mut wrong = Vec::new();
    let mut n = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        let (sfen, label) = (cols[0], cols[1]);
        let t = Tsume::parse(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        tt.clear();
        let r = solve(&t, &TsumeOptions::default(), &tt);
        n += 1;
        let got = match (r.status(), &r.answer) {
            (Status::Proven, Some(a)) => format!("{}", a.length),
            (Status::Disproven, _) => "nomate".to_string(),
            (s, _) => format!("{s:?} {:?}", r.answer_error),
        };
        let ok = match label.strip_prefix("nomate<=") {
            Some(n) => {
                let n: u32 = n.parse().unwrap();
                got == "nomate" || got.parse::<u32>().is_ok_and(|l| l > n)
            }
            None => got == label,
        };
        if !ok {
            wrong.push(format!("{sfen}: expected {label}, got {got}"));
        }
    }
    assert_eq!(n, 72);
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
