//! Bad inputs.

use super::*;

fn small_mlp() -> Mlp {
    Mlp::new(2, &[3, 1], Activation::Relu, 70)
}

#[test]
#[should_panic(expected = "the network takes 2 inputs but was given 3")]
fn forward_with_too_many_inputs_panics() {
    small_mlp().forward(&[0.1, 0.2, 0.3]);
}

#[test]
#[should_panic(expected = "the network takes 2 inputs but was given 1")]
fn forward_with_too_few_inputs_panics() {
    small_mlp().forward(&[0.1]);
}

#[test]
#[should_panic(expected = "the network takes 2 inputs but was given 3")]
fn backward_with_the_wrong_input_size_panics() {
    small_mlp().backward(&[0.1, 0.2, 0.3], &[1.0]);
}

#[test]
#[should_panic(expected = "the network has 1 outputs but d_out has 2 entries")]
fn backward_with_the_wrong_output_gradient_size_panics() {
    small_mlp().backward(&[0.1, 0.2], &[1.0, 1.0]);
}

#[test]
#[should_panic(expected = "the network takes 2 inputs but was given 3")]
fn train_loss_with_the_wrong_point_size_panics() {
    small_mlp().train_loss(&[[0.1, 0.2, 0.3]], &[1.0], Loss::Hinge, 0.0);
}

#[test]
#[should_panic(expected = "Hinge loss: label 1 is 0.5, expected -1 or +1")]
fn hinge_with_a_label_of_one_half_panics() {
    small_mlp().train_loss(&[[0.1, 0.2], [0.3, 0.4]], &[1.0, 0.5], Loss::Hinge, 0.0);
}

#[test]
#[should_panic(expected = "Logistic loss: label 0 is 0, expected -1 or +1")]
fn logistic_with_a_label_of_zero_panics() {
    small_mlp().train_loss(&[[0.1, 0.2]], &[0.0], Loss::Logistic, 0.0);
}

#[test]
#[should_panic(expected = "Squared loss: label 0 is NaN, expected a finite number")]
fn squared_error_with_a_nan_target_panics() {
    small_mlp().train_loss(&[[0.1, 0.2]], &[f64::NAN], Loss::Squared, 0.0);
}

#[test]
fn a_rejected_label_leaves_the_gradients_untouched() {
    let mut model = small_mlp();
    let before = model.clone();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        model.train_loss(&[[0.1, 0.2], [0.3, 0.4]], &[1.0, 2.0], Loss::Hinge, 1e-4)
    }));
    assert!(result.is_err(), "a label 2 for the hinge loss was accepted");
    assert_eq!(model, before);
    // `==` compares the models; the gradients are compared on their own.
    assert_eq!(model.grads(), before.grads());
}

#[test]
#[should_panic(expected = "3 points but 2 labels")]
fn train_loss_with_more_points_than_labels_panics() {
    small_mlp().train_loss(
        &[[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]],
        &[1.0, -1.0],
        Loss::Hinge,
        0.0,
    );
}

#[test]
#[should_panic(expected = "train_loss needs at least one point")]
fn train_loss_without_points_panics() {
    small_mlp().train_loss::<[f64; 2]>(&[], &[], Loss::Hinge, 0.0);
}

#[test]
#[should_panic(expected = "train_loss needs one output, the network has [3, 2]")]
fn train_loss_of_a_network_with_two_outputs_panics() {
    let mut model = Mlp::new(2, &[3, 2], Activation::Relu, 71);
    model.train_loss(&[[0.1, 0.2]], &[1.0], Loss::Hinge, 0.0);
}

#[test]
#[should_panic(expected = "expected 13 parameters, got 12")]
fn mlp_set_parameters_of_the_wrong_length_panics() {
    small_mlp().set_parameters(&[0.0; 12]);
}

#[test]
#[should_panic(expected = "expected 9 parameters, got 10")]
fn layer_set_parameters_of_the_wrong_length_panics() {
    Layer::new(2, 3, Activation::Tanh, &mut PythonRandom::new(72)).set_parameters(&[0.0; 10]);
}

#[test]
#[should_panic(expected = "expected 3 parameters, got 2")]
fn neuron_set_parameters_of_the_wrong_length_panics() {
    neuron(&[1.0, 2.0], 0.0, Activation::Linear).set_parameters(&[0.0; 2]);
}

#[test]
#[should_panic(
    expected = "an Mlp needs inputs and non-empty layers, got 2 inputs and layers [3, 0, 1]"
)]
fn mlp_with_an_empty_layer_panics() {
    Mlp::new(2, &[3, 0, 1], Activation::Relu, 73);
}
