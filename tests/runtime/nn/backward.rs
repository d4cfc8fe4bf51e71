//! Neuron, Layer, Mlp backward passes.

use super::*;

#[test]
fn neuron_backward_matches_finite_differences_and_closed_form() {
    let (w, b) = ([0.7, -1.3, 0.4], 0.25);
    // Pre-activations 1.775 and -1.275: both sides of ReLU's kink.
    for x in [[0.9, -0.35, 1.1], [-0.9, 0.35, -1.1]] {
        for activation in ACTIVATIONS {
            let name = format!("{activation:?} neuron at {x:?}");
            let d_out = -1.7;
            let mut n = neuron(&w, b, activation);
            // Nonzero gradients before: backward must add into them.
            let (grad_w0, grad_b0, d_x0) = ([0.5, -0.25, 2.0], 0.125, [1.0, -2.0, 0.5]);
            n.grad_w = grad_w0.to_vec();
            n.grad_b = grad_b0;
            let mut d_x = d_x0;
            n.backward(&x, d_out, &mut d_x);
            let added_w: Vec<f64> = n.grad_w.iter().zip(grad_w0).map(|(g, g0)| g - g0).collect();
            let added_b = n.grad_b - grad_b0;
            let added_x: Vec<f64> = d_x.iter().zip(d_x0).map(|(g, g0)| g - g0).collect();

            // Closed form: d_out · act'(z) · (x, 1, w).
            let local = d_out * activate_derivative(activation, pre_activation(&w, b, &x));
            let closed_w: Vec<f64> = x.iter().map(|xi| local * xi).collect();
            let closed_x: Vec<f64> = w.iter().map(|wi| local * wi).collect();
            assert_all_near(&format!("{name}: d_w"), &added_w, &closed_w, 1e-14);
            assert_near(&format!("{name}: d_b"), added_b, local, 1e-14);
            assert_all_near(&format!("{name}: d_x"), &added_x, &closed_x, 1e-14);

            // Finite differences of d_out · forward, over (w, b) and over x.
            let mut params_grad = added_w.clone();
            params_grad.push(added_b);
            let base = neuron(&w, b, activation);
            let of_params = |p: &[f64]| {
                let mut m = base.clone();
                m.set_parameters(p);
                d_out * m.forward(&x)
            };
            assert_gradient(
                &format!("{name}: d(w, b)"),
                of_params,
                &base.parameters(),
                &params_grad,
            );
            let of_x = |xs: &[f64]| d_out * base.forward(xs);
            assert_gradient(&format!("{name}: d_x"), of_x, &x, &added_x);
        }
    }
}

#[test]
fn neuron_forward_is_the_activation_of_the_weighted_sum() {
    let (w, b, x) = ([0.7, -1.3, 0.4], 0.25, [0.9, -0.35, 1.1]);
    for activation in ACTIVATIONS {
        let expected = activate(activation, pre_activation(&w, b, &x));
        assert_near(
            &format!("{activation:?}"),
            neuron(&w, b, activation).forward(&x),
            expected,
            1e-15,
        );
    }
}

#[test]
fn neuron_backward_at_the_first_layer_skips_d_x() {
    let (w, b, x) = ([0.7, -1.3], 0.25, [0.9, -0.35]);
    for activation in ACTIVATIONS {
        let mut with = neuron(&w, b, activation);
        let mut without = with.clone();
        with.backward(&x, 0.75, &mut [0.0, 0.0]);
        without.backward(&x, 0.75, &mut []);
        assert_eq!(
            with, without,
            "{activation:?}: `&mut []` for d_x changes the parameter gradients"
        );
        assert!(
            with.grad_b != 0.0,
            "{activation:?}: the neuron is active here"
        );
    }
}

