//! Every path of `Mlp::train_loss` (one or two ReLU hidden layers through one generated
//! gradient of the whole network; any activation and depth up to 128 wide through tiles of
//! constant size; anything else layer by layer) against a one-function generated gradient of
//! the same loss and against finite differences; the paths against each other bit for bit; and
//! the same results on any number of threads.

use super::*;
use micrograd_runtime::loss::{sum_of_squares, sum_of_squares_pullback};

use micrograd_runtime::prelude::*;

/// `w[n] + Σⱼ w[j] x[j]` for `n = x.len()`: a neuron's weighted sum, bias last.
#[differentiable]
fn unit(w: &[f64], x: &[f64]) -> f64 {
    let n = x.len();
    let mut a = w[n];
    for j in 0..n {
        a += w[j] * x[j];
    }
    a
}

/// `relu` (kind 0), `tanh` (kind 1), `sigmoid` (kind 2) or none (kind 3).
#[differentiable(wrt(z))]
fn act(z: f64, kind: usize) -> f64 {
    if kind == 0 {
        z.relu()
    } else if kind == 1 {
        z.tanh()
    } else if kind == 2 {
        z.sigmoid()
    } else {
        z
    }
}

/// The mean hinge loss plus `alpha · Σ p²` of a 2-`n1`-1 network, in one function.
#[differentiable(wrt(p))]
fn one_hidden(p: &[f64], xs: &[f64], ys: &[f64], n1: usize, kind: usize, alpha: f64) -> f64 {
    let mut total = 0.0;
    for s in 0..ys.len() {
        let mut h1 = [0.0; 64];
        for k in 0..n1 {
            h1[k] = act(unit(&p[3 * k..3 * k + 3], &xs[2 * s..2 * s + 2]), kind);
        }
        let score = unit(&p[3 * n1..4 * n1 + 1], &h1[..n1]);
        total += (1.0 - ys[s] * score).relu();
    }
    total / ys.len() as f64 + alpha * sum_of_squares(p)
}

/// The same for a 2-`n1`-`n2`-1 network.
#[differentiable(wrt(p))]
#[allow(clippy::too_many_arguments)]
fn two_hidden(
    p: &[f64],
    xs: &[f64],
    ys: &[f64],
    n1: usize,
    n2: usize,
    kind: usize,
    alpha: f64,
) -> f64 {
    let o2 = 3 * n1;
    let o3 = o2 + n2 * (n1 + 1);
    let mut total = 0.0;
    for s in 0..ys.len() {
        let mut h1 = [0.0; 64];
        for k in 0..n1 {
            h1[k] = act(unit(&p[3 * k..3 * k + 3], &xs[2 * s..2 * s + 2]), kind);
        }
        let mut h2 = [0.0; 32];
        for k in 0..n2 {
            let row = o2 + k * (n1 + 1);
            h2[k] = act(unit(&p[row..row + n1 + 1], &h1[..n1]), kind);
        }
        let score = unit(&p[o3..o3 + n2 + 1], &h2[..n2]);
        total += (1.0 - ys[s] * score).relu();
    }
    total / ys.len() as f64 + alpha * sum_of_squares(p)
}

/// The same for a 2-`n`-`n`-`n`-1 ReLU network.
#[differentiable(wrt(p))]
fn three_hidden(p: &[f64], xs: &[f64], ys: &[f64], n: usize, alpha: f64) -> f64 {
    let o2 = 3 * n;
    let o3 = o2 + n * (n + 1);
    let o4 = o3 + n * (n + 1);
    let mut total = 0.0;
    for s in 0..ys.len() {
        let mut h1 = [0.0; 64];
        for k in 0..n {
            h1[k] = unit(&p[3 * k..3 * k + 3], &xs[2 * s..2 * s + 2]).relu();
        }
        let mut h2 = [0.0; 32];
        for k in 0..n {
            h2[k] = unit(&p[o2 + k * (n + 1)..o2 + (k + 1) * (n + 1)], &h1[..n]).relu();
        }
        let mut h3 = [0.0; 32];
        for k in 0..n {
            h3[k] = unit(&p[o3 + k * (n + 1)..o3 + (k + 1) * (n + 1)], &h2[..n]).relu();
        }
        let score = unit(&p[o4..o4 + n + 1], &h3[..n]);
        total += (1.0 - ys[s] * score).relu();
    }
    total / ys.len() as f64 + alpha * sum_of_squares(p)
}

