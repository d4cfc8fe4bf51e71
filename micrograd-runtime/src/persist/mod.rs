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
//!
//! Three ways in and out, one format:
//! - a file: [`Mlp::save`] and [`Mlp::load`], whose [`PersistError`] names the file;
//! - any [`Write`](std::io::Write) or [`Read`](std::io::Read): [`Mlp::to_writer`] and [`Mlp::from_reader`], with
//!   serde_json's error (which tells an I/O error from a syntax or data error);
//! - serde: `Mlp` is [`Serialize`] and [`Deserialize`], so a model lives inside a struct of
//!   your own, in JSON or any serde format.
//!
//! ```
//! use micrograd_runtime::nn::{Activation, Mlp};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize)]
//! struct Checkpoint {
//!     step: usize,
//!     model: Mlp,
//! }
//!
//! let checkpoint = Checkpoint { step: 40, model: Mlp::new(2, &[4, 1], Activation::Tanh, 1) };
//! let text = serde_json::to_string(&checkpoint)?;
//! let back: Checkpoint = serde_json::from_str(&text)?;
//! assert_eq!((back.step, &back.model), (40, &checkpoint.model));
//! # Ok::<(), serde_json::Error>(())
//! ```

mod stream;

/// What [`Mlp::to_writer`] and [`Mlp::from_reader`] return when they fail: serde_json's error
/// (I/O, syntax or data; `is_io`, `is_syntax`, `is_data` tell which).
///
/// Only this type is re-exported, not all of serde_json: a public `serde_json` module would put
/// its `Value` beside [`crate::Value`] and make rustc print `micrograd_runtime::Value` and
/// `std::string::String` in full in every user's error messages.
pub use serde_json::Error as JsonError;

use crate::nn::{Activation, Mlp, Module};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

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

/// Why a network could not be saved or loaded. Every variant names the file, as a [`PathBuf`].
///
/// ```
/// use micrograd_runtime::nn::Mlp;
/// use micrograd_runtime::persist::PersistError;
///
/// let path = std::env::temp_dir().join("micrograd-rs-doc-no-such-file.json");
/// match Mlp::load(&path) {
///     Err(PersistError::Io { path: file, source }) => {
///         assert_eq!(file, path);
///         assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
///     }
///     other => panic!("expected an io error, got {other:?}"),
/// }
/// ```
#[derive(Debug)]
pub enum PersistError {
    /// The file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is not a saved network.
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A parameter is NaN or infinite, which JSON cannot hold: the network diverged.
    NotFinite {
        /// The file.
        path: PathBuf,
        /// Which parameter, in [`Module::parameters`] order.
        index: usize,
        /// Its value.
        value: f64,
    },
    /// The network is not one [`Mlp::load`] can rebuild (no layers, an empty layer, layers
    /// whose sizes do not chain, or activations other than one hidden activation and a linear
    /// output), so it is not written: `save` refuses what `load` would refuse.
    Unsupported {
        /// The file.
        path: PathBuf,
        /// What `load` could not rebuild.
        reason: String,
    },
    /// The file holds a network of another shape.
    Shape {
        /// The file.
        path: PathBuf,
        /// The shape of the network being loaded into.
        expected: String,
        /// The shape in the file.
        found: String,
    },
}

