//! The zero level of a function sampled on a grid, by marching squares, joined into polylines.

use std::collections::HashMap;

/// Samples of a function at the nodes of a regular grid: `values[j * columns + i]` at
/// `(x0 + i dx, y0 + j dy)`.
pub(crate) struct Samples {
    pub columns: usize,
    pub rows: usize,
    pub values: Vec<f64>,
}

impl Samples {
    fn at(&self, i: usize, j: usize) -> f64 {
        self.values[j * self.columns + i]
    }
}

/// A point in grid coordinates: `(i, j)` with fractions where the level crosses an edge.
pub(crate) type GridPoint = (f64, f64);

/// Where `f > 0` ends, as polylines in grid coordinates. A value of 0 or NaN counts as the
/// negative side, as in [`accuracy`](crate::data::accuracy).
pub(crate) fn zero_level(samples: &Samples) -> Vec<Vec<GridPoint>> {
    let mut segments = Vec::new();
    for j in 0..samples.rows.saturating_sub(1) {
        for i in 0..samples.columns.saturating_sub(1) {
            cell_segments(samples, i, j, &mut segments);
        }
    }
    chain(&segments)
        .into_iter()
        .map(|edges| edges.iter().map(|&edge| crossing(samples, edge)).collect())
        .collect()
}

/// An edge of the grid: the one from node `(i, j)` to its right (`vertical == false`) or to the
/// node above it. Neighbouring cells name their shared edge alike, which joins their segments.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Edge {
    i: usize,
    j: usize,
    vertical: bool,
}

/// Adds the cell's pieces of the level. Its corners in order a (i, j), b (i+1, j), c (i+1, j+1),
/// d (i, j+1); edge k joins corner k to corner k + 1. The level crosses the edges whose corners
/// lie on different sides: two edges make one segment; all four make a saddle, where the
/// corners on the other side than the cell's centre (the mean of the corners) are cut off, each
/// by a segment between the two edges that meet at it.
fn cell_segments(samples: &Samples, i: usize, j: usize, segments: &mut Vec<(Edge, Edge)>) {
    let corners = [(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)];
    let values = corners.map(|(ci, cj)| samples.at(ci, cj));
    let positive = values.map(|v| v > 0.0);
    let edges = [
        Edge {
            i,
            j,
            vertical: false,
        },
        Edge {
            i: i + 1,
            j,
            vertical: true,
        },
        Edge {
            i,
            j: j + 1,
            vertical: false,
        },
        Edge {
            i,
            j,
            vertical: true,
        },
    ];
    let crossed: Vec<Edge> = (0..4)
        .filter(|&k| positive[k] != positive[(k + 1) % 4])
        .map(|k| edges[k])
        .collect();
    match crossed[..] {
        [first, second] => segments.push((first, second)),
        [_, _, _, _] => {
            let centre = values.iter().sum::<f64>() / 4.0 > 0.0;
            for k in (0..4).filter(|&k| positive[k] != centre) {
                segments.push((edges[(k + 3) % 4], edges[k]));
            }
        }
        _ => {}
    }
}

/// Where the level crosses `edge`: linear interpolation between the edge's two nodes.
fn crossing(samples: &Samples, edge: Edge) -> GridPoint {
    let (i, j) = (edge.i, edge.j);
    let (a, b) = if edge.vertical {
        (samples.at(i, j), samples.at(i, j + 1))
    } else {
        (samples.at(i, j), samples.at(i + 1, j))
    };
    let t = a / (a - b);
    // NaN or a pair of zeros: the middle of the edge is as good as any point on it.
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.5
    };
    if edge.vertical {
        (i as f64, j as f64 + t)
    } else {
        (i as f64 + t, j as f64)
    }
}