/// Points away from every ReLU kink and hinge kink of `model` (finite differences need it).
fn clear_points(model: &Mlp, n: usize, seed: u64) -> (Vec<[f64; 2]>, Vec<f64>) {
    let (mut points, mut labels) = (Vec::new(), Vec::new());
    for x in random_points(4 * n, seed) {
        let label = if points.len() % 3 == 0 { 1.0 } else { -1.0 };
        let (score, kink) = reference_forward(model, &x);
        if kink > 1e-3 && (1.0 - label * score[0]).abs() > 1e-3 && points.len() < n {
            points.push(x);
            labels.push(label);
        }
    }
    assert_eq!(points.len(), n, "not enough points away from the kinks");
    (points, labels)
}

type Reference = fn(&[f64], &mut [f64], &[f64], &[f64]) -> f64;

#[test]
fn every_training_path_matches_the_one_function_gradient_and_finite_differences() {
    let alpha = 1e-3;
    let cases: [(&str, &[usize], Activation, Reference); 9] = [
        ("fused 2-6-1", &[6, 1], Activation::Relu, |p, d, x, y| {
            one_hidden_grad(p, d, x, y, 6, 0, 1e-3)
        }),
        ("fused 2-16-1", &[16, 1], Activation::Relu, |p, d, x, y| {
            one_hidden_grad(p, d, x, y, 16, 0, 1e-3)
        }),
        (
            "fused 2-6-5-1",
            &[6, 5, 1],
            Activation::Relu,
            |p, d, x, y| two_hidden_grad(p, d, x, y, 6, 5, 0, 1e-3),
        ),
        (
            "tiled 2-6-5-1 tanh",
            &[6, 5, 1],
            Activation::Tanh,
            |p, d, x, y| two_hidden_grad(p, d, x, y, 6, 5, 1, 1e-3),
        ),
        (
            "tiled 2-6-5-1 sigmoid",
            &[6, 5, 1],
            Activation::Sigmoid,
            |p, d, x, y| two_hidden_grad(p, d, x, y, 6, 5, 2, 1e-3),
        ),
        (
            "tiled 2-7-3-1 linear",
            &[7, 3, 1],
            Activation::Linear,
            |p, d, x, y| two_hidden_grad(p, d, x, y, 7, 3, 3, 1e-3),
        ),
        (
            "tiled 2-20-1 (wider than the fused path)",
            &[20, 1],
            Activation::Relu,
            |p, d, x, y| one_hidden_grad(p, d, x, y, 20, 0, 1e-3),
        ),
        (
            "layers 2-33-1 tanh (a tile of 64 would more than double the parameters)",
            &[33, 1],
            Activation::Tanh,
            |p, d, x, y| one_hidden_grad(p, d, x, y, 33, 1, 1e-3),
        ),
        (
            "tiled 2-4-4-4-1",
            &[4, 4, 4, 1],
            Activation::Relu,
            |p, d, x, y| three_hidden_grad(p, d, x, y, 4, 1e-3),
        ),
    ];
    for (seed, (name, sizes, activation, reference)) in (50..).zip(cases) {
        let base = Mlp::new(2, sizes, activation, seed);
        let (points, labels) = clear_points(&base, 24, seed);
        let xs: Vec<f64> = points.iter().flatten().copied().collect();
        let mut model = base.clone();
        let (value, scores) = model.train_loss(&points, &labels, Loss::Hinge, alpha);
        let p = base.parameters();
        let mut want = vec![0.0; p.len()];
        let want_value = reference(&p, &mut want, &xs, &labels);
        assert_near(&format!("{name}: value"), value, want_value, 1e-14);
        assert_all_near(&format!("{name}: gradient"), &model.grads(), &want, 1e-13);
        for (x, score) in points.iter().zip(&scores) {
            assert_eq!(*score, base.forward(x)[0], "{name}: a score");
        }
        let of_params = |q: &[f64]| {
            with_parameters(&base, q, |m| {
                reference_train_loss(m, &points, &labels, Loss::Hinge, alpha)
            })
        };
        assert_gradient(name, of_params, &p, &model.grads());
    }
}

#[test]
fn the_fused_network_gradient_is_the_layer_by_layer_one_bit_for_bit() {
    // The same arithmetic in the same order: the fused function's padding adds exact zeros.
    for (seed, sizes) in (60..).zip([&[16, 16, 1][..], &[6, 5, 1], &[7, 1]]) {
        let base = Mlp::new(2, sizes, Activation::Relu, seed);
        let (points, labels) = clear_points(&base, 50, seed);
        assert_fused_is_layered(&base, &points, &labels, &format!("{sizes:?}"));
    }
}

