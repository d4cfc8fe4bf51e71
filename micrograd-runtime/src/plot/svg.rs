//! SVG as text: a few elements, a frame that maps data to pixels, and axes with round ticks.

use std::fmt::Write;
use std::ops::Range;

/// The fonts named for every text element; the viewer picks the first it has.
const FONT: &str = "DejaVu Sans, Helvetica, Arial, sans-serif";
/// Tick labels and legend text, in pixels at the picture's own size.
pub(crate) const SMALL: f64 = 15.0;
/// Axis names and panel titles.
pub(crate) const MEDIUM: f64 = 17.0;
const INK: &str = "#333333";

/// An SVG document being written.
pub(crate) struct Svg {
    text: String,
}

impl Svg {
    pub fn new(width: f64, height: f64) -> Svg {
        let mut text = String::new();
        let _ = writeln!(
            text,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="{FONT}">"#
        );
        let _ = writeln!(
            text,
            r#"<rect width="{width}" height="{height}" fill="white"/>"#
        );
        Svg { text }
    }

    /// Appends raw markup: one element per line keeps the file readable and diffable.
    pub fn raw(&mut self, line: impl AsRef<str>) {
        self.text.push_str(line.as_ref());
        self.text.push('\n');
    }

    /// Text at `(x, y)`; `anchor` is `start`, `middle` or `end`.
    pub fn text(&mut self, (x, y): (f64, f64), size: f64, anchor: &str, content: &str) {
        let content = escape(content);
        self.raw(format!(
            r#"<text x="{x:.1}" y="{y:.1}" font-size="{size}" text-anchor="{anchor}" fill="{INK}">{content}</text>"#
        ));
    }

    /// Text turned a quarter left around its anchor, for a vertical axis's name.
    pub fn vertical_text(&mut self, (x, y): (f64, f64), size: f64, content: &str) {
        let content = escape(content);
        self.raw(format!(
            r#"<text transform="translate({x:.1} {y:.1}) rotate(-90)" font-size="{size}" text-anchor="middle" fill="{INK}">{content}</text>"#
        ));
    }

    pub fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), stroke: &str, width: f64) {
        self.raw(format!(
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{stroke}" stroke-width="{width}"/>"#
        ));
    }

    /// A polyline through `points`, with round joins.
    pub fn polyline(&mut self, points: &[(f64, f64)], stroke: &str, width: f64) {
        let mut coordinates = String::new();
        for (x, y) in points {
            let _ = write!(coordinates, "{x:.1},{y:.1} ");
        }
        self.raw(format!(
            r#"<polyline points="{}" fill="none" stroke="{stroke}" stroke-width="{width}" stroke-linejoin="round" stroke-linecap="round"/>"#,
            coordinates.trim_end()
        ));
    }

    pub fn finish(mut self) -> String {
        self.text.push_str("</svg>\n");
        self.text
    }
}

/// XML's five special characters.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// A rectangle of the picture (`left`, `top`, `width`, `height` in pixels) showing the data
/// ranges `x` and `y`, up the page for increasing `y`.
#[derive(Clone, Debug)]
pub(crate) struct Frame {
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
    pub x: Range<f64>,
    pub y: Range<f64>,
}

impl Frame {
    pub fn px(&self, x: f64) -> f64 {
        self.left + (x - self.x.start) / (self.x.end - self.x.start) * self.width
    }

    pub fn py(&self, y: f64) -> f64 {
        self.top + self.height - (y - self.y.start) / (self.y.end - self.y.start) * self.height
    }

    pub fn right(&self) -> f64 {
        self.left + self.width
    }

    pub fn bottom(&self) -> f64 {
        self.top + self.height
    }

    /// The frame's outline.
    pub fn border(&self, svg: &mut Svg) {
        svg.raw(format!(
            r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="none" stroke="{INK}" stroke-width="1"/>"#,
            self.left, self.top, self.width, self.height
        ));
    }

