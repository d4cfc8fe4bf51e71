//! micrograd's engine: a scalar [`Value`] that records the graph of operations producing it, so
//! that [`Value::backward`] can fill in every ancestor's gradient.
//!
//! This is the run-time counterpart of `#[differentiable]`: slower (one heap node per operation),
//! but it works on any expression built at run time and can be drawn with [`Value::to_graph`].
//!
//! ```
//! use micrograd_runtime::Value;
//!
//! // micrograd's README: the derivative of a * b + b³ at a = 2, b = -3.
//! let a = Value::new(2.0);
//! let b = Value::new(-3.0);
//! let f = &a * &b + b.powi(3);
//! f.backward();
//! assert_eq!((f.data(), a.grad(), b.grad()), (-33.0, -3.0, 2.0 + 27.0));
//! ```

use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;
use std::rc::Rc;

use crate::ops::Nonlinear;

mod operators;

/// A scalar in a graph of operations, with the gradient that [`Value::backward`] gives it.
///
/// A `Value` is a shared handle: cloning it is cheap and the clone is the same node, as two
/// Python names for one micrograd `Value` are. Each node owns its inputs through reference
/// counting (not an arena) so that a training loop can build a fresh graph per step and have the
/// old one freed as soon as the last handle goes, with no arena to reset. `Value` is therefore
/// neither `Send` nor `Sync`.
///
/// micrograd's README example:
/// ```
/// use micrograd_runtime::Value;
///
/// let a = Value::new(-4.0);
/// let b = Value::new(2.0);
/// let mut c = &a + &b;
/// let mut d = &a * &b + b.powi(3);
/// c += &c + 1.0;
/// c += 1.0 + &c + (-&a);
/// d += &d * 2.0 + (&b + &a).relu();
/// d += 3.0 * &d + (&b - &a).relu();
/// let e = &c - &d;
/// let f = e.powi(2);
/// let mut g = &f / 2.0;
/// g += 10.0 / &f;
/// assert_eq!(format!("{:.4}", g.data()), "24.7041");
/// g.backward();
/// assert_eq!(format!("{:.4}", a.grad()), "138.8338"); // dg/da
/// assert_eq!(format!("{:.4}", b.grad()), "645.5773"); // dg/db
/// ```
#[derive(Clone)]
pub struct Value(Rc<RefCell<Node>>);

struct Node {
    data: f64,
    grad: f64,
    op: Option<Op>,
    /// Each input with the local partial d(self)/d(input), taken when the node was made.
    inputs: Vec<(Value, f64)>,
    label: Option<String>,
}

/// The operations a [`Value`] records. Sub and div are kept as primitives (micrograd derives
/// them) so that a drawn graph shows the expression as written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Neg,
    Powi(i32),
    Relu,
    Tanh,
    Exp,
    Ln,
    Sigmoid,
}

impl Op {
    /// The result of `x op y` (unary ops ignore `y`) and its partials `[d/dx, d/dy]`.
    fn apply(self, x: f64, y: f64) -> (f64, [f64; 2]) {
        match self {
            Op::Add => (x + y, [1.0, 1.0]),              // d(x + y) = dx + dy
            Op::Sub => (x - y, [1.0, -1.0]),             // d(x - y) = dx - dy
            Op::Mul => (x * y, [y, x]),                  // d(xy) = y dx + x dy
            Op::Div => (x / y, [1.0 / y, -x / (y * y)]), // d(x/y) = dx/y - x dy/y^2
            Op::Neg => (-x, [-1.0, 0.0]),                // d(-x) = -dx
            Op::Powi(n) => (x.powi(n), [power_rule(x, n), 0.0]), // d(x^n) = n x^(n-1) dx
            Op::Relu => {
                let r = x.relu(); // d relu = dx where relu(x) > 0, else 0 (PyTorch)
                (r, [if r <= 0.0 { 0.0 } else { 1.0 }, 0.0])
            }
            Op::Tanh => {
                let t = x.tanh(); // d tanh x = (1 - tanh^2 x) dx
                (t, [1.0 - t * t, 0.0])
            }
            Op::Exp => {
                let e = x.exp(); // d e^x = e^x dx
                (e, [e, 0.0])
            }
            Op::Ln => (x.ln(), [1.0 / x, 0.0]), // d ln x = dx / x
            Op::Sigmoid => {
                let s = x.sigmoid(); // d s(x) = s(x) (1 - s(x)) dx
                (s, [s * (1.0 - s), 0.0])
            }
        }
    }
}

/// n x^(n-1); 0 for n = 0 even at x = 0, as PyTorch, where 0 * 0^-1 would be NaN.
fn power_rule(x: f64, n: i32) -> f64 {
    match n.checked_sub(1) {
        _ if n == 0 => 0.0,
        Some(m) => f64::from(n) * x.powi(m),
        None => f64::from(n) * x.powf(f64::from(n) - 1.0),
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Op::Add => f.write_str("+"),
            Op::Sub => f.write_str("-"),
            Op::Mul => f.write_str("*"),
            Op::Div => f.write_str("/"),
            Op::Neg => f.write_str("neg"),
            Op::Powi(n) => write!(f, "^{n}"),
            Op::Relu => f.write_str("relu"),
            Op::Tanh => f.write_str("tanh"),
            Op::Exp => f.write_str("exp"),
            Op::Ln => f.write_str("ln"),
            Op::Sigmoid => f.write_str("sigmoid"),
        }
    }
}