#[test]
fn every_input_count_gives_the_layer_by_layer_bits() {
    // The fused functions have one copy per input count up to 8 (the first layer's loops have
    // a constant length); 9 inputs go layer by layer. 200 points: one block (a block sums
    // its points from zero, which adding point by point into the gradients does not).
    for inputs in 1..=9 {
        for sizes in [&[16, 16, 1][..], &[5, 1]] {
            let base = Mlp::new(inputs, sizes, Activation::Relu, 70 + inputs as u64);
            let mut rng = StdRng::seed_from_u64(inputs as u64);
            let points: Vec<Vec<f64>> = (0..200)
                .map(|_| (0..inputs).map(|_| rng.random_range(-1.5..1.5)).collect())
                .collect();
            let labels: Vec<f64> = (0..200)
                .map(|i| if i % 3 == 0 { 1.0 } else { -1.0 })
                .collect();
            let name = format!("{inputs} inputs, {sizes:?}");
            assert_fused_is_layered(&base, &points, &labels, &name);
        }
    }
}

#[test]
fn every_tiled_shape_gives_the_layer_by_layer_bits() {
    // Tiles pad with zero weights, which add exact zeros: the same bits as `forward` and
    // `backward`, layer by layer, for every activation, depth, width and input count.
    let activations = [
        Activation::Relu,
        Activation::Tanh,
        Activation::Sigmoid,
        Activation::Linear,
    ];
    let shapes: [&[usize]; 5] = [
        &[4, 1],
        &[5, 3, 1],
        &[16, 16, 16, 16, 1],
        &[128, 1],
        &[40, 24, 1],
    ];
    for (a, activation) in activations.into_iter().enumerate() {
        for (s, sizes) in shapes.into_iter().enumerate() {
            for inputs in [1, 3, 64] {
                let seed = (100 * a + 10 * s + inputs) as u64;
                let base = Mlp::new(inputs, sizes, activation, seed);
                let (points, labels) = uniform_points(inputs, 200, seed);
                let name = format!("{activation:?} {inputs} inputs, {sizes:?}");
                assert_fused_is_layered(&base, &points, &labels, &name);
            }
        }
    }
}

/// `n` points of `inputs` numbers in [-1.5, 1.5), a third of them labelled +1.
fn uniform_points(inputs: usize, n: usize, seed: u64) -> (Vec<Vec<f64>>, Vec<f64>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let points = (0..n)
        .map(|_| (0..inputs).map(|_| rng.random_range(-1.5..1.5)).collect())
        .collect();
    let labels = (0..n)
        .map(|i| if i % 3 == 0 { 1.0 } else { -1.0 })
        .collect();
    (points, labels)
}

/// `train_loss` against `forward` and `backward` point by point, bit for bit.
fn assert_fused_is_layered<X: AsRef<[f64]> + Sync>(
    base: &Mlp,
    points: &[X],
    labels: &[f64],
    name: &str,
) {
    let mut fused = base.clone();
    let (value, scores) = fused.train_loss(points, labels, Loss::Hinge, 1e-4);
    let mut layered = base.clone();
    let scale = 1.0 / points.len() as f64;
    let mut total = 0.0;
    for ((x, y), score) in points.iter().zip(labels).zip(&scores) {
        let out = layered.forward(x.as_ref())[0];
        assert_eq!(out.to_bits(), score.to_bits(), "{name}: a score");
        let (loss, d_score) = loss::hinge_grad(out, *y);
        total += scale * loss;
        if d_score != 0.0 {
            layered.backward(x.as_ref(), &[d_score * scale]);
        }
    }
    total += layered.regularize(1e-4);
    let bits = |v: &[f64]| v.iter().map(|g| g.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&fused.grads()), bits(&layered.grads()), "{name}");
    assert_eq!(value.to_bits(), total.to_bits(), "{name}: value");
}

#[test]
fn any_number_of_threads_gives_the_same_bits() {
    let n = std::env::var("MICROGRAD_THREAD_POINTS").map_or(6_000, |v| v.parse().expect("a count"));
    let points = random_points(n, 81);
    let labels: Vec<f64> = points
        .iter()
        .map(|x| if x[0] * x[1] > 0.0 { 1.0 } else { -1.0 })
        .collect();
    for (inputs, sizes, activation) in [
        (2, &[16, 16, 1][..], Activation::Relu),
        (2, &[8, 1], Activation::Tanh),
        (2, &[33, 1], Activation::Tanh),
        (10, &[16, 24, 8, 1], Activation::Sigmoid),
    ] {
        let base = Mlp::new(inputs, sizes, activation, 82);
        let points: Vec<Vec<f64>> = points
            .iter()
            .map(|x| (0..inputs).map(|j| x[j % 2] * (1.0 + j as f64)).collect())
            .collect();
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a thread pool");
            let mut model = base.clone();
            let (value, scores) =
                pool.install(|| model.train_loss(&points, &labels, Loss::Logistic, 1e-4));
            let mut bits: Vec<u64> = model.grads().iter().map(|g| g.to_bits()).collect();
            bits.extend(scores.iter().map(|s| s.to_bits()));
            bits.push(value.to_bits());
            bits
        };
        let one = run(1);
        for threads in [2, 3, 4] {
            assert!(
                run(threads) == one,
                "{sizes:?}: {threads} threads differ from one"
            );
        }
    }
}