    /// Ticks and labels along the bottom at the data values `ticks`, named by `label`.
    pub fn x_axis(&self, svg: &mut Svg, ticks: &[(f64, String)], name: &str) {
        let y = self.bottom();
        for (value, text) in ticks {
            let x = self.px(*value);
            svg.line((x, y), (x, y + 5.0), INK, 1.0);
            svg.text((x, y + 21.0), SMALL, "middle", text);
        }
        svg.text(
            ((self.left + self.right()) / 2.0, y + 44.0),
            MEDIUM,
            "middle",
            name,
        );
    }

    /// Ticks and labels along the left side, at heights given in the frame's `y` units.
    pub fn y_axis(&self, svg: &mut Svg, ticks: &[(f64, String)], name: &str, gap: f64) {
        for (value, text) in ticks {
            let y = self.py(*value);
            svg.line((self.left - 5.0, y), (self.left, y), INK, 1.0);
            svg.text((self.left - 9.0, y + 5.0), SMALL, "end", text);
        }
        let middle = (self.top + self.bottom()) / 2.0;
        svg.vertical_text((self.left - gap, middle), MEDIUM, name);
    }
}

/// Round values in `range`, about `count` of them: multiples of 1, 2 or 5 times a power of
/// ten, labelled with just the decimals the step needs.
pub(crate) fn ticks(range: &Range<f64>, count: usize) -> Vec<(f64, String)> {
    let span = range.end - range.start;
    if !(span > 0.0 && span.is_finite()) {
        return Vec::new();
    }
    let rough = span / count.max(1) as f64;
    let power = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&step| step >= rough)
        .unwrap_or(10.0 * power);
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    let first = (range.start / step).ceil() as i64;
    let last = (range.end / step).floor() as i64;
    (first..=last)
        .map(|k| {
            let value = k as f64 * step;
            (value, format!("{value:.decimals$}"))
        })
        .collect()
}

/// Ticks of a logarithmic axis over `range` (in natural-log units): 1, 2 and 5 times each power
/// of ten when few decades are shown, 1 and 3 when more are, powers of ten alone beyond.
pub(crate) fn log_ticks(range: &Range<f64>) -> Vec<(f64, String)> {
    let decades = (range.end - range.start) / std::f64::consts::LN_10;
    let multiples: &[f64] = match decades {
        d if d <= 1.5 => &[1.0, 2.0, 5.0],
        d if d <= 4.0 => &[1.0, 3.0],
        _ => &[1.0],
    };
    let lowest = (range.start / std::f64::consts::LN_10).floor() as i32;
    let highest = (range.end / std::f64::consts::LN_10).ceil() as i32;
    let mut ticks = Vec::new();
    for power in lowest..=highest {
        for m in multiples {
            // m / 10^-p rather than m * 10^p: the quotient of two exact numbers rounds once,
            // so 3 / 100 prints as 0.03.
            let value = if power < 0 {
                m / 10f64.powi(-power)
            } else {
                m * 10f64.powi(power)
            };
            if range.contains(&value.ln()) {
                ticks.push((value.ln(), format!("{value}")));
            }
        }
    }
    ticks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_inside() {
        let labels = |ticks: Vec<(f64, String)>| ticks.into_iter().map(|t| t.1).collect::<Vec<_>>();
        assert_eq!(
            labels(ticks(&(0.0..99.0), 5)),
            ["0", "20", "40", "60", "80"]
        );
        assert_eq!(
            labels(ticks(&(-1.37..2.41), 8)),
            ["-1.0", "-0.5", "0.0", "0.5", "1.0", "1.5", "2.0"]
        );
        assert!(ticks(&(1.0..1.0), 5).is_empty());
        let log = log_ticks(&(0.009f64.ln()..2.0f64.ln()));
        assert_eq!(labels(log), ["0.01", "0.03", "0.1", "0.3", "1"]);
    }

    #[test]
    fn text_is_escaped() {
        let mut svg = Svg::new(10.0, 10.0);
        svg.text((0.0, 0.0), SMALL, "start", "a < b & \"c\"");
        assert!(svg.finish().contains("a &lt; b &amp; &quot;c&quot;"));
    }
}
