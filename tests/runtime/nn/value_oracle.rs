//! micrograd's Value engine as a second oracle.

use super::*;

/// The network rebuilt as micrograd `Value`s: the parameters in `Module::parameters` order.
fn value_parameters(model: &Mlp) -> Vec<Value> {
    model.parameters().into_iter().map(Value::new).collect()
}

/// micrograd's `MLP.__call__` on `Value`s, reading the parameters in `Module` order.
fn value_forward(model: &Mlp, params: &[Value], x: &[f64]) -> Vec<Value> {
    let mut next = 0;
    let mut a: Vec<Value> = x.iter().map(|xi| Value::new(*xi)).collect();
    for layer in model.layers() {
        a = layer
            .neurons()
            .iter()
            .map(|n| {
                let w = &params[next..next + n.w.len()];
                let b = &params[next + n.w.len()];
                next += n.w.len() + 1;
                let act = w
                    .iter()
                    .zip(&a)
                    .fold(b.clone(), |sum, (wi, xi)| sum + wi * xi);
                match n.activation {
                    Activation::Relu => act.relu(),
                    Activation::Tanh => act.tanh(),
                    Activation::Sigmoid => act.sigmoid(),
                    Activation::Linear => act,
                }
            })
            .collect();
    }
    a
}

fn value_loss(loss: Loss, score: &Value, label: f64) -> Value {
    match loss {
        Loss::Hinge => (1.0 - score * label).relu(),
        Loss::Logistic => (1.0 + (-(score * label)).exp()).ln(),
        Loss::Squared => (score - label).powi(2),
    }
}

#[test]
fn train_loss_gradient_matches_micrograd_value_engine() {
    let demo = make_moons(30, 0.1, 7);
    for (loss, activation, alpha) in [
        (Loss::Hinge, Activation::Relu, 1e-4),
        (Loss::Logistic, Activation::Tanh, 1e-3),
        (Loss::Squared, Activation::Relu, 0.0),
        (Loss::Hinge, Activation::Tanh, 0.05),
    ] {
        let name = format!("{loss:?}, {activation:?} 2-16-16-1, alpha {alpha}");
        let mut model = Mlp::new(2, &[16, 16, 1], activation, 8);
        let params = value_parameters(&model);
        let losses: Vec<Value> = demo
            .points
            .iter()
            .zip(&demo.labels)
            .map(|(x, y)| value_loss(loss, &value_forward(&model, &params, x)[0], *y))
            .collect();
        let data_loss = losses.iter().sum::<Value>() * (1.0 / demo.len() as f64);
        let total = data_loss + alpha * params.iter().map(|p| p * p).sum::<Value>();
        total.backward();

        model.zero_grad();
        let (value, _) = model.train_loss(&demo.points, &demo.labels, loss, alpha);
        assert_near(&format!("{name}: loss"), value, total.data(), 1e-12);
        let engine: Vec<f64> = params.iter().map(Value::grad).collect();
        assert!(
            engine.iter().filter(|g| **g != 0.0).count() > 100,
            "{name}: too few live gradients"
        );
        assert_all_near(&name, &model.grads(), &engine, 1e-12);
    }
}

#[test]
fn mlp_backward_of_several_outputs_matches_micrograd_value_engine() {
    let x = [0.25, -0.9, 1.4];
    let d_out = [1.5, -0.5, 0.25];
    for activation in ACTIVATIONS {
        let mut model = Mlp::new(3, &[6, 5, 3], activation, 50);
        let params = value_parameters(&model);
        let outputs = value_forward(&model, &params, &x);
        let forward = model.forward(&x);
        for (o, f) in outputs.iter().zip(&forward) {
            assert_near("forward", o.data(), *f, 1e-14);
        }
        let weighted: Value = outputs.iter().zip(d_out).map(|(o, d)| o * d).sum();
        weighted.backward();
        model.backward(&x, &d_out);
        let engine: Vec<f64> = params.iter().map(Value::grad).collect();
        assert_all_near(&format!("{activation:?}"), &model.grads(), &engine, 1e-12);
    }
}
