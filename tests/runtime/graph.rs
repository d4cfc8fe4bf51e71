//! The drawable `Graph`: its builder and reverse sweep, `Value::to_graph`, DOT and SVG output.

use layout::gv::DotParser;
use layout::gv::parser::ast::Stmt;
use micrograd_runtime::graph::NodeId;
use micrograd_runtime::{Graph, Value};

/// Records `op` on `x` and `y` with the partials micrograd's `_backward` closures use, as the
/// code that `#[differentiable]` generates will.
fn binary(g: &mut Graph, op: &str, x: NodeId, y: NodeId) -> NodeId {
    let (a, b) = (g.node(x).data(), g.node(y).data());
    let (data, da, db) = match op {
        "+" => (a + b, 1.0, 1.0),
        "-" => (a - b, 1.0, -1.0),
        "*" => (a * b, b, a),
        "/" => (a / b, 1.0 / b, -a / (b * b)),
        _ => unreachable!("no {op} in these tests"),
    };
    g.op(op, &[(x, da), (y, db)], data)
}

fn relu(g: &mut Graph, x: NodeId) -> NodeId {
    let a = g.node(x).data();
    let (data, slope) = if a > 0.0 { (a, 1.0) } else { (0.0, 0.0) };
    g.op("relu", &[(x, slope)], data)
}

fn powi(g: &mut Graph, x: NodeId, n: i32) -> NodeId {
    let a = g.node(x).data();
    g.op(
        &format!("^{n}"),
        &[(x, f64::from(n) * a.powi(n - 1))],
        a.powi(n),
    )
}

/// micrograd's README expression, one builder call per operation.
fn readme_expression(g: &mut Graph) -> (NodeId, NodeId, NodeId) {
    let (a, b) = (g.leaf("a", -4.0), g.leaf("b", 2.0));
    let one = g.constant(1.0);
    let (two, three) = (g.constant(2.0), g.constant(3.0));
    let c = binary(g, "+", a, b);
    let (ab, b3) = (binary(g, "*", a, b), powi(g, b, 3));
    let d = binary(g, "+", ab, b3);
    let t = binary(g, "+", c, one); // c += c + 1
    let c = binary(g, "+", c, t);
    let t = binary(g, "+", one, c); // c += 1 + c + (-a)
    let minus_a = g.op("neg", &[(a, -1.0)], 4.0);
    let t = binary(g, "+", t, minus_a);
    let c = binary(g, "+", c, t);
    let (t, s) = (binary(g, "*", d, two), binary(g, "+", b, a)); // d += d * 2 + (b + a).relu()
    let s = relu(g, s);
    let t = binary(g, "+", t, s);
    let d = binary(g, "+", d, t);
    let (t, s) = (binary(g, "*", three, d), binary(g, "-", b, a)); // d += 3 * d + (b - a).relu()
    let s = relu(g, s);
    let t = binary(g, "+", t, s);
    let d = binary(g, "+", d, t);
    let e = binary(g, "-", c, d);
    let f = powi(g, e, 2);
    let (ten, two) = (g.constant(10.0), g.constant(2.0));
    let (half_f, ten_over_f) = (binary(g, "/", f, two), binary(g, "/", ten, f));
    let out = binary(g, "+", half_f, ten_over_f);
    g.set_label(out, "g");
    (a, b, out)
}

#[test]
fn builder_reproduces_micrograds_readme_gradients() {
    let mut g = Graph::new();
    let (a, b, out) = readme_expression(&mut g);
    g.backward(out);
    assert_eq!(g.output(), Some(out));
    assert!((g.node(out).data() - 24.7041).abs() < 1e-4);
    assert_eq!(g.node(out).grad(), 1.0);
    assert!(
        (g.node(a).grad() - 138.8338).abs() < 1e-4,
        "{}",
        g.node(a).grad()
    );
    assert!(
        (g.node(b).grad() - 645.5773).abs() < 1e-4,
        "{}",
        g.node(b).grad()
    );
    assert_eq!(g.find("g").map(|n| n.data()), Some(g.node(out).data()));

    // A second sweep from another node forgets the first, and leaves later nodes at 0.
    let c = NodeId::clone(&g.node(out).inputs()[0].0);
    g.backward(c);
    assert_eq!(g.node(out).grad(), 0.0);
    assert_eq!(g.node(c).grad(), 1.0);
}

/// The neuron of micrograd's lecture: o = tanh(x1 w1 + x2 w2 + b).
fn neuron() -> Value {
    let (x1, x2) = (Value::with_label(2.0, "x1"), Value::with_label(0.0, "x2"));
    let (w1, w2) = (Value::with_label(-3.0, "w1"), Value::with_label(1.0, "w2"));
    let b = Value::with_label(6.881_373_587_019_543, "b");
    let x1w1 = &x1 * &w1;
    x1w1.set_label("x1*w1");
    let x2w2 = &x2 * &w2;
    x2w2.set_label("x2*w2");
    let sum = &x1w1 + &x2w2;
    sum.set_label("x1*w1 + x2*w2");
    let n = &sum + &b;
    n.set_label("n");
    let o = n.tanh();
    o.set_label("o");
    o.backward();
    o
}

