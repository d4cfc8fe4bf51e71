//! A computation graph that can be differentiated and drawn, like micrograd's `draw_dot`.
//!
//! A [`Graph`] is a list of [`Node`]s, each created after its inputs and holding the local
//! partial derivative towards each of them. It is built by hand, by code that
//! `#[differentiable]` generates, or from a [`Value`] with [`Value::to_graph`].

use std::collections::HashMap;
use std::fmt::Write as _;

use layout::backends::svg::SVGWriter;
use layout::core::base::Orientation;
use layout::core::style::StyleAttr;
use layout::std_shapes::shapes::{Arrow, Element, RecordDef, ShapeKind};
use layout::topo::layout::VisualGraph;

use crate::Value;

/// A node of a [`Graph`]; only meaningful for the graph that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(usize);

impl NodeId {
    /// The position of the node in [`Graph::nodes`], which is its creation order.
    pub fn index(self) -> usize {
        self.0
    }
}

/// One scalar of a [`Graph`]: a named input, a constant, or the result of an operation.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    label: Option<String>,
    op: Option<String>,
    data: f64,
    grad: f64,
    inputs: Vec<(NodeId, f64)>,
}

impl Node {
    /// The source name (a variable, or a leaf's name), if any.
    pub fn label(&self) -> Option<&str> {
        self.label.as_deref()
    }

    /// The operation that made this node (`+`, `tanh`, ...), `None` for leaves and constants.
    pub fn op(&self) -> Option<&str> {
        self.op.as_deref()
    }

    /// The value of the node.
    pub fn data(&self) -> f64 {
        self.data
    }

    /// d(output)/d(node) after [`Graph::backward`]; 0 before.
    pub fn grad(&self) -> f64 {
        self.grad
    }

    /// Each input with the local partial derivative d(self)/d(input).
    pub fn inputs(&self) -> &[(NodeId, f64)] {
        &self.inputs
    }
}

/// A computation graph of scalars, in creation (hence topological) order.
///
/// micrograd's neuron `o = tanh(x1 w1 + x2 w2 + b)`, built by hand:
/// ```
/// use micrograd_runtime::Graph;
///
/// let mut g = Graph::new();
/// let (x1, w1) = (g.leaf("x1", 2.0), g.leaf("w1", -3.0));
/// let x1w1 = g.op("*", &[(x1, -3.0), (w1, 2.0)], -6.0);
/// let b = g.leaf("b", 6.8813735870195432);
/// let n = g.op("+", &[(x1w1, 1.0), (b, 1.0)], 0.8813735870195432);
/// let o = g.op("tanh", &[(n, 0.5)], 0.7071067811865476);
/// g.set_label(o, "o");
/// g.backward(o);
/// assert_eq!(g.node(w1).grad(), 1.0); // do/dw1 = 0.5 * x1
/// assert!(g.to_dot().starts_with("digraph {"));
/// assert!(g.to_svg().contains("data 0.7071"));
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Graph {
    nodes: Vec<Node>,
    output: Option<NodeId>,
}

impl Graph {
    /// An empty graph.
    pub fn new() -> Graph {
        Graph::default()
    }

    fn push(
        &mut self,
        label: Option<&str>,
        op: Option<&str>,
        data: f64,
        inputs: &[(NodeId, f64)],
    ) -> NodeId {
        let id = NodeId(self.nodes.len());
        // An input must already exist, which keeps creation order topological.
        for (input, _) in inputs {
            assert!(
                input.0 < id.0,
                "input {input:?} is not a node of this graph"
            );
        }
        let (label, op) = (label.map(str::to_owned), op.map(str::to_owned));
        self.nodes.push(Node {
            label,
            op,
            data,
            grad: 0.0,
            inputs: inputs.to_vec(),
        });
        id
    }

    /// A named input.
    ///
    /// ```
    /// let mut g = micrograd_runtime::Graph::new();
    /// let a = g.leaf("a", 2.0);
    /// assert_eq!(g.node(a).label(), Some("a"));
    /// ```
    pub fn leaf(&mut self, label: &str, data: f64) -> NodeId {
        self.push(Some(label), None, data, &[])
    }

    /// An unnamed literal.
    ///
    /// ```
    /// let mut g = micrograd_runtime::Graph::new();
    /// let two = g.constant(2.0);
    /// assert_eq!((g.node(two).label(), g.node(two).data()), (None, 2.0));
    /// ```
    pub fn constant(&mut self, data: f64) -> NodeId {
        self.push(None, None, data, &[])
    }

