//! The report's chart: valid-signature medians per suite, log scale, as SVG.

use std::fmt::Write as _;

use super::{Report, us};

impl Report {
    /// A bar chart (log scale) of valid-signature medians per suite.
    pub fn svg(&self) -> String {
        let series: Vec<(&str, &str, &str)> = vec![
            ("native", "liboqs", "#6b7280"),
            ("native", "reference", "#a3a3a3"),
            ("native", "pqverify", "#2563eb"),
            ("native", "pqverify-portable", "#60a5fa"),
            ("native", "pqverify-prepared", "#1e3a8a"),
            ("native", "dual-enforce", "#7c3aed"),
            ("node", "pqverify", "#16a34a"),
            ("node", "pqverify-portable", "#86efac"),
            ("node", "noble", "#f59e0b"),
            ("node", "node-crypto", "#a16207"),
            ("chromium", "pqverify", "#0d9488"),
            ("chromium", "webcrypto", "#be185d"),
            ("chromium", "noble", "#dc2626"),
            ("firefox", "pqverify", "#ea580c"),
            ("webkit", "pqverify", "#0891b2"),
        ];
        let series: Vec<_> = series
            .into_iter()
            .filter(|(t, w, _)| {
                self.runs.get(*t).is_some_and(|r| self.suites.iter().any(|s| r.get(w, s, "valid").is_some()))
            })
            .collect();
        let (left, bar, gap, width) = (170.0, 9.0, 10.0, 900.0);
        let group = bar * series.len() as f64 + gap;
        let height = 60.0 + group * self.suites.len() as f64 + 20.0 * series.len() as f64;
        let (lo, hi) = (1.0f64, 1e6f64); // 1 µs … 1 s
        let x = |ns: f64| {
            left + (width - left - 20.0) * ((ns / 1000.0).max(lo).log10() - lo.log10()) / (hi.log10() - lo.log10())
        };
        let mut s = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height:.0}" font-family="sans-serif" font-size="11">"#
        );
        let _ = write!(
            s,
            r#"<text x="10" y="18" font-size="14">pqverify: valid-signature verify time (µs, log scale)</text>"#
        );
        for p in 0..=6 {
            let v = 10f64.powi(p);
            let xx = x(v * 1000.0);
            let _ = write!(
                s,
                r##"<line x1="{xx:.1}" y1="30" x2="{xx:.1}" y2="{:.0}" stroke="#e5e7eb"/><text x="{xx:.1}" y="28" text-anchor="middle">{v}</text>"##,
                40.0 + group * self.suites.len() as f64
            );
        }
        for (i, suite) in self.suites.iter().enumerate() {
            let y0 = 40.0 + group * i as f64;
            let _ = write!(
                s,
                r#"<text x="{:.0}" y="{:.1}" text-anchor="end">{suite}</text>"#,
                left - 6.0,
                y0 + group / 2.0
            );
            for (j, (target, way, color)) in series.iter().enumerate() {
                if let Some(c) = self.runs.get(*target).and_then(|r| r.get(way, suite, "valid")) {
                    let _ = write!(
                        s,
                        r#"<rect x="{left}" y="{:.1}" width="{:.1}" height="{bar}" fill="{color}"><title>{target} {way}: {} µs</title></rect>"#,
                        y0 + bar * j as f64,
                        (x(c.median_ns) - left).max(1.0),
                        us(c.median_ns)
                    );
                }
            }
        }
        let ly = 50.0 + group * self.suites.len() as f64;
        for (j, (target, way, color)) in series.iter().enumerate() {
            let yy = ly + 18.0 * j as f64;
            let _ = write!(
                s,
                r#"<rect x="{left}" y="{:.0}" width="12" height="10" fill="{color}"/><text x="{:.0}" y="{:.0}">{target} {way}</text>"#,
                yy,
                left + 18.0,
                yy + 9.0
            );
        }
        s.push_str("</svg>\n");
        s
    }
}

/// Ends a chart whose series are (target, way): one legend row per series at the
/// bottom (20 px each, in `colours` order), then the closing tag.
pub(super) fn close_with_legend(
    svg: &mut String,
    series: &[(String, String)],
    colours: &[&str],
    left: f64,
    height: f64,
) {
    for (j, (target, way)) in series.iter().enumerate() {
        let y = height - 20.0 * (series.len() - j) as f64 + 10.0;
        let _ = write!(
            svg,
            r#"<rect x="{left}" y="{:.0}" width="10" height="10" fill="{}"/><text x="{:.0}" y="{:.0}">{target} {way}</text>"#,
            y - 9.0,
            colours[j % colours.len()],
            left + 14.0,
            y
        );
    }
    svg.push_str("</svg>\n");
}

/// A vertical grid line at `x` from the top of the plot to `bottom`, labelled above.
pub(super) fn grid_line(svg: &mut String, x: f64, bottom: f64, label: &str) {
    let _ = write!(
        svg,
        r##"<line x1="{x:.1}" y1="30" x2="{x:.1}" y2="{bottom:.0}" stroke="#e5e7eb"/><text x="{x:.1}" y="44" text-anchor="middle">{label}</text>"##
    );
}

/// A group's label, right-aligned before the bars at `left`, centred on its `group` height from `y0`.
pub(super) fn group_label(svg: &mut String, left: f64, y0: f64, group: f64, label: &str) {
    let _ = write!(svg, r#"<text x="{:.0}" y="{:.1}" text-anchor="end">{label}</text>"#, left - 6.0, y0 + group / 2.0);
}
