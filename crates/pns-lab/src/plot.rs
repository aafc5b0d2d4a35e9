//! SVG plots: line charts and heatmaps (plotters' SVG backend).

use std::path::{Path, PathBuf};

use plotters::prelude::*;

/// One line of a line chart.
#[derive(Clone, Debug)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

/// A line chart.
#[derive(Clone, Debug)]
pub struct LineChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<Series>,
    /// Reverse the x axis (the thesis plots R from 1.0 down to 0.0).
    pub x_reversed: bool,
    /// Logarithmic y axis.
    pub y_log: bool,
}

const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

fn err<E: std::fmt::Debug>(e: E) -> String {
    format!("plot: {e:?}")
}

fn bounds(it: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in it.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        (0.0, 1.0)
    } else if lo == hi {
        (lo - 0.5, hi + 0.5)
    } else {
        (lo, hi)
    }
}

impl LineChart {
    /// Writes the chart to `DIR/FILE` (an `.svg` name).
    pub fn write(&self, dir: &Path, file: &str) -> Result<PathBuf, String> {
        std::fs::create_dir_all(dir).map_err(err)?;
        let path = dir.join(file);
        {
            let root = SVGBackend::new(&path, (900, 560)).into_drawing_area();
            root.fill(&WHITE).map_err(err)?;
            let pts = || self.series.iter().flat_map(|s| s.points.iter());
            let (x0, x1) = bounds(pts().map(|p| p.0));
            let (y0, y1) = bounds(pts().map(|p| p.1));
            let xr = if self.x_reversed { x1..x0 } else { x0..x1 };
            let mut b = ChartBuilder::on(&root);
            b.caption(&self.title, ("sans-serif", 22))
                .margin(12)
                .x_label_area_size(45)
                .y_label_area_size(80);
            if self.y_log {
                let lo = y0.max(1e-9);
                let mut chart = b
                    .build_cartesian_2d(xr, (lo..y1.max(lo * 10.0)).log_scale())
                    .map_err(err)?;
                chart
                    .configure_mesh()
                    .x_desc(&self.x_label)
                    .y_desc(&self.y_label)
                    .draw()
                    .map_err(err)?;
                self.draw_series(&mut chart)?;
                chart
                    .configure_series_labels()
                    .border_style(BLACK)
                    .background_style(WHITE.mix(0.85))
                    .draw()
                    .map_err(err)?;
            } else {
                let pad = (y1 - y0) * 0.05;
                let mut chart = b
                    .build_cartesian_2d(xr, (y0 - pad)..(y1 + pad))
                    .map_err(err)?;
                chart
                    .configure_mesh()
                    .x_desc(&self.x_label)
                    .y_desc(&self.y_label)
                    .draw()
                    .map_err(err)?;
                self.draw_series(&mut chart)?;
                chart
                    .configure_series_labels()
                    .border_style(BLACK)
                    .background_style(WHITE.mix(0.85))
                    .draw()
                    .map_err(err)?;
            }
            root.present().map_err(err)?;
        }
        Ok(path)
    }

    fn draw_series<DB: DrawingBackend, CT: plotters::coord::CoordTranslate<From = (f64, f64)>>(
        &self,
        chart: &mut ChartContext<'_, DB, CT>,
    ) -> Result<(), String> {
        for (i, s) in self.series.iter().enumerate() {
            let c = PALETTE[i % PALETTE.len()];
            let pts: Vec<(f64, f64)> = s
                .points
                .iter()
                .copied()
                .filter(|p| p.1.is_finite())
                .collect();
            chart
                .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))
                .map_err(err)?
                .label(s.name.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(2))
                });
            chart
                .draw_series(pts.into_iter().map(|p| Circle::new(p, 3, c.filled())))
                .map_err(err)?;
        }
        Ok(())
    }
}

/// A heatmap over a grid: `values[row][col]`, `NaN` cells drawn blank.
#[derive(Clone, Debug)]
pub struct Heatmap {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// Column labels (x) and row labels (y).
    pub x_ticks: Vec<String>,
    pub y_ticks: Vec<String>,
    pub values: Vec<Vec<f64>>,
    /// Colour by log10 of the value.
    pub log: bool,
}

