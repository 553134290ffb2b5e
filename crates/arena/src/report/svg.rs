//! SVG written by hand: a plot area with data coordinates, axes with round ticks, lines, bands,
//! bars and labels. Each element carries a `class` (and the data its test reads as `data-…`
//! attributes), the colours are attributes, so a chart looks the same inlined in the report
//! page and opened alone from `docs/`.
//!
//! A charting crate (`plotters` with its SVG backend) was weighed against this: it draws the
//! same lines and axes, but it cannot name the elements it writes (no `class`, `id` or `data-`
//! attributes, which the browser test and the page's style need), writes fixed-size pixels where
//! a `viewBox` lets a chart scale with the page, and brings its own dependency tree for three
//! chart kinds whose drawing fits in this file.

use std::fmt::Write as _;

/// Colours shared by the report's charts and page (the page's stylesheet uses the same values).
pub mod colour {
    /// The first engine's line and bars.
    pub const FIRST: &str = "#1f6fb4";
    /// The second engine's.
    pub const SECOND: &str = "#d0661b";
    /// A confidence band.
    pub const BAND: &str = "#9cc3e6";
    /// Grid lines.
    pub const GRID: &str = "#dde1e6";
    /// Axes and text.
    pub const INK: &str = "#303840";
    /// An upper bound (H1).
    pub const ACCEPT: &str = "#2e8b3d";
    /// A lower bound (H0).
    pub const REJECT: &str = "#b83a3a";
}

/// Text with `&`, `<`, `>` and `"` escaped for XML and HTML.
#[must_use]
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            _ => escaped.push(c),
        }
    }
    escaped
}

/// About `count` round values covering `low..=high` (steps of 1, 2 or 5 times a power of ten).
#[must_use]
pub fn ticks(low: f64, high: f64, count: usize) -> Vec<f64> {
    if high.partial_cmp(&low) != Some(std::cmp::Ordering::Greater) || count == 0 {
        return vec![low];
    }
    let rough = (high - low) / count as f64;
    let exponent = rough.log10().floor() as i32;
    let factor =
        [1, 2, 5, 10].into_iter().find(|&factor| f64::from(factor) * 10f64.powi(exponent) >= rough).unwrap_or(10);
    // Multiples of `factor` × 10^exponent, computed so that 0.6 is 6 / 10 and not 3 × 0.2.
    let value = |multiple: i64| {
        let units = multiple as f64 * f64::from(factor);
        if exponent < 0 {
            units / 10f64.powi(-exponent)
        } else {
            units * 10f64.powi(exponent)
        }
    };
    let step = value(1);
    // A hair of slack: 0.58 / 0.02 is 28.999….
    let first = (low / step - 1e-9).ceil() as i64;
    let last = (high / step + 1e-9).floor() as i64;
    (first..=last).map(value).collect()
}

