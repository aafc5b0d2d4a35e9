//! Algorithm selection: one value naming an algorithm and its parameters,
//! parsed from `name[:key=value,...]`, and one dispatch into the
//! monomorphised searches. The dispatch happens once per search, never in
//! the hot loop.

use std::fmt;

use crate::bestfirst::ppns::PpnsParams;
use crate::bestfirst::{self, DeepPn, Mcpns, PnRule, Ppns, PpnsPaper};
use crate::dfpn::DfpnPolicy;
use crate::dfpn::{
    self, DeepDfpn, DfpnPlus, Epsilon, GhiMode, PathOptions, Pds, Plain, PnStar, Wpns,
};
use crate::game::Repetition;
use crate::limits::Limits;
use crate::problem::{Problem, Status};
use crate::result::SearchResult;
use crate::tt::Table;

/// An algorithm with its parameters.
#[derive(Clone, Debug, PartialEq)]
pub enum Algo {
    /// df-pn (Nagai 2002), with or without the problem's heuristic `h`,
    /// with or without Kawano's simulation ([`dfpn::kawano`]).
    Dfpn {
        heuristic: bool,
        ghi: GhiMode,
        kawano: bool,
    },
    /// df-pn+ (thesis §2.2.4): `h` plus constant edge costs.
    DfpnPlus {
        heuristic: bool,
        cost_phi: i64,
        cost_delta: i64,
        ghi: GhiMode,
    },
    /// df-pn with the 1+ε trick (Deep df-pn §6.3).
    Epsilon {
        epsilon: f64,
        heuristic: bool,
        ghi: GhiMode,
    },
    /// Deep df-pn (Deep df-pn §4, Def. 1).
    DeepDfpn { e: u64, d: u32, ghi: GhiMode },
    /// Weak proof-number search (thesis eq. 2.5).
    Wpns { heuristic: bool, ghi: GhiMode },
    /// PN* (Seo; thesis §2.2.2): proof-number iterative deepening from the
    /// root, with a table.
    PnStar { heuristic: bool },
    /// PDS (Nagai 1998; thesis §2.2.2): iterative deepening on both numbers
    /// at every node, with a table.
    Pds { heuristic: bool },
    /// PN-search (Allis 1994), explicit tree.
    Pns { heuristic: bool },
    /// DeepPN (thesis §3.2.1, eq. 3.1–3.4).
    DeepPn { r: f64, heuristic: bool },
    /// PPNS (PPNS paper §3, Algorithms 1–6): playout-valued leaves, PPN
    /// backed up by the AND/OR probability rules. `exact` keeps solved
    /// status apart from probabilities (our default); `exact = false` is the
    /// paper's floating-point termination within `pr` (Algorithm 6).
    Ppns {
        playouts: u32,
        theta: f64,
        pr: f64,
        exact: bool,
        seed: u64,
    },
    /// MCPNS (Saito et al. 2006): playout-initialised proof and disproof
    /// numbers, MIN/SUM backup.
    Mcpns { playouts: u32, clip: f64, seed: u64 },
}

impl Default for Algo {
    fn default() -> Self {
        Algo::Dfpn {
            heuristic: true,
            ghi: GhiMode::default(),
            kawano: false,
        }
    }
}

