//! Saving and loading a trained [`Mlp`] as JSON.
//!
//! The format is one JSON object:
//!
//! ```json
//! { "format": "micrograd-rs/mlp", "version": 1, "inputs": 2, "sizes": [16, 16, 1],
//!   "activation": "relu", "parameters": [0.123, -0.456, ...] }
//! ```
//!
//! `parameters` lists each layer's neurons in order, each neuron's weights then its bias (the
//! order of [`Module::parameters`]). Numbers are written so that reading them back gives the
//! same bits: a round trip is exact.

use crate::nn::{Activation, Mlp, Module};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

const FORMAT: &str = "micrograd-rs/mlp";
const VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
struct Saved {
    format: String,
    version: u32,
    inputs: usize,
    sizes: Vec<usize>,
    activation: String,
    parameters: Vec<f64>,
}

/// Why a network could not be saved or loaded.
#[derive(Debug)]
pub enum PersistError {
    /// The file could not be read or written.
    Io {
        /// The file.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is not a saved network.
    Format {
        /// The file.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A parameter is NaN or infinite, which JSON cannot hold: the network diverged.
    NotFinite {
        /// The file.
        path: String,
        /// Which parameter, in [`Module::parameters`] order.
        index: usize,
        /// Its value.
        value: f64,
    },
    /// The file holds a network of another shape.
    Shape {
        /// The file.
        path: String,
        /// The shape of the network being loaded into.
        expected: String,
        /// The shape in the file.
        found: String,
    },
}

impl fmt::Display for PersistError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PersistError::Io { path, source } => write!(f, "cannot access {path}: {source}"),
            PersistError::Format { path, reason } => {
                write!(f, "{path} is not a saved micrograd-rs network: {reason}")
            }
            PersistError::NotFinite { path, index, value } => write!(
                f,
                "cannot save to {path}: parameter {index} is {value}, and a saved network holds finite numbers only"
            ),
            PersistError::Shape {
                path,
                expected,
                found,
            } => {
                write!(
                    f,
                    "{path} holds a network of shape {found}, expected {expected}"
                )
            }
        }
    }
}

impl std::error::Error for PersistError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PersistError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl Mlp {
    /// Writes the network to `path` as JSON.
    ///
    /// ```
    /// # use micrograd_runtime::nn::{Activation, Mlp, Module};
    /// let model = Mlp::new(2, &[4, 1], Activation::Tanh, 7);
    /// let path = std::env::temp_dir().join("micrograd-rs-doc-save.json");
    /// model.save(&path)?;
    /// let loaded = Mlp::load(&path)?;
    /// assert_eq!(loaded, model); // bit for bit
    /// # Ok::<(), micrograd_runtime::persist::PersistError>(())
    /// ```
    pub fn save(&self, path: &Path) -> Result<(), PersistError> {
        let parameters = self.parameters();
        if let Some((index, value)) = parameters.iter().enumerate().find(|(_, p)| !p.is_finite()) {
            return Err(PersistError::NotFinite {
                path: path.display().to_string(),
                index,
                value: *value,
            });
        }
        let saved = Saved {
            format: FORMAT.into(),
            version: VERSION,
            inputs: self.inputs(),
            sizes: self.sizes(),
            activation: self.activation().name().into(),
            parameters,
        };
        let text =
            serde_json::to_string_pretty(&saved).map_err(|e| format_error(path, e.to_string()))?;
        std::fs::write(path, text).map_err(|source| PersistError::Io {
            path: path.display().to_string(),
            source,
        })
    }

    /// Reads a network saved by [`Mlp::save`].
    pub fn load(path: &Path) -> Result<Mlp, PersistError> {
        let saved = read(path)?;
        let activation = parse_activation(&saved.activation).ok_or_else(|| {
            format_error(path, format!("unknown activation `{}`", saved.activation))
        })?;
        if saved.inputs == 0 || saved.sizes.is_empty() || saved.sizes.contains(&0) {
            return Err(format_error(
                path,
                "a network needs inputs and non-empty layers".into(),
            ));
        }
        check_count(path, &saved)?;
        // Any seed: the weights it draws are overwritten at once by the saved ones.
        let mut model = Mlp::new(saved.inputs, &saved.sizes, activation, 0);
        model.set_parameters(&saved.parameters);
        Ok(model)
    }

    /// Replaces this network's parameters with those saved in `path`, which must hold a network
    /// of the same shape. On any error the network is left as it was.
    pub fn load_parameters(&mut self, path: &Path) -> Result<(), PersistError> {
        let saved = read(path)?;
        let found = shape(saved.inputs, &saved.sizes, &saved.activation);
        let expected = shape(self.inputs(), &self.sizes(), self.activation().name());
        if found != expected {
            return Err(PersistError::Shape {
                path: path.display().to_string(),
                expected,
                found,
            });
        }
        check_count(path, &saved)?;
        self.set_parameters(&saved.parameters);
        Ok(())
    }
}

fn read(path: &Path) -> Result<Saved, PersistError> {
    let text = std::fs::read_to_string(path).map_err(|source| PersistError::Io {
        path: path.display().to_string(),
        source,
    })?;
    let saved: Saved =
        serde_json::from_str(&text).map_err(|e| format_error(path, e.to_string()))?;
    if saved.format != FORMAT || saved.version != VERSION {
        let reason = format!(
            "its format is `{}` version {}, expected `{FORMAT}` version {VERSION}",
            saved.format, saved.version
        );
        return Err(format_error(path, reason));
    }
    Ok(saved)
}

/// The shape must account for the parameters listed before anything is allocated for it: a
/// corrupt size would otherwise ask for more memory than the machine has.
fn check_count(path: &Path, saved: &Saved) -> Result<(), PersistError> {
    match parameter_count(saved.inputs, &saved.sizes) {
        Some(count) if count == saved.parameters.len() => Ok(()),
        count => {
            let shape = shape(saved.inputs, &saved.sizes, &saved.activation);
            let needs =
                count.map_or_else(|| "more than any machine holds".into(), |c| c.to_string());
            let reason = format!(
                "it lists {} parameters, its shape {shape} has {needs}",
                saved.parameters.len()
            );
            Err(format_error(path, reason))
        }
    }
}

/// `Σ (fan_in + 1) · size` over the layers, or `None` if it overflows.
fn parameter_count(inputs: usize, sizes: &[usize]) -> Option<usize> {
    let mut fan_in = inputs;
    let mut count: usize = 0;
    for &size in sizes {
        count = count.checked_add(fan_in.checked_add(1)?.checked_mul(size)?)?;
        fan_in = size;
    }
    Some(count)
}

fn shape(inputs: usize, sizes: &[usize], activation: &str) -> String {
    let sizes: Vec<String> = sizes.iter().map(ToString::to_string).collect();
    format!("{inputs}-{} ({activation})", sizes.join("-"))
}

fn parse_activation(name: &str) -> Option<Activation> {
    [Activation::Relu, Activation::Tanh, Activation::Linear]
        .into_iter()
        .find(|a| a.name() == name)
}

fn format_error(path: &Path, reason: String) -> PersistError {
    PersistError::Format {
        path: path.display().to_string(),
        reason,
    }
}