fn colour(t: f64) -> RGBColor {
    // Dark blue (low) to yellow (high), a perceptually ordered ramp.
    let t = t.clamp(0.0, 1.0);
    let stops = [
        (0.0, (68.0, 1.0, 84.0)),
        (0.25, (59.0, 82.0, 139.0)),
        (0.5, (33.0, 145.0, 140.0)),
        (0.75, (94.0, 201.0, 98.0)),
        (1.0, (253.0, 231.0, 37.0)),
    ];
    for w in stops.windows(2) {
        let (a, ca) = w[0];
        let (b, cb) = w[1];
        if t <= b {
            let u = (t - a) / (b - a);
            let mix = |x: f64, y: f64| (x + (y - x) * u) as u8;
            return RGBColor(mix(ca.0, cb.0), mix(ca.1, cb.1), mix(ca.2, cb.2));
        }
    }
    RGBColor(253, 231, 37)
}

impl Heatmap {
    /// Writes the heatmap to `DIR/FILE`.
    pub fn write(&self, dir: &Path, file: &str) -> Result<PathBuf, String> {
        std::fs::create_dir_all(dir).map_err(err)?;
        let path = dir.join(file);
        let rows = self.values.len();
        let cols = self.values.first().map_or(0, |r| r.len());
        let tr = |v: f64| if self.log { v.max(1e-12).log10() } else { v };
        let (lo, hi) = bounds(
            self.values
                .iter()
                .flatten()
                .copied()
                .filter(|v| v.is_finite())
                .map(tr),
        );
        {
            let root = SVGBackend::new(&path, (960, 620)).into_drawing_area();
            root.fill(&WHITE).map_err(err)?;
            let (main, legend) = root.split_horizontally(860);
            let mut chart = ChartBuilder::on(&main)
                .caption(&self.title, ("sans-serif", 20))
                .margin(10)
                .x_label_area_size(45)
                .y_label_area_size(55)
                // Segmented axes put each label at its cell's centre.
                .build_cartesian_2d(
                    // An integer range includes its end: n cells are 0..=n-1.
                    (0..cols.max(2) - 1).into_segmented(),
                    (0..rows.max(2) - 1).into_segmented(),
                )
                .map_err(err)?;
            let xt = self.x_ticks.clone();
            let yt = self.y_ticks.clone();
            let tick = |ticks: &[String], v: &SegmentValue<usize>| match v {
                SegmentValue::CenterOf(i) => ticks.get(*i).cloned().unwrap_or_default(),
                _ => String::new(),
            };
            chart
                .configure_mesh()
                .disable_mesh()
                .x_desc(&self.x_label)
                .y_desc(&self.y_label)
                .x_labels(cols.min(25))
                .y_labels(rows.min(25))
                .label_style(("sans-serif", 13))
                .x_label_formatter(&|v| tick(&xt, v))
                .y_label_formatter(&|v| tick(&yt, v))
                .draw()
                .map_err(err)?;
            chart
                .draw_series(self.values.iter().enumerate().flat_map(|(r, row)| {
                    row.iter()
                        .enumerate()
                        .filter(|(_, v)| v.is_finite())
                        .map(move |(c, &v)| {
                            let t = (tr(v) - lo) / (hi - lo);
                            Rectangle::new(
                                [
                                    (SegmentValue::Exact(c), SegmentValue::Exact(r)),
                                    (SegmentValue::Exact(c + 1), SegmentValue::Exact(r + 1)),
                                ],
                                colour(t).filled(),
                            )
                        })
                }))
                .map_err(err)?;
            // Colour scale.
            let steps = 50;
            let lc = ChartBuilder::on(&legend)
                .margin_top(40)
                .margin_bottom(55)
                .y_label_area_size(70)
                .build_cartesian_2d(0..1, lo..hi);
            let mut lc = lc.map_err(err)?;
            let log = self.log;
            lc.configure_mesh()
                .disable_mesh()
                .disable_x_axis()
                .label_style(("sans-serif", 12))
                .y_label_formatter(&|v| {
                    if log {
                        format!("{:.0}", 10f64.powf(*v))
                    } else {
                        format!("{v:.0}")
                    }
                })
                .draw()
                .map_err(err)?;
            lc.draw_series((0..steps).map(|i| {
                let a = lo + (hi - lo) * i as f64 / steps as f64;
                let b = lo + (hi - lo) * (i + 1) as f64 / steps as f64;
                Rectangle::new([(0, a), (1, b)], colour(i as f64 / steps as f64).filled())
            }))
            .map_err(err)?;
            root.present().map_err(err)?;
        }
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charts_render_to_svg() {
        let dir = std::env::temp_dir().join(format!("pns-lab-plot-{}", std::process::id()));
        let c = LineChart {
            title: "t".into(),
            x_label: "R".into(),
            y_label: "nodes".into(),
            series: vec![Series {
                name: "a".into(),
                points: vec![(1.0, 10.0), (0.5, 5.0), (0.0, f64::NAN)],
            }],
            x_reversed: true,
            y_log: true,
        };
        let p = c.write(&dir, "line.svg").unwrap();
        let svg = std::fs::read_to_string(p).unwrap();
        assert!(svg.contains("<svg") && svg.contains("nodes"));
        let h = Heatmap {
            title: "h".into(),
            x_label: "E".into(),
            y_label: "D".into(),
            x_ticks: vec!["1".into(), "2".into()],
            y_ticks: vec!["1".into(), "2".into()],
            values: vec![vec![1.0, 10.0], vec![f64::NAN, 100.0]],
            log: true,
        };
        let p = h.write(&dir, "heat.svg").unwrap();
        assert!(std::fs::read_to_string(p).unwrap().contains("<rect"));
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// A scatter plot on log-log axes with the diagonal y = x (one search's
/// time against another's, problem by problem).
#[derive(Clone, Debug)]
pub struct Scatter {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// Named groups of points; values ≤ 0 are drawn at the axes' floor.
    pub series: Vec<Series>,
}

impl Scatter {
    /// Writes the plot to `DIR/FILE` (an `.svg` name).
    pub fn write(&self, dir: &Path, file: &str) -> Result<PathBuf, String> {
        std::fs::create_dir_all(dir).map_err(err)?;
        let path = dir.join(file);
        {
            let root = SVGBackend::new(&path, (760, 700)).into_drawing_area();
            root.fill(&WHITE).map_err(err)?;
            let all = || {
                self.series
                    .iter()
                    .flat_map(|s| s.points.iter().flat_map(|p| [p.0, p.1]))
                    .filter(|v| v.is_finite() && *v > 0.0)
            };
            let lo = all().fold(f64::INFINITY, f64::min);
            let hi = all().fold(0.0, f64::max);
            let (lo, hi) = if lo.is_finite() && hi > lo {
                (lo / 1.5, hi * 1.5)
            } else {
                (0.1, 10.0)
            };
            let mut chart = ChartBuilder::on(&root)
                .caption(&self.title, ("sans-serif", 20))
                .margin(14)
                .x_label_area_size(45)
                .y_label_area_size(70)
                .build_cartesian_2d((lo..hi).log_scale(), (lo..hi).log_scale())
                .map_err(err)?;
            chart
                .configure_mesh()
                .x_desc(&self.x_label)
                .y_desc(&self.y_label)
                .draw()
                .map_err(err)?;
            chart
                .draw_series(LineSeries::new(vec![(lo, lo), (hi, hi)], BLACK.mix(0.4)))
                .map_err(err)?;
            for (i, s) in self.series.iter().enumerate() {
                let c = PALETTE[i % PALETTE.len()];
                let pts: Vec<(f64, f64)> = s
                    .points
                    .iter()
                    .filter(|p| p.0.is_finite() && p.1.is_finite())
                    .map(|p| (p.0.max(lo), p.1.max(lo)))
                    .collect();
                chart
                    .draw_series(pts.into_iter().map(|p| Circle::new(p, 3, c.filled())))
                    .map_err(err)?
                    .label(s.name.clone())
                    .legend(move |(x, y)| Circle::new((x + 8, y), 4, c.filled()));
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .border_style(BLACK)
                .background_style(WHITE.mix(0.85))
                .draw()
                .map_err(err)?;
            root.present().map_err(err)?;
        }
        Ok(path)
    }
}