    /// The result `data` of operation `op`, with each input and the local partial
    /// d(result)/d(input).
    ///
    /// # Panics
    /// If an input is not a node of this graph.
    /// ```
    /// let mut g = micrograd_runtime::Graph::new();
    /// let (a, b) = (g.leaf("a", 2.0), g.leaf("b", -3.0));
    /// let e = g.op("*", &[(a, -3.0), (b, 2.0)], -6.0);
    /// assert_eq!(g.node(e).inputs(), &[(a, -3.0), (b, 2.0)]);
    /// ```
    pub fn op(&mut self, op: &str, inputs: &[(NodeId, f64)], data: f64) -> NodeId {
        self.push(None, Some(op), data, inputs)
    }

    /// Names a node after the source variable it was assigned to.
    ///
    /// # Panics
    /// If `id` is not a node of this graph.
    /// ```
    /// let mut g = micrograd_runtime::Graph::new();
    /// let one = g.constant(1.0);
    /// g.set_label(one, "x");
    /// assert_eq!(g.find("x").map(|n| n.data()), Some(1.0));
    /// ```
    pub fn set_label(&mut self, id: NodeId, label: &str) {
        self.nodes[id.0].label = Some(label.to_owned());
    }

    /// Sets every node's grad to d(output)/d(node), by one reverse sweep in creation order
    /// (no recursion). Grads of an earlier call are discarded, and nodes made after `output`
    /// get 0.
    ///
    /// # Panics
    /// If `output` is not a node of this graph.
    /// ```
    /// let mut g = micrograd_runtime::Graph::new();
    /// let a = g.leaf("a", 3.0);
    /// let y = g.op("+", &[(a, 1.0), (a, 1.0)], 6.0); // a + a
    /// g.backward(y);
    /// assert_eq!((g.node(a).grad(), g.output()), (2.0, Some(y)));
    /// ```
    pub fn backward(&mut self, output: NodeId) {
        for node in &mut self.nodes {
            node.grad = 0.0;
        }
        self.nodes[output.0].grad = 1.0;
        self.output = Some(output);
        for i in (0..=output.0).rev() {
            let grad = self.nodes[i].grad;
            for k in 0..self.nodes[i].inputs.len() {
                let (input, partial) = self.nodes[i].inputs[k];
                self.nodes[input.0].grad += partial * grad;
            }
        }
    }

    /// All nodes, inputs before the nodes made from them; `nodes()[id.index()]` is `node(id)`.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The node `id`.
    ///
    /// # Panics
    /// If `id` is not a node of this graph.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0]
    }

    /// The last node labelled `label`: the latest version of a shadowed variable.
    ///
    /// ```
    /// let mut g = micrograd_runtime::Graph::new();
    /// let x = g.leaf("x", 1.0);
    /// let x2 = g.op("*", &[(x, 2.0)], 2.0);
    /// g.set_label(x2, "x"); // let x = x * 2.0;
    /// assert_eq!(g.find("x").map(|n| n.data()), Some(2.0));
    /// assert!(g.find("y").is_none());
    /// ```
    pub fn find(&self, label: &str) -> Option<&Node> {
        self.nodes
            .iter()
            .rev()
            .find(|node| node.label() == Some(label))
    }

    /// The node that [`Graph::backward`] was last called on (for [`Value::to_graph`], the value).
    pub fn output(&self) -> Option<NodeId> {
        self.output
    }
}

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

impl Value {
    /// The graph of this value and all its ancestors, with their current data, grads and
    /// labels; its [`Graph::output`] is this value.
    ///
    /// ```
    /// use micrograd_runtime::Value;
    /// let a = Value::with_label(2.0, "a");
    /// let y = (&a * &a).tanh();
    /// y.backward();
    /// let g = y.to_graph();
    /// assert_eq!(g.nodes().len(), 3); // a, a * a, tanh
    /// assert_eq!(g.find("a").map(|n| n.grad()), Some(a.grad()));
    /// ```
    pub fn to_graph(&self) -> Graph {
        let mut graph = Graph::new();
        let mut ids = HashMap::new();
        for value in self.topological_order() {
            let inputs: Vec<(NodeId, f64)> = value
                .inputs()
                .iter()
                // Every input precedes its value in topological order, so it has an id.
                .filter_map(|(input, partial)| Some((*ids.get(&input.node_key())?, *partial)))
                .collect();
            let id = graph.push(
                value.label().as_deref(),
                value.op().as_deref(),
                value.data(),
                &inputs,
            );
            graph.nodes[id.0].grad = value.grad();
            ids.insert(value.node_key(), id);
        }
        graph.output = ids.get(&self.node_key()).copied();
        graph
    }
}