/// Frees a chain of nodes with a loop: the derived drop would recurse once per ancestor and
/// overflow the stack on a graph a million operations deep.
impl Drop for Node {
    fn drop(&mut self) {
        let mut orphans: Vec<Value> = self.inputs.drain(..).map(|(input, _)| input).collect();
        while let Some(Value(rc)) = orphans.pop() {
            // Only the last handle frees a node; its inputs then become orphans in turn.
            if let Ok(cell) = Rc::try_unwrap(rc) {
                let mut node = cell.into_inner();
                orphans.extend(node.inputs.drain(..).map(|(input, _)| input));
            }
        }
    }
}

impl Value {
    /// A leaf holding `data`, with gradient 0.
    ///
    /// ```
    /// let x = micrograd_runtime::Value::new(3.0);
    /// assert_eq!((x.data(), x.grad()), (3.0, 0.0));
    /// ```
    pub fn new(data: f64) -> Value {
        Value::from_node(data, None, Vec::new(), None)
    }

    /// A leaf with a name, shown when the graph is drawn ([`Value::to_graph`]).
    ///
    /// ```
    /// let a = micrograd_runtime::Value::with_label(2.0, "a");
    /// assert_eq!(a.label().as_deref(), Some("a"));
    /// ```
    pub fn with_label(data: f64, label: &str) -> Value {
        Value::from_node(data, None, Vec::new(), Some(label.to_owned()))
    }

    fn from_node(
        data: f64,
        op: Option<Op>,
        inputs: Vec<(Value, f64)>,
        label: Option<String>,
    ) -> Value {
        Value(Rc::new(RefCell::new(Node {
            data,
            grad: 0.0,
            op,
            inputs,
            label,
        })))
    }

    fn unary(&self, op: Op) -> Value {
        let (data, [dx, _]) = op.apply(self.data(), 0.0);
        Value::from_node(data, Some(op), vec![(self.clone(), dx)], None)
    }

    fn binary(&self, op: Op, rhs: &Value) -> Value {
        let (data, [dx, dy]) = op.apply(self.data(), rhs.data());
        let inputs = vec![(self.clone(), dx), (rhs.clone(), dy)];
        Value::from_node(data, Some(op), inputs, None)
    }

    /// The value computed in the forward pass.
    ///
    /// ```
    /// let x = micrograd_runtime::Value::new(2.0);
    /// assert_eq!((&x * 3.0).data(), 6.0);
    /// ```
    pub fn data(&self) -> f64 {
        self.0.borrow().data
    }

    /// d(output)/d(self), accumulated by every [`Value::backward`] since the last zeroing.
    ///
    /// ```
    /// let x = micrograd_runtime::Value::new(2.0);
    /// (&x * 3.0).backward();
    /// assert_eq!(x.grad(), 3.0);
    /// ```
    pub fn grad(&self) -> f64 {
        self.0.borrow().grad
    }

    /// Overwrites the data, as micrograd's `p.data += -lr * p.grad` does in a training loop.
    ///
    /// Values already computed from `self` keep their old data: build the expression again.
    /// ```
    /// let w = micrograd_runtime::Value::new(1.0);
    /// w.set_data(w.data() - 0.1 * 2.0);
    /// assert_eq!(w.data(), 0.8);
    /// ```
    pub fn set_data(&self, data: f64) {
        self.0.borrow_mut().data = data;
    }

    /// The name given by [`Value::with_label`] or [`Value::set_label`], if any.
    ///
    /// ```
    /// assert_eq!(micrograd_runtime::Value::new(1.0).label(), None);
    /// ```
    pub fn label(&self) -> Option<String> {
        self.0.borrow().label.clone()
    }

    /// Names this value for drawing, like micrograd's `e.label = 'e'`.
    ///
    /// ```
    /// use micrograd_runtime::Value;
    /// let e = Value::new(2.0) * Value::new(-3.0);
    /// e.set_label("e");
    /// assert_eq!(e.label().as_deref(), Some("e"));
    /// ```
    pub fn set_label(&self, label: &str) {
        self.0.borrow_mut().label = Some(label.to_owned());
    }

    /// The name of the operation that made this value (`+`, `tanh`, `^3`...), `None` for a leaf.
    ///
    /// ```
    /// let x = micrograd_runtime::Value::new(1.0);
    /// assert_eq!((x.op(), x.powi(3).op().as_deref()), (None, Some("^3")));
    /// ```
    pub fn op(&self) -> Option<String> {
        self.0.borrow().op.map(|op| op.to_string())
    }

