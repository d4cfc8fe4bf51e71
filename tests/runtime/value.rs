//! The run-time engine `Value` against micrograd's own tests, finite differences and deep graphs.

use micrograd_runtime::Value;

fn assert_close(actual: f64, expected: f64, tolerance: f64) {
    assert!(
        (actual - expected).abs() <= tolerance * (1.0 + expected.abs()),
        "{actual} is not within {tolerance} of {expected}"
    );
}

/// micrograd `test/test_engine.py::test_sanity_check` (PyTorch: y = -20, dy/dx = 46).
#[test]
fn sanity_check() {
    let x = Value::new(-4.0);
    let z = 2.0 * &x + 2.0 + &x;
    let q = z.relu() + &z * &x;
    let h = (&z * &z).relu();
    let y = &h + &q + &q * &x;
    y.backward();
    assert_eq!(y.data(), -20.0);
    assert_eq!(x.grad(), 46.0);
}

/// micrograd `test/test_engine.py::test_more_ops`, with the values of micrograd's README.
#[test]
fn more_ops() {
    let a = Value::new(-4.0);
    let b = Value::new(2.0);
    let mut c = &a + &b;
    let mut d = &a * &b + b.powi(3);
    c += &c + 1.0;
    c += 1.0 + &c + (-&a);
    d += &d * 2.0 + (&b + &a).relu();
    d += 3.0 * &d + (&b - &a).relu();
    let e = &c - &d;
    let f = e.powi(2);
    let mut g = &f / 2.0;
    g += 10.0 / &f;
    g.backward();
    assert!((g.data() - 24.7041).abs() < 1e-4, "g = {}", g.data());
    assert!((a.grad() - 138.8338).abs() < 1e-4, "dg/da = {}", a.grad());
    assert!((b.grad() - 645.5773).abs() < 1e-4, "dg/db = {}", b.grad());
    assert_eq!(g.grad(), 1.0);
}

/// The derivative of a one-argument op by backward, against a central difference.
fn check_unary(name: &str, op: impl Fn(&Value) -> Value, points: &[f64]) {
    let h = 1e-6;
    for &x in points {
        let input = Value::new(x);
        let output = op(&input);
        output.backward();
        let numeric = (op(&Value::new(x + h)).data() - op(&Value::new(x - h)).data()) / (2.0 * h);
        assert!(
            (input.grad() - numeric).abs() < 1e-6 * (1.0 + numeric.abs()),
            "{name}'({x}) = {} by backward, {numeric} by differences",
            input.grad()
        );
    }
}

#[test]
fn unary_derivatives_match_finite_differences() {
    let points = [-2.5, -0.7, 0.3, 1.0, 3.2];
    check_unary("relu", Value::relu, &points);
    check_unary("tanh", Value::tanh, &points);
    check_unary("exp", Value::exp, &points);
    check_unary("sigmoid", Value::sigmoid, &points);
    check_unary("neg", |x| -x, &points);
    check_unary("ln", Value::ln, &[0.1, 0.5, 1.0, 2.0, 7.5]);
    for n in [-3, -1, 1, 2, 3, 5] {
        check_unary("powi", |x| x.powi(n), &points);
    }
    check_unary("x + 1", |x| x + 1.0, &points);
    check_unary("1 - x", |x| 1.0 - x, &points);
    check_unary("x * 3", |x| x * 3.0, &points);
    check_unary("2 / x", |x| 2.0 / x, &points);
}

/// Both partials of a two-argument op by backward, against central differences.
fn check_binary(name: &str, op: impl Fn(&Value, &Value) -> Value) {
    let h = 1e-6;
    let at = |x: f64, y: f64| op(&Value::new(x), &Value::new(y)).data();
    for (x, y) in [(-2.0, 0.5), (0.3, -1.7), (1.5, 2.5), (-0.8, -3.0)] {
        let (a, b) = (Value::new(x), Value::new(y));
        op(&a, &b).backward();
        let da = (at(x + h, y) - at(x - h, y)) / (2.0 * h);
        let db = (at(x, y + h) - at(x, y - h)) / (2.0 * h);
        assert!(
            (a.grad() - da).abs() < 1e-6 * (1.0 + da.abs()),
            "d{name}/da at ({x}, {y})"
        );
        assert!(
            (b.grad() - db).abs() < 1e-6 * (1.0 + db.abs()),
            "d{name}/db at ({x}, {y})"
        );
    }
}