#[test]
fn value_to_graph_keeps_data_grads_and_labels() {
    let graph = neuron().to_graph();
    let at = |label: &str| {
        graph
            .find(label)
            .unwrap_or_else(|| panic!("no node {label}"))
    };
    // b makes n = x1 w1 + b = asinh(1), so o = tanh(asinh 1) = 1/sqrt 2.
    assert!((at("o").data() - std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-12);
    assert_eq!(at("o").grad(), 1.0);
    assert!((at("n").grad() - 0.5).abs() < 1e-12);
    for (label, grad) in [("x1", -1.5), ("w1", 1.0), ("x2", 0.5), ("w2", 0.0)] {
        assert!(
            (at(label).grad() - grad).abs() < 1e-12,
            "d o/d {label} = {}",
            at(label).grad()
        );
    }
    assert_eq!(graph.nodes().len(), 10);
    assert_eq!(
        graph.output().map(|id| graph.node(id).label()),
        Some(Some("o"))
    );
    assert_eq!(at("o").op(), Some("tanh"));
    // Creation order is topological, so the graph's own sweep gives the same grads.
    let mut swept = graph.clone();
    swept.backward(
        graph
            .output()
            .unwrap_or_else(|| panic!("to_graph sets the output")),
    );
    assert_eq!(swept, graph);
}

/// The statements of `dot`, read by layout-rs's DOT parser: a reader of the format written
/// apart from the runtime's writer (which prints DOT by hand and draws with layout-rs's layout
/// engine, never its parser). It takes `graph` and `digraph` alike, so the kind is checked here.
fn parse_dot(dot: &str) -> Vec<Stmt> {
    assert!(dot.starts_with("digraph "), "not a digraph: {dot}");
    match DotParser::new(dot).process() {
        Ok(graph) => graph.list.list,
        Err(error) => panic!("{error}\n{dot}"),
    }
}

#[test]
fn dot_parses_with_one_node_per_value_and_per_op() {
    let graph = neuron().to_graph();
    let stmts = parse_dot(&graph.to_dot());
    let nodes = stmts.iter().filter(|s| matches!(s, Stmt::Node(_))).count();
    let edges = stmts.iter().filter(|s| matches!(s, Stmt::Edge(_))).count();
    assert_eq!(
        nodes,
        10 + 5,
        "10 values, 5 of them made by *, *, +, +, tanh"
    );
    assert_eq!(edges, 5 + 9, "op -> value, and each of 9 inputs -> op");
    assert!(graph.to_dot().contains("{ o | data 0.7071 | grad 1.0000 }"));
}

#[test]
fn dot_escapes_record_specials_in_labels() {
    let mut g = Graph::new();
    let x = g.leaf(r#"{a|b} <"q"> \ "#, 1.0);
    let y = g.op("\"op\"", &[(x, 2.0)], 2.0);
    g.backward(y);
    let dot = g.to_dot();
    let stmts = parse_dot(&dot);
    let label_of_first = stmts.iter().find_map(|s| match s {
        Stmt::Node(node) => node
            .list
            .iter()
            .find_map(|(key, value)| (key == "label").then(|| value.clone())),
        _ => None,
    });
    // As written: record specials and quotes escaped, the string quoted.
    let expected = r#"label="{ \{a\|b\} \<\"q\"\> \\  | data 1.0000 | grad 2.0000 }""#;
    assert!(dot.contains(expected), "no {expected} in {dot}");
    // As the parser reads it (it drops each escaping backslash): one string, ending where the
    // label ends, in the first node.
    let read = r#"{ {a|b} <"q"> \  | data 1.0000 | grad 2.0000 }"#;
    assert_eq!(label_of_first.as_deref(), Some(read));
}

fn parse_svg(svg: &str) -> Vec<String> {
    let document = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
    assert_eq!(document.root_element().tag_name().name(), "svg");
    document
        .descendants()
        .filter_map(|n| n.text())
        .map(str::to_owned)
        .collect()
}

#[test]
fn svg_is_well_formed_and_shows_data_and_grad() {
    let texts = parse_svg(&neuron().to_graph().to_svg());
    for expected in ["data 0.7071", "grad 1.0000", "grad -1.5000", "x1", "tanh"] {
        assert!(
            texts.iter().any(|t| t.contains(expected)),
            "no {expected:?} in {texts:?}"
        );
    }
}

#[test]
fn svg_survives_awkward_graphs() {
    assert!(parse_svg(&Graph::new().to_svg()).is_empty());

    let a = Value::with_label(3.0, "<a & \"b\">");
    let y = &a + &a; // two edges between the same pair of nodes
    y.backward();
    let texts = parse_svg(&y.to_graph().to_svg());
    assert!(texts.iter().any(|t| t.contains("<a & \"b\">")), "{texts:?}");
    assert!(texts.iter().any(|t| t.contains("grad 2.0000")), "{texts:?}");

    let mut g = Graph::new();
    readme_expression(&mut g);
    let texts = parse_svg(&g.to_svg());
    assert!(
        texts.iter().any(|t| t.contains("data 24.7041")),
        "{texts:?}"
    );
}