/// Help text listing the algorithms and parameters.
pub const ALGO_HELP: &str = "\
dfpn            df-pn (default); h=0 disables the game's heuristic initialisation; kawano=1 adds Kawano's
                simulation (a proven defence's proof replayed on its siblings, Kawano 1996)
dfpn-plus       df-pn+: h=0|1, cost-phi=N, cost-delta=N (constant edge costs, |N| <= 1000000, e.g. cost-phi=-1)
dfpn-eps        df-pn with the 1+epsilon trick: eps=X (default 0.25), h=0|1
deep-dfpn       Deep df-pn: e=E, d=D (leaf value E^(D-depth); e=1 or d<=1 is df-pn, e=0 depth-first)
wpns            weak proof-number search: h=0|1
pnstar          PN*: proof-number iterative deepening from the root, with a table: h=0|1
pds             PDS: iterative deepening on both numbers at every node, with a table: h=0|1
pns             PN-search on an explicit tree: h=0|1
deeppn          DeepPN: r=R in [0,1] (1 = PN-search, 0 = depth-first), h=0|1
ppns            probability-based PNS: playouts=N (per leaf, default 60), theta=T in (0,1) (default 0.01),
                exact=1|0 (1, default: solved only by exact AND/OR status, always correct; 0: the paper's rule,
                ends when the root PPN is within pr of 1 or 0, may be wrong), pr=P (default 0.00001), seed=S
mcpns           Monte-Carlo PNS: playouts=N (default 60), clip=C in (0,0.5] (win rates clipped to [C,1-C],
                default 0.01), seed=S
The df-pn family (dfpn, dfpn-plus, dfpn-eps, deep-dfpn, wpns) also takes ghi=ignore|dup|sim|nocycle
                for games whose positions repeat (GHI paper Table 1; default nocycle, GHI-safe)
Parameters follow a colon: deeppn:r=0.6  deep-dfpn:e=7,d=4  dfpn-eps:eps=0.125  ppns:playouts=20,theta=0.001";

/// The largest df-pn+ edge cost accepted, in absolute value.
pub const MAX_COST: u64 = 1_000_000;

impl Algo {
    /// Parses `name[:key=value,...]`.
    pub fn parse(s: &str) -> Result<Algo, String> {
        let (name, params) = match s.split_once(':') {
            Some((n, p)) => (n, p),
            None => (s, ""),
        };
        let mut kv: Vec<(&str, &str)> = Vec::new();
        for item in params.split(',').map(str::trim).filter(|x| !x.is_empty()) {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| format!("algorithm parameter '{item}' is not key=value"))?;
            let k = k.trim();
            if kv.iter().any(|(seen, _)| *seen == k) {
                return Err(format!("algorithm parameter {k} given twice"));
            }
            kv.push((k, v.trim()));
        }
        let mut used = vec![false; kv.len()];
        let mut get = |key: &str| -> Option<&str> {
            kv.iter()
                .enumerate()
                .find(|(_, (k, _))| *k == key)
                .map(|(i, (_, v))| {
                    used[i] = true;
                    *v
                })
        };
        fn num<T: std::str::FromStr>(key: &str, v: Option<&str>, default: T) -> Result<T, String> {
            match v {
                None => Ok(default),
                Some(v) => v
                    .parse()
                    .map_err(|_| format!("algorithm parameter {key}: '{v}' is not a valid number")),
            }
        }
        let h = |v: Option<&str>| -> Result<bool, String> {
            match v {
                None | Some("1") | Some("true") => Ok(true),
                Some("0") | Some("false") => Ok(false),
                Some(x) => Err(format!("algorithm parameter h: '{x}' is not 0 or 1")),
            }
        };
        let ghi = |v: Option<&str>| -> Result<GhiMode, String> {
            match v {
                None => Ok(GhiMode::default()),
                Some(x) => GhiMode::from_name(x).ok_or_else(|| {
                    format!("algorithm parameter ghi: '{x}' is not ignore, dup, sim or nocycle")
                }),
            }
        };
        let algo = match name {
            "dfpn" => Algo::Dfpn {
                heuristic: h(get("h"))?,
                ghi: ghi(get("ghi"))?,
                kawano: match get("kawano") {
                    None | Some("0") | Some("false") | Some("off") => false,
                    Some("1") | Some("true") | Some("on") => true,
                    Some(x) => {
                        return Err(format!("algorithm parameter kawano: '{x}' is not 0 or 1"))
                    }
                },
            },
            "dfpn-plus" | "dfpn+" => {
                let cost_phi: i64 = num("cost-phi", get("cost-phi"), 0)?;
                let cost_delta: i64 = num("cost-delta", get("cost-delta"), 0)?;
                // Costs are small corrections (Nagai's cost_φ is 0 to −6).
                // One as large as the numbers' ceiling (2^62) makes every
                // value saturate there, where thresholds stop telling
                // children apart and the search never ends.
                for (key, c) in [("cost-phi", cost_phi), ("cost-delta", cost_delta)] {
                    if c.unsigned_abs() > MAX_COST {
                        return Err(format!(
                            "algorithm parameter {key} must be between -{MAX_COST} and {MAX_COST} \
                             (edge costs are small corrections to proof numbers)"
                        ));
                    }
                }
                Algo::DfpnPlus {
                    heuristic: h(get("h"))?,
                    cost_phi,
                    cost_delta,
                    ghi: ghi(get("ghi"))?,
                }
            }
            "dfpn-eps" | "1+eps" => {
                let epsilon: f64 = num("eps", get("eps"), 0.25)?;
                if !(epsilon > 0.0 && epsilon.is_finite()) {
                    return Err("algorithm parameter eps must be a positive number".into());
                }
                Algo::Epsilon {
                    epsilon,
                    heuristic: h(get("h"))?,
                    ghi: ghi(get("ghi"))?,
                }
            }
            "deep-dfpn" => Algo::DeepDfpn {
                e: num("e", get("e"), 2)?,
                d: num("d", get("d"), 2)?,
                ghi: ghi(get("ghi"))?,
            },
            "wpns" => Algo::Wpns {
                heuristic: h(get("h"))?,
                ghi: ghi(get("ghi"))?,
            },
            "pnstar" | "pn*" => Algo::PnStar { heuristic: h(get("h"))? },
            "pds" => Algo::Pds { heuristic: h(get("h"))? },
            "pns" => Algo::Pns { heuristic: h(get("h"))? },
            "deeppn" => {
                let r: f64 = num("r", get("r"), 0.6)?;
                if !(0.0..=1.0).contains(&r) {
                    return Err("algorithm parameter r must be in [0, 1]".into());
                }
                Algo::DeepPn {
                    r,
                    heuristic: h(get("h"))?,
                }
            }
            "ppns" => {
                let d = PpnsParams::default();
                let playouts: u32 = num("playouts", get("playouts"), d.playouts)?;
                let theta: f64 = num("theta", get("theta"), d.theta)?;
                let pr: f64 = num("pr", get("pr"), 0.00001)?;
                if playouts == 0 {
                    return Err("algorithm parameter playouts must be at least 1".into());
                }
                if !(theta > 0.0 && theta < 1.0) {
                    return Err("algorithm parameter theta must be in (0, 1)".into());
                }
                if !(0.0..0.5).contains(&pr) {
                    return Err("algorithm parameter pr must be in [0, 0.5)".into());
                }
                let exact = match get("exact") {
                    None | Some("1") | Some("true") => true,
                    Some("0") | Some("false") => false,
                    Some(x) => return Err(format!("algorithm parameter exact: '{x}' is not 0 or 1")),
                };
                Algo::Ppns {
                    playouts,
                    theta,
                    pr,
                    exact,
                    seed: num("seed", get("seed"), d.seed)?,
                }
            }
            "mcpns" => {
                let d = Mcpns::default();
                let playouts: u32 = num("playouts", get("playouts"), d.playouts)?;
                let clip: f64 = num("clip", get("clip"), d.clip)?;
                if playouts == 0 {
                    return Err("algorithm parameter playouts must be at least 1".into());
                }
                if !(clip > 0.0 && clip <= 0.5) {
                    return Err("algorithm parameter clip must be in (0, 0.5]".into());
                }
                Algo::Mcpns {
                    playouts,
                    clip,
                    seed: num("seed", get("seed"), d.seed)?,
                }
            }
            _ => {
                return Err(format!(
                    "unknown algorithm '{name}' (one of dfpn, dfpn-plus, dfpn-eps, deep-dfpn, wpns, pnstar, pds, pns, deeppn, ppns, mcpns)"
                ))
            }
        };
        if let Some(i) = used.iter().position(|u| !u) {
            return Err(format!("algorithm '{name}' has no parameter '{}'", kv[i].0));
        }
        Ok(algo)
    }

    /// Whether the algorithm keeps an explicit tree (memory limit applies).
    pub fn is_best_first(&self) -> bool {
        matches!(
            self,
            Algo::Pns { .. } | Algo::DeepPn { .. } | Algo::Ppns { .. } | Algo::Mcpns { .. }
        )
    }

    /// Whether the algorithm searches games whose positions repeat: the
    /// df-pn family owns the line and is GHI-safe (GHI paper); PN*, PDS
    /// and the best-first searches do not track paths yet.
    pub fn handles_repetition(&self) -> bool {
        matches!(
            self,
            Algo::Dfpn { .. }
                | Algo::DfpnPlus { .. }
                | Algo::Epsilon { .. }
                | Algo::DeepDfpn { .. }
                | Algo::Wpns { .. }
        )
    }

    /// The GHI treatment, for the algorithms that have one.
    pub fn ghi(&self) -> Option<GhiMode> {
        match *self {
            Algo::Dfpn { ghi, .. }
            | Algo::DfpnPlus { ghi, .. }
            | Algo::Epsilon { ghi, .. }
            | Algo::DeepDfpn { ghi, .. }
            | Algo::Wpns { ghi, .. } => Some(ghi),
            _ => None,
        }
    }

    /// [`Algo::run`] with `threads` agents in one search: the df-pn
    /// variants run parallel df-pn ([`dfpn::parallel`], Kaneko 2010) on
    /// the shared `tt`; the other algorithms run alone.
    pub fn run_threads<P: Problem + Clone + Send>(
        &self,
        p: &mut P,
        tt: &Table,
        limits: &Limits,
        threads: usize,
    ) -> SearchResult {
        if threads <= 1 || p.repetition() != Repetition::Impossible {
            return self.run(p, tt, limits);
        }
        let job = Agents {
            p: &mut *p,
            tt,
            limits,
            threads,
        };
        match self.with_dfpn_policy(job) {
            Some(r) => r,
            None => self.run(p, tt, limits),
        }
    }

    /// Runs `job` with this algorithm's df-pn policy (the df-pn variants
    /// differ in nothing else); `None` for the other algorithms.
    fn with_dfpn_policy<J: PolicyJob>(&self, job: J) -> Option<SearchResult> {
        Some(match *self {
            Algo::Dfpn {
                heuristic,
                kawano: false,
                ..
            } => job.run(Plain { heuristic }),
            Algo::Dfpn {
                heuristic,
                kawano: true,
                ..
            } => job.run(dfpn::Kawano::new(Plain { heuristic })),
            Algo::DfpnPlus {
                heuristic,
                cost_phi,
                cost_delta,
                ..
            } => job.run(DfpnPlus {
                heuristic,
                cost_phi,
                cost_delta,
            }),
            Algo::Epsilon {
                epsilon, heuristic, ..
            } => job.run(Epsilon { epsilon, heuristic }),
            Algo::DeepDfpn { e, d, .. } => job.run(DeepDfpn { e, d }),
            Algo::Wpns { heuristic, .. } => job.run(Wpns { heuristic }),
            _ => return None,
        })
    }

    /// Runs the algorithm on `p` from its current node. Depth-first
    /// algorithms use `tt` as their table; best-first ones copy their solved
    /// nodes into it afterwards, so the certificate extractor reads both the
    /// same way.
    pub fn run<P: Problem>(&self, p: &mut P, tt: &Table, limits: &Limits) -> SearchResult {
        if p.repetition() != Repetition::Impossible && !self.handles_repetition() {
            // Callers check first (`handles_repetition`); unknown, never a
            // wrong answer, if one does not.
            return SearchResult {
                status: Status::Unknown,
                stats: Default::default(),
                stop: None,
            };
        }
        if let Some(ghi) = self.ghi() {
            let path = PathOptions {
                mode: ghi,
                prefix: &[],
                space: 0,
            };
            let job = OneAgent {
                p: &mut *p,
                tt,
                limits,
                path: &path,
            };
            if let Some(r) = self.with_dfpn_policy(job) {
                return r;
            }
        }
        match *self {
            Algo::PnStar { heuristic } => dfpn::pnstar::search(p, PnStar { heuristic }, tt, limits),
            Algo::Pds { heuristic } => dfpn::pds::search(p, Pds { heuristic }, tt, limits),
            Algo::Pns { heuristic } => {
                let (r, tree) = bestfirst::search(p, PnRule { heuristic }, limits);
                tree.export_solved(p, tt);
                r
            }
            Algo::DeepPn { r, heuristic } => {
                let (res, tree) = bestfirst::search(p, DeepPn { r, heuristic }, limits);
                tree.export_solved(p, tt);
                res
            }
            Algo::Ppns {
                playouts,
                theta,
                pr,
                exact,
                seed,
            } => {
                let params = PpnsParams {
                    playouts,
                    theta,
                    seed,
                };
                // Both rules export only exactly solved nodes, so a
                // certificate is a real proof even under the paper's rule.
                if exact {
                    let (res, tree) = bestfirst::search(p, Ppns { params }, limits);
                    tree.export_solved(p, tt);
                    res
                } else {
                    let (res, tree) = bestfirst::search(p, PpnsPaper { params, pr }, limits);
                    tree.export_solved(p, tt);
                    res
                }
            }
            Algo::Mcpns {
                playouts,
                clip,
                seed,
            } => {
                let rule = Mcpns {
                    playouts,
                    clip,
                    seed,
                };
                let (res, tree) = bestfirst::search(p, rule, limits);
                tree.export_solved(p, tt);
                res
            }
            Algo::Dfpn { .. }
            | Algo::DfpnPlus { .. }
            | Algo::Epsilon { .. }
            | Algo::DeepDfpn { .. }
            | Algo::Wpns { .. } => unreachable!("run by with_dfpn_policy above"),
        }
    }
}