#[test]
fn binary_derivatives_match_finite_differences() {
    check_binary("+", |a, b| a + b);
    check_binary("-", |a, b| a - b);
    check_binary("*", |a, b| a * b);
    check_binary("/", |a, b| a / b);
    check_binary("tanh(a * b + a)", |a, b| (a * b + a).tanh());
}

#[test]
fn pytorch_conventions_at_kinks_and_edges() {
    let x = Value::new(0.0);
    x.relu().backward();
    assert_eq!(x.grad(), 0.0, "relu'(0) = 0");
    let x = Value::new(0.0);
    let y = x.powi(0);
    y.backward();
    assert_eq!((y.data(), x.grad()), (1.0, 0.0), "d(x^0)/dx = 0 at 0");
    let x = Value::new(f64::NAN);
    x.relu().backward();
    assert!(
        x.grad() == 1.0,
        "relu passes the gradient where its output is not <= 0"
    );
}

#[test]
fn a_node_used_twice_accumulates() {
    let a = Value::new(3.0);
    let y = &a + &a;
    y.backward();
    assert_eq!(a.grad(), 2.0);

    let b = Value::new(-2.0);
    let y = &b * &b * &b; // b^3 through one node used three times
    y.backward();
    assert_eq!(b.grad(), 12.0);
}

#[test]
fn every_operator_form_compiles_and_agrees() {
    let (a, b) = (Value::new(6.0), Value::new(3.0));
    let forms = [
        (&a + &b).data(),
        (a.clone() + &b).data(),
        (&a + b.clone()).data(),
        (a.clone() + b.clone()).data(),
        (&a + 3.0).data(),
        (6.0 + &b).data(),
        (a.clone() + 3.0).data(),
        (6.0 + b.clone()).data(),
    ];
    assert!(forms.iter().all(|&sum| sum == 9.0), "{forms:?}");
    assert_eq!(((&a - 1.0) * 2.0 / &b).data(), 10.0 / 3.0);
    assert_eq!((-a.clone()).data(), -6.0);
    let mut x = a.clone();
    x -= 1.0;
    x *= &b;
    x /= b.clone();
    x += 2.0;
    assert_eq!(x.data(), 7.0);
    let total: Value = [a.clone(), b.clone()].iter().sum();
    assert_eq!(total.data(), 9.0);
}

#[test]
fn grads_accumulate_until_zeroed_and_only_given_nodes_are_zeroed() {
    let w = Value::new(2.0);
    let y = &w * 5.0;
    y.backward();
    y.backward();
    assert_eq!(w.grad(), 10.0, "two backward calls add up, as in micrograd");
    Value::zero_grad(std::slice::from_ref(&w));
    assert_eq!(w.grad(), 0.0);
    assert_eq!(y.grad(), 1.0, "a node not listed keeps its grad");
}

#[test]
fn labels_data_and_debug() {
    let a = Value::with_label(2.0, "a");
    assert_eq!(a.label().as_deref(), Some("a"));
    assert_eq!(Value::new(1.0).label(), None);
    let e = &a * 3.0;
    e.set_label("e");
    assert_eq!(
        (e.label().as_deref(), e.op().as_deref()),
        (Some("e"), Some("*"))
    );
    a.set_data(4.0);
    assert_eq!(a.data(), 4.0);
    assert_eq!(e.data(), 6.0, "a computed value keeps its forward data");
    let shown = format!("{e:?}");
    assert!(
        shown.contains("data: 6.0") && shown.contains("grad: 0.0"),
        "{shown}"
    );
}

fn million_node_chain() -> (Value, Value) {
    let x0 = Value::new(1.0);
    let mut x = x0.clone();
    for _ in 0..1_000_000 {
        x = x * 1.0000001 + 0.0;
    }
    (x0, x)
}

/// Backward and drop both loop: the default 2 MiB test thread stack would overflow otherwise.
#[test]
fn a_million_node_chain_backpropagates_and_drops() {
    let (x0, x) = million_node_chain();
    x.backward();
    let expected = 1.0000001_f64.powi(1_000_000);
    assert_close(x.data(), expected, 1e-9);
    assert_close(x0.grad(), expected, 1e-9);
    drop(x);
    assert_eq!(x0.data(), 1.0, "the leaf outlives the chain built on it");
}

#[test]
fn a_million_node_chain_drops_without_backward() {
    let (x0, x) = million_node_chain();
    drop(x0);
    drop(x);
}