/// A number with at most `decimals` decimals and no trailing zeros (`0.5`, `2`, `-0.25`).
#[must_use]
pub fn number(value: f64, decimals: usize) -> String {
    let text = format!("{value:.decimals$}");
    let text = if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.') } else { &text };
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

/// A plot: a frame of `width` × `height` user units with margins for the axes, mapping data
/// ranges `x` and `y` onto the area inside them.
pub struct Plot {
    width: f64,
    height: f64,
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
    x: (f64, f64),
    y: (f64, f64),
    body: String,
}

impl Plot {
    /// An empty plot; the right margin leaves room for a second axis.
    #[must_use]
    pub fn new(width: f64, height: f64, x: (f64, f64), y: (f64, f64)) -> Plot {
        // A range may run downwards (rows counted from the top); an empty one is widened.
        let widen = |(low, high): (f64, f64)| if high != low { (low, high) } else { (low - 0.5, low + 0.5) };
        Plot {
            width,
            height,
            left: 52.0,
            right: 58.0,
            top: 30.0,
            bottom: 38.0,
            x: widen(x),
            y: widen(y),
            body: String::new(),
        }
    }

    /// The same with other margins (left, right, top, bottom).
    #[must_use]
    pub fn with_margins(mut self, left: f64, right: f64, top: f64, bottom: f64) -> Plot {
        (self.left, self.right, self.top, self.bottom) = (left, right, top, bottom);
        self
    }

    /// The horizontal position of data `x`.
    #[must_use]
    pub fn px(&self, x: f64) -> f64 {
        self.left + (x - self.x.0) / (self.x.1 - self.x.0) * (self.width - self.left - self.right)
    }

    /// The vertical position of data `y`.
    #[must_use]
    pub fn py(&self, y: f64) -> f64 {
        self.top + (self.y.1 - y) / (self.y.1 - self.y.0) * (self.height - self.top - self.bottom)
    }

    /// Horizontal grid lines at `ticks` with their labels on the left.
    pub fn left_axis(&mut self, ticks: &[(f64, String)], title: &str) {
        for (value, label) in ticks {
            let y = self.py(*value);
            let (x0, x1) = (self.left, self.width - self.right);
            let _ = write!(
                self.body,
                r#"<line class="grid" x1="{x0:.1}" y1="{y:.1}" x2="{x1:.1}" y2="{y:.1}" stroke="{}" stroke-width="1"/>"#,
                colour::GRID
            );
            self.text(self.left - 6.0, y + 4.0, "end", label, "tick");
        }
        let middle = (self.top + self.height - self.bottom) / 2.0;
        let _ = write!(
            self.body,
            r#"<text class="axis-title" x="12" y="{middle:.1}" transform="rotate(-90 12 {middle:.1})" text-anchor="middle" font-size="12" fill="{}">{}</text>"#,
            colour::INK,
            escape(title)
        );
    }

    /// Labels on the right at `ticks` (a second scale of the same axis, such as Elo).
    pub fn right_axis(&mut self, ticks: &[(f64, String)], title: &str) {
        let x = self.width - self.right;
        for (value, label) in ticks {
            let y = self.py(*value);
            let _ = write!(
                self.body,
                r#"<line x1="{x:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{}"/>"#,
                x + 4.0,
                colour::INK
            );
            self.text(x + 6.0, y + 4.0, "start", label, "tick right-tick");
        }
        let middle = (self.top + self.height - self.bottom) / 2.0;
        let at = self.width - 10.0;
        let _ = write!(
            self.body,
            r#"<text class="axis-title" x="{at:.1}" y="{middle:.1}" transform="rotate(90 {at:.1} {middle:.1})" text-anchor="middle" font-size="12" fill="{}">{}</text>"#,
            colour::INK,
            escape(title)
        );
    }

    /// Tick labels under the plot at `ticks`, and the axis title.
    pub fn bottom_axis(&mut self, ticks: &[(f64, String)], title: &str) {
        let y = self.height - self.bottom;
        let _ = write!(
            self.body,
            r#"<line class="axis" x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{}"/>"#,
            self.left,
            self.width - self.right,
            colour::INK
        );
        for (value, label) in ticks {
            let x = self.px(*value);
            let _ = write!(
                self.body,
                r#"<line x1="{x:.1}" y1="{y:.1}" x2="{x:.1}" y2="{:.1}" stroke="{}"/>"#,
                y + 4.0,
                colour::INK
            );
            self.text(x, y + 16.0, "middle", label, "tick");
        }
        let centre = (self.left + self.width - self.right) / 2.0;
        self.text(centre, self.height - 6.0, "middle", title, "axis-title");
    }

    /// A title above the plot.
    pub fn title(&mut self, title: &str) {
        self.text(self.left, 18.0, "start", title, "chart-title");
    }

    /// Text at (`x`, `y`) in user units.
    pub fn text(&mut self, x: f64, y: f64, anchor: &str, text: &str, class: &str) {
        self.coloured_text(x, y, anchor, text, class, colour::INK);
    }

    /// The same in another colour.
    pub fn coloured_text(&mut self, x: f64, y: f64, anchor: &str, text: &str, class: &str, fill: &str) {
        let size = if class == "chart-title" { 14 } else { 11 };
        let _ = write!(
            self.body,
            r#"<text class="{class}" x="{x:.1}" y="{y:.1}" text-anchor="{anchor}" font-size="{size}" fill="{fill}">{}</text>"#,
            escape(text)
        );
    }

    /// A line through data `points`; `class` names it and the points' count is `data-points`.
    pub fn line(&mut self, class: &str, points: &[(f64, f64)], colour: &str) {
        let coordinates = self.coordinates(points);
        let _ = write!(
            self.body,
            r#"<polyline class="{class}" data-points="{}" points="{coordinates}" fill="none" stroke="{colour}" stroke-width="2" stroke-linejoin="round"/>"#,
            points.len()
        );
    }

    /// A filled band between `upper` and `lower`, both given left to right.
    pub fn band(&mut self, class: &str, upper: &[(f64, f64)], lower: &[(f64, f64)], colour: &str) {
        let outline: Vec<(f64, f64)> = upper.iter().chain(lower.iter().rev()).copied().collect();
        let coordinates = self.coordinates(&outline);
        let _ = write!(
            self.body,
            r#"<polygon class="{class}" data-points="{}" points="{coordinates}" fill="{colour}" fill-opacity="0.55" stroke="none"/>"#,
            upper.len()
        );
    }

    /// A horizontal line across the plot at data `y`, labelled at its right end.
    pub fn rule(&mut self, class: &str, y: f64, label: &str, colour: &str) {
        let py = self.py(y);
        let _ = write!(
            self.body,
            r#"<line class="{class}" x1="{:.1}" y1="{py:.1}" x2="{:.1}" y2="{py:.1}" stroke="{colour}" stroke-width="1.5" stroke-dasharray="6 4"/>"#,
            self.left,
            self.width - self.right
        );
        if !label.is_empty() {
            let x = self.width - self.right - 4.0;
            let _ = write!(
                self.body,
                r#"<text class="rule-label" x="{x:.1}" y="{:.1}" text-anchor="end" font-size="11" fill="{colour}">{}</text>"#,
                py - 4.0,
                escape(label)
            );
        }
    }

    /// A rectangle between data corners, with a tooltip.
    pub fn rect(&mut self, class: &str, from: (f64, f64), to: (f64, f64), colour: &str, tooltip: &str) {
        let (x0, x1) = (self.px(from.0).min(self.px(to.0)), self.px(from.0).max(self.px(to.0)));
        let (y0, y1) = (self.py(from.1).min(self.py(to.1)), self.py(from.1).max(self.py(to.1)));
        let _ = write!(
            self.body,
            r#"<rect class="{class}" x="{x0:.1}" y="{y0:.1}" width="{:.1}" height="{:.1}" fill="{colour}"><title>{}</title></rect>"#,
            x1 - x0,
            y1 - y0,
            escape(tooltip)
        );
    }

    /// A straight segment between data points.
    pub fn segment(&mut self, class: &str, from: (f64, f64), to: (f64, f64), colour: &str) {
        let _ = write!(
            self.body,
            r#"<line class="{class}" x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="1.5"/>"#,
            self.px(from.0),
            self.py(from.1),
            self.px(to.0),
            self.py(to.1)
        );
    }

    fn coordinates(&self, points: &[(f64, f64)]) -> String {
        points.iter().map(|&(x, y)| format!("{:.1},{:.1}", self.px(x), self.py(y))).collect::<Vec<_>>().join(" ")
    }

    /// The finished `<svg>` element with `id`, described by `label` for screen readers.
    #[must_use]
    pub fn finish(self, id: &str, label: &str) -> String {
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" id="{id}" class="chart" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-label="{label}" font-family="sans-serif"><rect width="{w}" height="{h}" fill="white"/>{body}</svg>"#,
            w = self.width,
            h = self.height,
            label = escape(label),
            body = self.body
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_ticks_and_numbers() {
        assert_eq!(ticks(0.0, 1.0, 5), [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        assert_eq!(ticks(-3.0, 3.0, 4), [-2.0, 0.0, 2.0]);
        assert_eq!(ticks(1.0, 37.0, 6), [10.0, 20.0, 30.0]);
        assert_eq!(ticks(0.46, 0.58, 6), [0.46, 0.48, 0.5, 0.52, 0.54, 0.56, 0.58]);
        assert_eq!(ticks(2.0, 2.0, 5), [2.0]);
        assert_eq!(number(0.6000000000000001, 2), "0.6");
        assert_eq!(number(-0.0001, 2), "0");
        assert_eq!(number(25.0, 1), "25");
    }

    #[test]
    fn data_maps_onto_the_frame_and_text_is_escaped() {
        let plot = Plot::new(400.0, 200.0, (0.0, 10.0), (0.0, 1.0)).with_margins(50.0, 50.0, 20.0, 30.0);
        assert_eq!((plot.px(0.0), plot.px(10.0)), (50.0, 350.0));
        assert_eq!((plot.py(1.0), plot.py(0.0)), (20.0, 170.0));
        let mut plot = plot;
        plot.title("A <&> \"B\"");
        let svg = plot.finish("x", "chart");
        assert!(svg.contains("A &lt;&amp;&gt; &quot;B&quot;"), "{svg}");
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"x\""));
    }
}