/// Joins segments that share an edge into chains of edges: each edge ends at most two segments
/// (one per cell beside it), so the segments form paths and loops.
fn chain(segments: &[(Edge, Edge)]) -> Vec<Vec<Edge>> {
    let mut ends: HashMap<Edge, Vec<usize>> = HashMap::new();
    for (s, &(a, b)) in segments.iter().enumerate() {
        ends.entry(a).or_default().push(s);
        ends.entry(b).or_default().push(s);
    }
    let mut used = vec![false; segments.len()];
    let mut chains = Vec::new();
    // Open paths first, from an edge with one segment (on the border), then what is left: loops.
    let starts = segments
        .iter()
        .enumerate()
        .flat_map(|(s, &(a, b))| [(s, a), (s, b)]);
    let open = starts.clone().filter(|(_, e)| ends[e].len() == 1);
    for (s, start) in open.chain(starts) {
        if !used[s] {
            chains.push(walk(segments, &ends, &mut used, s, start));
        }
    }
    chains
}

fn walk(
    segments: &[(Edge, Edge)],
    ends: &HashMap<Edge, Vec<usize>>,
    used: &mut [bool],
    first: usize,
    start: Edge,
) -> Vec<Edge> {
    let mut path = vec![start];
    let (mut s, mut at) = (first, start);
    loop {
        used[s] = true;
        let (a, b) = segments[s];
        at = if a == at { b } else { a };
        path.push(at);
        match ends[&at].iter().find(|&&next| !used[next]) {
            Some(&next) => s = next,
            None => return path,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(columns: usize, rows: usize, f: impl Fn(f64, f64) -> f64) -> Samples {
        let values = (0..rows)
            .flat_map(|j| (0..columns).map(move |i| (i, j)))
            .map(|(i, j)| f(i as f64, j as f64))
            .collect();
        Samples {
            columns,
            rows,
            values,
        }
    }

    #[test]
    fn a_straight_level_is_one_exact_line() {
        // x = 2.5 crosses every row once.
        let lines = zero_level(&sample(6, 5, |x, _| x - 2.5));
        assert_eq!(lines.len(), 1);
        let line = &lines[0];
        assert_eq!(line.len(), 5);
        assert!(line.iter().all(|&(x, _)| x == 2.5));
        let mut ys: Vec<f64> = line.iter().map(|&(_, y)| y).collect();
        ys.sort_by(f64::total_cmp);
        assert_eq!(ys, [0.0, 1.0, 2.0, 3.0, 4.0]);
    }

    #[test]
    fn a_circle_is_one_closed_loop_on_the_circle() {
        let lines = zero_level(&sample(21, 21, |x, y| {
            36.0 - (x - 10.0).powi(2) - (y - 10.0).powi(2)
        }));
        assert_eq!(lines.len(), 1);
        let line = &lines[0];
        assert_eq!(line.first(), line.last(), "closed");
        for &(x, y) in line {
            let radius = (x - 10.0).hypot(y - 10.0);
            assert!((radius - 6.0).abs() < 0.1, "({x}, {y}) at radius {radius}");
        }
    }

    #[test]
    fn a_saddle_follows_its_centre() {
        // Positive at corners a and c: with the centre positive the segments cut off b and d,
        // with the centre negative they cut off a and c.
        for (offset, cut) in [
            (0.5, [(1.0, 0.0), (0.0, 1.0)]),
            (-0.5, [(0.0, 0.0), (1.0, 1.0)]),
        ] {
            let f = |x: f64, y: f64| if x == y { 1.0 + offset } else { -1.0 + offset };
            let lines = zero_level(&sample(2, 2, f));
            assert_eq!(lines.len(), 2);
            for corner in cut {
                let near = |line: &Vec<GridPoint>| {
                    line.iter()
                        .all(|&(x, y)| (x - corner.0).abs() + (y - corner.1).abs() <= 1.0)
                };
                assert!(lines.iter().any(near), "offset {offset}: {lines:?}");
            }
        }
        // All negative or NaN: nothing to draw.
        assert!(zero_level(&sample(3, 3, |_, _| f64::NAN)).is_empty());
    }
}