#[test]
fn relu_neuron_at_its_kink_has_zero_gradient_like_pytorch() {
    // Pre-activation exactly 0: relu'(0) = 0 in PyTorch, in micrograd's Value and here.
    let (w, b, x) = ([1.0, 1.0], 0.0, [0.5, -0.5]);
    let mut n = neuron(&w, b, Activation::Relu);
    assert_eq!(n.forward(&x), 0.0);
    let mut d_x = [0.0; 2];
    n.backward(&x, 1.0, &mut d_x);
    assert_eq!(
        (n.grad_w.as_slice(), n.grad_b, d_x),
        (&[0.0, 0.0][..], 0.0, [0.0, 0.0])
    );
    let z = Value::new(1.0) * 0.5 + Value::new(1.0) * -0.5 + 0.0;
    let out = z.relu();
    out.backward();
    assert_eq!(z.grad(), 0.0, "Value's relu'(0)");
}

#[test]
fn layer_backward_matches_finite_differences() {
    let x = [0.8, -0.45, 1.2];
    let d_out = [0.3, -1.1, 0.8, 2.0];
    for (seed, activation) in (10..).zip(ACTIVATIONS) {
        let name = format!("{activation:?} layer");
        let base = Layer::new(3, 4, activation, &mut PythonRandom::new(seed));
        if activation == Activation::Relu {
            let kink = base
                .neurons()
                .iter()
                .map(|n| pre_activation(&n.w, n.b, &x).abs())
                .fold(f64::INFINITY, f64::min);
            assert!(
                kink > 1e-2,
                "{name}: a pre-activation is {kink:e} from ReLU's kink: pick another x"
            );
        }
        let mut layer = base.clone();
        let mut d_x = [0.0; 3];
        layer.backward(&x, &d_out, &mut d_x);

        let weighted = |l: &Layer, xs: &[f64]| {
            l.forward(xs)
                .iter()
                .zip(&d_out)
                .map(|(o, d)| o * d)
                .sum::<f64>()
        };
        let of_params = |p: &[f64]| {
            let mut l = base.clone();
            l.set_parameters(p);
            weighted(&l, &x)
        };
        assert_gradient(
            &format!("{name}: parameters"),
            of_params,
            &base.parameters(),
            &layer.grads(),
        );
        assert_gradient(&format!("{name}: d_x"), |xs| weighted(&base, xs), &x, &d_x);
        // The layer's gradients are its neurons' gradients, in parameter order.
        let per_neuron: Vec<f64> = layer.neurons().iter().flat_map(Module::grads).collect();
        assert_eq!(layer.grads(), per_neuron);
        assert_eq!(layer.inputs(), 3);
        assert_eq!(layer.parameter_count(), 16);
    }
}

#[test]
fn mlp_backward_matches_finite_differences() {
    let x = [0.6, -1.1, 0.35];
    let d_out = [0.7, -1.3];
    for (seed, activation) in (20..).zip(ACTIVATIONS) {
        let name = format!("{activation:?} Mlp 3-5-4-2");
        let base = Mlp::new(3, &[5, 4, 2], activation, seed);
        let (outputs, kink) = reference_forward(&base, &x);
        assert!(
            kink > 1e-2,
            "{name}: a pre-activation is {kink:e} from ReLU's kink"
        );
        assert_all_near(
            &format!("{name}: forward"),
            &base.forward(&x),
            &outputs,
            1e-14,
        );

        let mut model = base.clone();
        model.backward(&x, &d_out);
        let grads = model.grads();
        assert_eq!(grads.len(), 5 * 4 + 4 * 6 + 2 * 5);
        let weighted = |p: &[f64]| {
            with_parameters(&base, p, |m| {
                reference_forward(m, &x)
                    .0
                    .iter()
                    .zip(&d_out)
                    .map(|(o, d)| o * d)
                    .sum::<f64>()
            })
        };
        assert_gradient(&name, weighted, &base.parameters(), &grads);

        // A second backward adds the same gradient again.
        model.backward(&x, &d_out);
        let doubled: Vec<f64> = grads.iter().map(|g| 2.0 * g).collect();
        assert_all_near(
            &format!("{name}: accumulation"),
            &model.grads(),
            &doubled,
            1e-15,
        );
        model.zero_grad();
        assert!(model.grads().iter().all(|g| *g == 0.0), "{name}: zero_grad");
    }
}