#[test]
fn parameters_mut_is_a_view_an_optimizer_steps() {
    let mut model = Mlp::new(2, &[5, 3, 1], Activation::Relu, 90);
    model.train_loss(&[[0.3, -0.2], [1.1, 0.4]], &[1.0, -1.0], Loss::Hinge, 1e-3);
    let (mut copied, grads) = (model.parameters(), model.grads());
    Sgd::new(0.5).step(&mut copied, &grads);
    let view = model.parameters_mut();
    assert_eq!(view.grads, grads.as_slice());
    Sgd::new(0.5).step(view.values, view.grads);
    assert_eq!(model.parameters(), copied);
}

#[test]
fn layers_and_neurons_round_trip() {
    let mut model = Mlp::new(3, &[4, 2], Activation::Tanh, 91);
    model.backward(&[0.1, 0.2, -0.3], &[1.0, -0.5]);
    let layers = model.layers();
    assert_eq!(layers.len(), 2);
    assert_eq!((layers[0].inputs(), layers[0].outputs()), (3, 4));
    assert_eq!(layers[1].activation(), Activation::Linear);
    for layer in &layers {
        assert_eq!(&Layer::from_neurons(layer.neurons()), layer);
    }
    let rebuilt = Mlp::from_layers(layers);
    assert_eq!(rebuilt, model);
    assert_eq!(rebuilt.grads(), model.grads());
}

#[test]
#[should_panic(expected = "an Mlp needs at least one layer")]
fn a_network_without_layers_is_refused_where_it_is_made() {
    // It used to be made, and its backward pass overflowed (`layers.len() - 1`).
    Mlp::from_layers(Vec::new());
}

#[test]
#[should_panic(expected = "layer 1 takes 3 inputs but the layer before has 4 outputs")]
fn layers_that_do_not_chain_are_refused() {
    let mut rng = PythonRandom::new(92);
    Mlp::from_layers(vec![
        Layer::new(2, 4, Activation::Relu, &mut rng),
        Layer::new(3, 1, Activation::Linear, &mut rng),
    ]);
}

#[test]
fn the_one_function_references_match_finite_differences() {
    // The references are checked themselves (with tanh: no kinks), so a mistake they share
    // with the runtime cannot hide.
    let p: Vec<f64> = (0..53).map(|i| ((i * 7 % 11) as f64 - 5.0) / 4.0).collect();
    let (xs, ys) = ([0.3, -0.7, 1.2, 0.4, -0.9, 0.8], [1.0, -1.0, 1.0]);
    let mut d = vec![0.0; 25];
    one_hidden_grad(&p[..25], &mut d, &xs, &ys, 6, 1, 0.01);
    let f = |q: &[f64]| one_hidden(q, &xs, &ys, 6, 1, 0.01);
    assert_gradient("one_hidden", f, &p[..25], &d);
    let mut d = vec![0.0; 53];
    two_hidden_grad(&p, &mut d, &xs, &ys, 6, 4, 1, 0.01);
    let f = |q: &[f64]| two_hidden(q, &xs, &ys, 6, 4, 1, 0.01);
    assert_gradient("two_hidden", f, &p, &d);
}

#[test]
fn a_bad_label_in_a_late_block_is_named_and_changes_no_gradient() {
    // Points and labels are checked block by block, on whichever thread runs the block; the
    // gradients change only once every block has passed.
    let mut model = Mlp::new(2, &[16, 16, 1], Activation::Relu, 5);
    let points = random_points(1_000, 6);
    let mut labels = vec![1.0; 1_000];
    labels[700] = 0.5;
    let before = model.grads();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        model.train_loss(&points, &labels, Loss::Hinge, 0.0)
    }));
    let payload = outcome.expect_err("a label of 0.5 is refused");
    let message = payload
        .downcast_ref::<String>()
        .expect("a formatted message");
    assert!(message.contains("label 700 is 0.5"), "{message}");
    assert_eq!(model.grads(), before);
}
