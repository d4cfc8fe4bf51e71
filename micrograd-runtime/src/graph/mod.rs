//! A computation graph that can be differentiated and drawn, like micrograd's `draw_dot`.
//!
//! A [`Graph`] is a list of [`Node`]s, each created after its inputs and holding the local
//! partial derivative towards each of them. It is built by hand, by code that
//! `#[differentiable]` generates, or from a [`Value`] with [`Value::to_graph`].
//!
//! ```
//! use micrograd_runtime::Value;
//!
//! let a = Value::new(2.0);
//! let b = Value::new(-3.0);
//! let c = &a * &b + 10.0;
//! c.backward();
//! let graph = c.to_graph();
//! assert!(graph.to_dot().starts_with("digraph"));
//! ```

mod draw;

use std::collections::HashMap;

use crate::Value;

/// A node of a [`Graph`]; only meaningful for the graph that made it.
///
/// ```
/// let mut g = micrograd_runtime::Graph::new();
/// let (a, b) = (g.leaf("a", 1.0), g.leaf("b", 2.0));
/// assert!(a < b); // ids follow creation order
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(usize);

impl NodeId {
    /// The position of the node in [`Graph::nodes`], which is its creation order.
    ///
    /// ```
    /// let mut g = micrograd_runtime::Graph::new();
    /// let (a, b) = (g.leaf("a", 1.0), g.leaf("b", 2.0));
    /// assert_eq!((a.index(), b.index()), (0, 1));
    /// assert_eq!(g.nodes()[b.index()].data(), 2.0);
    /// ```
    pub fn index(self) -> usize {
        self.0
    }
}

/// One scalar of a [`Graph`]: a named input, a constant, or the result of an operation.
///
/// ```
/// let mut g = micrograd_runtime::Graph::new();
/// let a = g.leaf("a", 3.0);
/// let y = g.op("*", &[(a, 3.0), (a, 3.0)], 9.0); // a * a
/// g.backward(y);
/// let node = g.node(y);
/// assert_eq!((node.label(), node.op(), node.data(), node.grad()), (None, Some("*"), 9.0, 1.0));
/// ```
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
    ///
    /// ```
    /// let mut g = micrograd_runtime::Graph::new();
    /// let (a, one) = (g.leaf("a", 2.0), g.constant(1.0));
    /// assert_eq!((g.node(a).label(), g.node(one).label()), (Some("a"), None));
    /// ```
    pub fn label(&self) -> Option<&str> {
        self.label.as_deref()
    }

    /// The operation that made this node (`+`, `tanh`, ...), `None` for leaves and constants.
    ///
    /// ```
    /// let mut g = micrograd_runtime::Graph::new();
    /// let a = g.leaf("a", 0.0);
    /// let y = g.op("tanh", &[(a, 1.0)], 0.0);
    /// assert_eq!((g.node(a).op(), g.node(y).op()), (None, Some("tanh")));
    /// ```
    pub fn op(&self) -> Option<&str> {
        self.op.as_deref()
    }

    /// The value of the node.
    ///
    /// ```
    /// let mut g = micrograd_runtime::Graph::new();
    /// let a = g.leaf("a", -1.5);
    /// assert_eq!(g.node(a).data(), -1.5);
    /// ```
    pub fn data(&self) -> f64 {
        self.data
    }

    /// d(output)/d(node) after [`Graph::backward`]; 0 before.
    ///
    /// ```
    /// let mut g = micrograd_runtime::Graph::new();
    /// let a = g.leaf("a", 2.0);
    /// let y = g.op("*", &[(a, 5.0)], 10.0); // 5a
    /// assert_eq!(g.node(a).grad(), 0.0);
    /// g.backward(y);
    /// assert_eq!(g.node(a).grad(), 5.0);
    /// ```
    pub fn grad(&self) -> f64 {
        self.grad
    }

    /// Each input with the local partial derivative d(self)/d(input).
    ///
    /// ```
    /// let mut g = micrograd_runtime::Graph::new();
    /// let (a, b) = (g.leaf("a", 2.0), g.leaf("b", 3.0));
    /// let y = g.op("+", &[(a, 1.0), (b, 1.0)], 5.0);
    /// assert_eq!(g.node(y).inputs(), &[(a, 1.0), (b, 1.0)]);
    /// assert!(g.node(a).inputs().is_empty());
    /// ```
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
    ///
    /// ```
    /// let g = micrograd_runtime::Graph::new();
    /// assert!(g.nodes().is_empty() && g.output().is_none());
    /// ```
    pub fn new() -> Graph {
        Graph::default()
    }

    fn push(
        &mut self,
        label: Option<&str>,
        op: Option<&str>,
        data: f64,
        inputs: Vec<(NodeId, f64)>,
    ) -> NodeId {
        let id = NodeId(self.nodes.len());
        // An input must already exist, which keeps creation order topological.
        for (input, _) in &inputs {
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
            inputs,
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
    pub fn leaf(&mut self, label: &str, data: impl Into<f64>) -> NodeId {
        self.push(Some(label), None, data.into(), Vec::new())
    }

    /// An unnamed literal.
    ///
    /// ```
    /// let mut g = micrograd_runtime::Graph::new();
    /// let two = g.constant(2.0);
    /// assert_eq!((g.node(two).label(), g.node(two).data()), (None, 2.0));
    /// ```
    pub fn constant(&mut self, data: impl Into<f64>) -> NodeId {
        self.push(None, None, data.into(), Vec::new())
    }

    /// The result `data` of operation `op`, with each input and the local partial
    /// d(result)/d(input). The values of an `f32` computation are recorded widened to `f64`.
    ///
    /// # Panics
    /// If an input is not a node of this graph.
    /// ```
    /// let mut g = micrograd_runtime::Graph::new();
    /// let (a, b) = (g.leaf("a", 2.0), g.leaf("b", -3.0));
    /// let e = g.op("*", &[(a, -3.0), (b, 2.0)], -6.0);
    /// assert_eq!(g.node(e).inputs(), &[(a, -3.0), (b, 2.0)]);
    /// ```
    pub fn op<T: Copy + Into<f64>>(&mut self, op: &str, inputs: &[(NodeId, T)], data: T) -> NodeId {
        let inputs = inputs.iter().map(|&(id, d)| (id, d.into())).collect();
        self.push(None, Some(op), data.into(), inputs)
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
    ///
    /// ```
    /// let mut g = micrograd_runtime::Graph::new();
    /// let a = g.leaf("a", 1.0);
    /// g.op("exp", &[(a, 1.0_f64.exp())], 1.0_f64.exp());
    /// let ops: Vec<_> = g.nodes().iter().map(|n| n.op()).collect();
    /// assert_eq!(ops, [None, Some("exp")]);
    /// ```
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The node `id`.
    ///
    /// ```
    /// let mut g = micrograd_runtime::Graph::new();
    /// let a = g.leaf("a", 4.0);
    /// assert_eq!(g.node(a).data(), 4.0);
    /// ```
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
    ///
    /// ```
    /// let mut g = micrograd_runtime::Graph::new();
    /// let a = g.leaf("a", 1.0);
    /// assert_eq!(g.output(), None);
    /// g.backward(a);
    /// assert_eq!(g.output(), Some(a));
    /// ```
    pub fn output(&self) -> Option<NodeId> {
        self.output
    }
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
                inputs,
            );
            graph.nodes[id.0].grad = value.grad();
            ids.insert(value.node_key(), id);
        }
        graph.output = ids.get(&self.node_key()).copied();
        graph
    }
}