/// A search to run with a df-pn policy ([`Algo::with_dfpn_policy`]).
trait PolicyJob {
    fn run<Pol: DfpnPolicy>(self, pol: Pol) -> SearchResult;
}

/// One df-pn search on the line rules of `path`.
struct OneAgent<'a, 'p, P> {
    p: &'a mut P,
    tt: &'a Table,
    limits: &'a Limits,
    path: &'a PathOptions<'p>,
}

impl<P: Problem> PolicyJob for OneAgent<'_, '_, P> {
    fn run<Pol: DfpnPolicy>(self, pol: Pol) -> SearchResult {
        dfpn::search_with(self.p, pol, self.tt, self.limits, self.path)
    }
}

/// Parallel df-pn with `threads` agents.
struct Agents<'a, P> {
    p: &'a mut P,
    tt: &'a Table,
    limits: &'a Limits,
    threads: usize,
}

impl<P: Problem + Clone + Send> PolicyJob for Agents<'_, P> {
    fn run<Pol: DfpnPolicy>(self, pol: Pol) -> SearchResult {
        let path = PathOptions::default();
        dfpn::parallel::search(self.p, pol, self.tt, self.limits, self.threads, &path)
    }
}

impl fmt::Display for Algo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let h = |b: bool| if b { "" } else { ":h=0" };
        // `,ghi=MODE` when not the default, after a colon if nothing else
        // came before it.
        let g = |first: bool, m: GhiMode| {
            if m == GhiMode::default() {
                String::new()
            } else {
                format!("{}ghi={}", if first { ":" } else { "," }, m.name())
            }
        };
        match self {
            Algo::Dfpn {
                heuristic,
                ghi,
                kawano,
            } => {
                let first = *heuristic && *ghi == GhiMode::default();
                let k = match (kawano, first) {
                    (false, _) => "",
                    (true, true) => ":kawano=1",
                    (true, false) => ",kawano=1",
                };
                write!(f, "dfpn{}{}{k}", h(*heuristic), g(*heuristic, *ghi))
            }
            Algo::DfpnPlus {
                heuristic,
                cost_phi,
                cost_delta,
                ghi,
            } => write!(
                f,
                "dfpn-plus:h={},cost-phi={cost_phi},cost-delta={cost_delta}{}",
                *heuristic as u8,
                g(false, *ghi)
            ),
            Algo::Epsilon {
                epsilon,
                heuristic,
                ghi,
            } => {
                write!(
                    f,
                    "dfpn-eps:eps={epsilon},h={}{}",
                    *heuristic as u8,
                    g(false, *ghi)
                )
            }
            Algo::DeepDfpn { e, d, ghi } => write!(f, "deep-dfpn:e={e},d={d}{}", g(false, *ghi)),
            Algo::Wpns { heuristic, ghi } => {
                write!(f, "wpns{}{}", h(*heuristic), g(*heuristic, *ghi))
            }
            Algo::PnStar { heuristic } => write!(f, "pnstar{}", h(*heuristic)),
            Algo::Pds { heuristic } => write!(f, "pds{}", h(*heuristic)),
            Algo::Pns { heuristic } => write!(f, "pns{}", h(*heuristic)),
            Algo::DeepPn { r, heuristic } => write!(f, "deeppn:r={r},h={}", *heuristic as u8),
            Algo::Ppns {
                playouts,
                theta,
                pr,
                exact,
                seed,
            } => write!(
                f,
                "ppns:playouts={playouts},theta={theta},pr={pr},exact={},seed={seed}",
                *exact as u8
            ),
            Algo::Mcpns {
                playouts,
                clip,
                seed,
            } => write!(f, "mcpns:playouts={playouts},clip={clip},seed={seed}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_parameters_parse_and_round_trip() {
        for s in [
            "dfpn",
            "dfpn:h=0",
            "pns",
            "deeppn:r=0.6,h=0",
            "pnstar",
            "pnstar:h=0",
            "pds",
            "pds:h=0",
            "ppns",
            "ppns:playouts=7,theta=0.001,pr=0.0001,exact=0,seed=9",
            "mcpns:playouts=3,clip=0.05,seed=2",
            "deep-dfpn:e=7,d=4",
            "dfpn-eps:eps=0.125,h=1",
            "dfpn-plus:h=0,cost-phi=-1,cost-delta=0",
            "wpns",
            "dfpn:ghi=ignore",
            "dfpn:h=0,ghi=dup",
            "dfpn:kawano=1",
            "dfpn:h=0,kawano=1",
            "dfpn:ghi=sim,kawano=1",
            "dfpn:h=0,ghi=dup,kawano=1",
            "wpns:ghi=sim",
            "deep-dfpn:e=3,d=2,ghi=ignore",
        ] {
            let a = Algo::parse(s).unwrap();
            assert_eq!(Algo::parse(&a.to_string()).unwrap(), a, "{s}");
        }
        assert!(Algo::parse("alphabeta").is_err());
        assert!(Algo::parse("deeppn:r=2").is_err());
        assert!(Algo::parse("deeppn:q=2").is_err());
        assert!(Algo::parse("ppns:theta=0").is_err());
        assert!(Algo::parse("ppns:theta=1").is_err());
        assert!(Algo::parse("ppns:pr=0.5").is_err());
        assert!(Algo::parse("ppns:playouts=0").is_err());
        assert!(Algo::parse("ppns:exact=2").is_err());
        assert!(Algo::parse("mcpns:clip=0").is_err());
        assert!(Algo::parse("mcpns:theta=0.1").is_err());
        assert!(Algo::parse("dfpn:h=maybe").is_err());
        assert!(Algo::parse("pds:h=2").is_err());
        assert!(Algo::parse("pnstar:r=1").is_err());
        assert_eq!(
            Algo::parse("pn*:h=0").unwrap(),
            Algo::PnStar { heuristic: false }
        );
        assert!(Algo::parse("dfpn-eps:eps=0").is_err());
        assert!(Algo::parse("deep-dfpn:e=x").is_err());
        assert!(Algo::parse("dfpn:ghi=maybe").is_err());
        assert!(Algo::parse("dfpn:kawano=2").is_err());
        assert!(Algo::parse("wpns:kawano=1").is_err());
        assert_eq!(
            Algo::parse("dfpn:kawano=on").unwrap().to_string(),
            "dfpn:kawano=1"
        );
        assert!(Algo::parse("pns:ghi=dup").is_err());
        assert_eq!(Algo::parse("dfpn:ghi=nocycle").unwrap(), Algo::default());
    }

    #[test]
    fn a_repeated_parameter_is_named_as_such() {
        let e = Algo::parse("dfpn:h=1,h=0").unwrap_err();
        assert_eq!(e, "algorithm parameter h given twice");
        let e = Algo::parse("deep-dfpn:e=3, e=4").unwrap_err();
        assert!(e.contains("e given twice"), "{e}");
    }

    #[test]
    fn edge_costs_are_bounded() {
        assert!(Algo::parse("dfpn-plus:cost-phi=-1000000,cost-delta=1000000").is_ok());
        for s in [
            "dfpn-plus:cost-phi=1000001",
            "dfpn-plus:cost-delta=-1000001",
            "dfpn-plus:cost-phi=9223372036854775807",
            "dfpn-plus:cost-delta=-9223372036854775808",
        ] {
            let e = Algo::parse(s).unwrap_err();
            assert!(
                e.contains("must be between -1000000 and 1000000"),
                "{s}: {e}"
            );
        }
    }

    #[test]
    fn the_deep_dfpn_grid_and_beyond_is_accepted() {
        // The paper's grid is E 1..20 x D 1..15; larger values saturate the
        // leaf values, which the search handles (policy.rs).
        for s in [
            "deep-dfpn:e=20,d=15",
            "deep-dfpn:e=20,d=16",
            "deep-dfpn:e=3,d=99999",
        ] {
            assert!(Algo::parse(s).is_ok(), "{s}");
        }
    }
}
