//! Drawing a [`Graph`] as Graphviz DOT or SVG.

use std::fmt::Write as _;

use layout::backends::svg::SVGWriter;
use layout::core::base::Orientation;
use layout::core::style::StyleAttr;
use layout::std_shapes::shapes::{Arrow, Element, RecordDef, ShapeKind};
use layout::topo::layout::VisualGraph;

use super::{Graph, Node};

/// Drawing, in the style of micrograd's `draw_dot`: a record `{ label | data | grad }` per value,
/// and a small node per operation between the inputs and the result.
impl Graph {
    /// The graph in Graphviz DOT.
    ///
    /// ```
    /// let mut g = micrograd_runtime::Graph::new();
    /// let a = g.leaf("a", 2.0);
    /// let y = g.op("tanh", &[(a, 0.0707)], 0.9640);
    /// g.backward(y);
    /// let dot = g.to_dot();
    /// assert!(dot.contains(r#"n0 [shape=record, label="{ a | data 2.0000 | grad 0.0707 }"];"#));
    /// assert!(dot.contains(r#"n1_op [label="tanh"];"#));
    /// assert!(dot.contains("n1_op -> n1;") && dot.contains("n0 -> n1_op;"));
    /// ```
    pub fn to_dot(&self) -> String {
        let mut dot = String::from("digraph {\n  rankdir=LR;\n");
        for (i, node) in self.nodes.iter().enumerate() {
            let record = record_fields(node).join(" | ");
            // Writing to a String cannot fail.
            let _ = writeln!(dot, "  n{i} [shape=record, label=\"{{ {record} }}\"];");
            if let Some(op) = &node.op {
                let _ = writeln!(dot, "  n{i}_op [label=\"{}\"];", escape_quoted(op));
                let _ = writeln!(dot, "  n{i}_op -> n{i};");
                for (input, _) in &node.inputs {
                    let _ = writeln!(dot, "  n{} -> n{i}_op;", input.0);
                }
            }
        }
        dot.push_str("}\n");
        dot
    }

    /// The graph drawn as an SVG document, laid out in Rust (no Graphviz needed).
    ///
    /// ```
    /// let mut g = micrograd_runtime::Graph::new();
    /// let a = g.leaf("a", 2.0);
    /// let y = g.op("exp", &[(a, 7.3891)], 7.3891);
    /// g.backward(y);
    /// let svg = g.to_svg();
    /// assert!(svg.contains("<svg") && svg.contains("data 7.3891") && svg.contains("grad 1.0000"));
    /// ```
    pub fn to_svg(&self) -> String {
        let mut svg = SVGWriter::new();
        if self.nodes.is_empty() {
            // The layout engine expects at least one node.
            return String::from(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"></svg>"#,
            );
        }
        let mut picture = VisualGraph::new(Orientation::LeftToRight);
        let mut handles = Vec::with_capacity(self.nodes.len());
        for node in &self.nodes {
            let fields = record_fields_plain(node)
                .iter()
                .map(|f| RecordDef::new_text(f))
                .collect();
            // A record nested once is laid across the row, as `{ .. }` is in DOT.
            let value = picture.add_node(element(ShapeKind::Record(RecordDef::Array(vec![
                RecordDef::Array(fields),
            ]))));
            if let Some(op) = &node.op {
                let op_node = picture.add_node(element(ShapeKind::new_circle(op)));
                picture.add_edge(Arrow::simple(""), op_node, value);
                for (input, _) in &node.inputs {
                    picture.add_edge(Arrow::simple(""), handles[input.0], op_node);
                }
            }
            handles.push(value);
        }
        picture.do_it(false, false, false, &mut svg);
        svg.finalize()
    }
}

fn element(shape: ShapeKind) -> Element {
    let orientation = Orientation::LeftToRight.flip();
    let size = layout::std_shapes::render::get_shape_size(orientation, &shape, 14, false);
    Element::create(shape, StyleAttr::simple(), orientation, size)
}

/// The record fields of a node as plain text: optional label, data, grad.
fn record_fields_plain(node: &Node) -> Vec<String> {
    let numbers = [
        format!("data {:.4}", node.data),
        format!("grad {:.4}", node.grad),
    ];
    node.label.iter().cloned().chain(numbers).collect()
}

/// The record fields escaped for a DOT record label inside a quoted string.
fn record_fields(node: &Node) -> Vec<String> {
    record_fields_plain(node)
        .iter()
        .map(|field| escape_record(field))
        .collect()
}

/// Escapes the characters that delimit fields and ports in a record label, and those of a DOT
/// quoted string.
fn escape_record(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '{' | '}' | '|' | '<' | '>' | '"' | '\\' => {
                escaped.push('\\');
                escaped.push(c);
            }
            '\n' => escaped.push_str("\\n"),
            _ => escaped.push(c),
        }
    }
    escaped
}

/// Escapes text for a DOT double-quoted string; a newline becomes DOT's centred line break.
fn escape_quoted(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}