    /// Sets the gradient of each given value to 0, like micrograd's `p.grad = 0` over
    /// `parameters()`. Only these nodes are zeroed, not their ancestors: intermediate nodes are
    /// normally rebuilt each step and start at 0.
    ///
    /// ```
    /// use micrograd_runtime::Value;
    /// let w = Value::new(3.0);
    /// (&w * &w).backward();
    /// assert_eq!(w.grad(), 6.0);
    /// Value::zero_grad(&[w.clone()]);
    /// assert_eq!(w.grad(), 0.0);
    /// ```
    pub fn zero_grad(values: &[Value]) {
        for value in values {
            value.0.borrow_mut().grad = 0.0;
        }
    }
}

/// The activations and powers of micrograd, each recording its local derivative.
impl Value {
    /// `max(self, 0)`. Its derivative is 0 wherever the output is 0 (so relu'(0) = 0, as PyTorch).
    ///
    /// ```
    /// let x = micrograd_runtime::Value::new(-1.5);
    /// let y = x.relu();
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (0.0, 0.0));
    /// ```
    pub fn relu(&self) -> Value {
        self.unary(Op::Relu)
    }

    /// The hyperbolic tangent; derivative `1 - tanh^2`.
    ///
    /// ```
    /// let n = micrograd_runtime::Value::new(0.881373587019543);
    /// let o = n.tanh();
    /// o.backward();
    /// assert!((o.data() - 0.7071).abs() < 1e-4 && (n.grad() - 0.5).abs() < 1e-12);
    /// ```
    pub fn tanh(&self) -> Value {
        self.unary(Op::Tanh)
    }

    /// `e^self`; its own derivative.
    ///
    /// ```
    /// let x = micrograd_runtime::Value::new(0.0);
    /// let y = x.exp();
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (1.0, 1.0));
    /// ```
    pub fn exp(&self) -> Value {
        self.unary(Op::Exp)
    }

    /// The natural logarithm; derivative `1 / self`.
    ///
    /// ```
    /// let x = micrograd_runtime::Value::new(2.0);
    /// x.ln().backward();
    /// assert_eq!(x.grad(), 0.5);
    /// ```
    pub fn ln(&self) -> Value {
        self.unary(Op::Ln)
    }

    /// `self^n` (micrograd's `x**n`); derivative `n self^(n-1)`.
    ///
    /// ```
    /// let x = micrograd_runtime::Value::new(2.0);
    /// let y = x.powi(3);
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (8.0, 12.0));
    /// ```
    pub fn powi(&self, n: i32) -> Value {
        self.unary(Op::Powi(n))
    }

    /// The logistic function `1 / (1 + e^-self)`; derivative `s (1 - s)`.
    ///
    /// ```
    /// let x = micrograd_runtime::Value::new(0.0);
    /// let s = x.sigmoid();
    /// s.backward();
    /// assert_eq!((s.data(), x.grad()), (0.5, 0.25));
    /// ```
    pub fn sigmoid(&self) -> Value {
        self.unary(Op::Sigmoid)
    }
}

impl Value {
    /// Sets this value's gradient to 1 and adds d(self)/d(node) into the gradient of every
    /// ancestor, visiting nodes in reverse topological order.
    ///
    /// Gradients accumulate across calls, as in micrograd: zero the parameters between steps
    /// with [`Value::zero_grad`]. No recursion: graphs millions of operations deep are fine.
    /// ```
    /// use micrograd_runtime::Value;
    /// let a = Value::new(3.0);
    /// let y = &a + &a; // a is used twice: both uses add up
    /// y.backward();
    /// assert_eq!(a.grad(), 2.0);
    /// ```
    pub fn backward(&self) {
        let order = self.topological_order();
        self.0.borrow_mut().grad = 1.0;
        for value in order.iter().rev() {
            let node = value.0.borrow();
            for (input, partial) in &node.inputs {
                input.0.borrow_mut().grad += partial * node.grad;
            }
        }
    }

    /// Every ancestor of `self` (and `self`, last), each after all of its inputs.
    ///
    /// An explicit stack replaces micrograd's recursive `build_topo`; a node is emitted when its
    /// marker is popped the second time, after everything pushed above it (its ancestors).
    pub(crate) fn topological_order(&self) -> Vec<Value> {
        let mut order = Vec::new();
        let mut seen = HashSet::new();
        let mut stack = vec![(self.clone(), false)];
        while let Some((value, inputs_done)) = stack.pop() {
            if inputs_done {
                order.push(value);
                continue;
            }
            if !seen.insert(Rc::as_ptr(&value.0)) {
                continue;
            }
            let inputs: Vec<Value> = value
                .0
                .borrow()
                .inputs
                .iter()
                .map(|(v, _)| v.clone())
                .collect();
            stack.push((value, true));
            // Reversed, so that the first input is visited (and drawn) first.
            stack.extend(inputs.into_iter().rev().map(|input| (input, false)));
        }
        order
    }

    /// The identity of the node, shared by all clones of this value.
    pub(crate) fn node_key(&self) -> *const () {
        Rc::as_ptr(&self.0).cast()
    }

    /// The inputs with their local partials.
    pub(crate) fn inputs(&self) -> Vec<(Value, f64)> {
        self.0.borrow().inputs.clone()
    }
}