impl fmt::Display for PersistError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PersistError::Io { path, source } => {
                write!(f, "cannot access {}: {source}", path.display())
            }
            PersistError::Format { path, reason } => write!(
                f,
                "{} is not a saved micrograd-rs network: {reason}",
                path.display()
            ),
            PersistError::NotFinite { path, index, value } => write!(
                f,
                "cannot save to {}: parameter {index} is {value}, and a saved network holds finite numbers only",
                path.display()
            ),
            PersistError::Unsupported { path, reason } => write!(
                f,
                "cannot save to {}: {reason}, so loading the file could not rebuild this network",
                path.display()
            ),
            PersistError::Shape {
                path,
                expected,
                found,
            } => write!(
                f,
                "{} holds a network of shape {found}, expected {expected}",
                path.display()
            ),
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
    ///
    /// # Errors
    /// [`PersistError::NotFinite`] for a NaN or infinite parameter, [`PersistError::Unsupported`]
    /// for a network [`Mlp::load`] could not rebuild, [`PersistError::Io`] if the file cannot be
    /// written.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), PersistError> {
        let path = path.as_ref();
        let saved = stream::saved(self).map_err(|refusal| refusal.at(path))?;
        let text =
            serde_json::to_string_pretty(&saved).map_err(|e| format_error(path, e.to_string()))?;
        std::fs::write(path, text).map_err(|source| PersistError::Io {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Reads a network saved by [`Mlp::save`].
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Mlp};
    ///
    /// let path = std::env::temp_dir().join("micrograd-rs-doc-load.json");
    /// Mlp::new(3, &[8, 1], Activation::Relu, 1).save(&path)?;
    /// let model = Mlp::load(&path)?;
    /// assert_eq!((model.inputs(), model.sizes()), (3, vec![8, 1]));
    /// # Ok::<(), micrograd_runtime::persist::PersistError>(())
    /// ```
    ///
    /// # Errors
    /// [`PersistError::Io`] if the file cannot be read, [`PersistError::Format`] if it does not
    /// hold a saved network.
    pub fn load(path: impl AsRef<Path>) -> Result<Mlp, PersistError> {
        let path = path.as_ref();
        build(&read(path)?).map_err(|reason| format_error(path, reason))
    }

    /// Replaces this network's parameters with those saved in `path`, which must hold a network
    /// of the same shape. On any error the network is left as it was.
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Mlp, Module};
    ///
    /// let path = std::env::temp_dir().join("micrograd-rs-doc-load-parameters.json");
    /// let trained = Mlp::new(2, &[4, 1], Activation::Tanh, 3);
    /// trained.save(&path)?;
    /// let mut model = Mlp::new(2, &[4, 1], Activation::Tanh, 4);
    /// model.load_parameters(&path)?;
    /// assert_eq!(model.parameters(), trained.parameters());
    /// # Ok::<(), micrograd_runtime::persist::PersistError>(())
    /// ```
    ///
    /// # Errors
    /// As [`Mlp::load`], and [`PersistError::Shape`] if the file holds another shape.
    pub fn load_parameters(&mut self, path: impl AsRef<Path>) -> Result<(), PersistError> {
        let path = path.as_ref();
        let saved = read(path)?;
        let found = shape(saved.inputs, &saved.sizes, &saved.activation);
        let expected = shape(self.inputs(), &self.sizes(), self.activation().name());
        if found != expected {
            return Err(PersistError::Shape {
                path: path.to_path_buf(),
                expected,
                found,
            });
        }
        count_matches(&saved).map_err(|reason| format_error(path, reason))?;
        self.set_parameters(&saved.parameters);
        Ok(())
    }
}

fn read(path: &Path) -> Result<Saved, PersistError> {
    let text = std::fs::read_to_string(path).map_err(|source| PersistError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let saved: Saved =
        serde_json::from_str(&text).map_err(|e| format_error(path, e.to_string()))?;
    check_format(&saved).map_err(|reason| format_error(path, reason))?;
    Ok(saved)
}

fn check_format(saved: &Saved) -> Result<(), String> {
    if saved.format != FORMAT || saved.version != VERSION {
        return Err(format!(
            "its format is `{}` version {}, expected `{FORMAT}` version {VERSION}",
            saved.format, saved.version
        ));
    }
    Ok(())
}

/// The network `saved` describes, or why it describes none. Both `load` and `save` ask it, so
/// `save` never writes a file `load` rejects.
fn build(saved: &Saved) -> Result<Mlp, String> {
    let activation = parse_activation(&saved.activation)
        .ok_or_else(|| format!("unknown activation `{}`", saved.activation))?;
    if saved.inputs == 0 || saved.sizes.is_empty() || saved.sizes.contains(&0) {
        return Err("a network needs inputs and non-empty layers".into());
    }
    count_matches(saved)?;
    // Any seed: the weights it draws are overwritten at once by the saved ones.
    let mut model = Mlp::new(saved.inputs, &saved.sizes, activation, 0);
    model.set_parameters(&saved.parameters);
    Ok(model)
}

/// What makes `model` other than `rebuilt` (its rebuilt-from-file twin), beyond the gradients:
/// another activation somewhere. (Layers that do not chain, empty or ragged layers cannot be
/// made: `Mlp::from_layers` and `Layer::from_neurons` refuse them.)
fn differs(rebuilt: &Mlp, model: &Mlp) -> Option<String> {
    let layers = rebuilt.layers.iter().zip(&model.layers).enumerate();
    for (i, (want, have)) in layers {
        if want.activation != have.activation {
            let (a, b) = (have.activation.name(), want.activation.name());
            return Some(format!(
                "layer {i} is {a} where a saved network has {b}: one hidden activation, a linear output"
            ));
        }
    }
    None
}

/// The shape must account for the parameters listed before anything is allocated for it: a
/// corrupt size would otherwise ask for more memory than the machine has.
fn count_matches(saved: &Saved) -> Result<(), String> {
    match parameter_count(saved.inputs, &saved.sizes) {
        Some(count) if count == saved.parameters.len() => Ok(()),
        count => {
            let shape = shape(saved.inputs, &saved.sizes, &saved.activation);
            let needs =
                count.map_or_else(|| "more than any machine holds".into(), |c| c.to_string());
            Err(format!(
                "it lists {} parameters, its shape {shape} has {needs}",
                saved.parameters.len()
            ))
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
    [
        Activation::Relu,
        Activation::Tanh,
        Activation::Sigmoid,
        Activation::Linear,
    ]
    .into_iter()
    .find(|a| a.name() == name)
}

fn format_error(path: &Path, reason: String) -> PersistError {
    PersistError::Format {
        path: path.to_path_buf(),
        reason,
    }
}
