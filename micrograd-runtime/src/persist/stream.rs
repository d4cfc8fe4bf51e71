//! A network through any writer or reader, and through serde: the format of the files.

use super::{FORMAT, PersistError, Saved, VERSION, build, check_format, differs};
use crate::nn::{Mlp, Module};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::io::{Read, Write};
use std::path::Path;

impl Mlp {
    /// Writes the network as [`Mlp::save`] does, to any writer: a buffer, a socket, a
    /// compressed stream. Pass `&mut writer` to keep using it.
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Mlp};
    ///
    /// let model = Mlp::new(2, &[4, 1], Activation::Relu, 7);
    /// let mut bytes = Vec::new();
    /// model.to_writer(&mut bytes)?;
    /// assert!(bytes.starts_with(b"{"));
    /// assert_eq!(Mlp::from_reader(&bytes[..])?, model);
    /// # Ok::<(), micrograd_runtime::persist::JsonError>(())
    /// ```
    ///
    /// # Errors
    /// A data error ([`JsonError::is_data`](super::JsonError::is_data)) for a NaN or infinite parameter or a network
    /// [`Mlp::from_reader`] could not rebuild, an I/O error if the writer fails.
    pub fn to_writer(&self, writer: impl Write) -> Result<(), super::JsonError> {
        serde_json::to_writer_pretty(writer, self)
    }

    /// Reads a network written by [`Mlp::to_writer`] or [`Mlp::save`] from any reader. The
    /// reader is read to its end; wrap a file in a [`std::io::BufReader`].
    ///
    /// ```
    /// use micrograd_runtime::nn::{Activation, Mlp};
    ///
    /// let json = r#"{"format": "micrograd-rs/mlp", "version": 1, "inputs": 1, "sizes": [1],
    ///                "activation": "linear", "parameters": [2.0, 0.5]}"#;
    /// let model = Mlp::from_reader(json.as_bytes())?;
    /// assert_eq!(model.forward(&[3.0]), [6.5]);
    /// assert!(Mlp::from_reader(&b"{}"[..]).unwrap_err().is_data());
    /// # Ok::<(), micrograd_runtime::persist::JsonError>(())
    /// ```
    ///
    /// # Errors
    /// An I/O error if the reader fails, a syntax error for text that is not JSON, a data
    /// error for JSON that is not a saved network.
    pub fn from_reader(reader: impl Read) -> Result<Mlp, super::JsonError> {
        serde_json::from_reader(reader)
    }
}

/// The saved form of this network, or why a file could not rebuild it.
pub(super) fn saved(model: &Mlp) -> Result<Saved, Refusal> {
    let parameters = model.parameters();
    if let Some((index, value)) = parameters.iter().enumerate().find(|(_, p)| !p.is_finite()) {
        return Err(Refusal::NotFinite {
            index,
            value: *value,
        });
    }
    let saved = Saved {
        format: FORMAT.into(),
        version: VERSION,
        inputs: model.inputs(),
        sizes: model.sizes(),
        activation: model.activation().name().into(),
        parameters,
    };
    let rebuilt = build(&saved).map_err(Refusal::Unsupported)?;
    match differs(&rebuilt, model) {
        Some(reason) => Err(Refusal::Unsupported(reason)),
        None => Ok(saved),
    }
}

impl Serialize for Mlp {
    /// The saved form (see [`persist`](crate::persist)); refuses what [`Mlp::save`] refuses.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let saved = saved(self).map_err(serde::ser::Error::custom)?;
        saved.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Mlp {
    /// The network of a saved form, checked as [`Mlp::load`] checks a file.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Mlp, D::Error> {
        let saved = Saved::deserialize(deserializer)?;
        check_format(&saved).map_err(serde::de::Error::custom)?;
        build(&saved).map_err(serde::de::Error::custom)
    }
}

/// Why a network is not written: what [`PersistError::NotFinite`] and
/// [`PersistError::Unsupported`] say without a file.
pub(super) enum Refusal {
    NotFinite { index: usize, value: f64 },
    Unsupported(String),
}

impl Refusal {
    pub(super) fn at(self, path: &Path) -> PersistError {
        let path = path.to_path_buf();
        match self {
            Refusal::NotFinite { index, value } => PersistError::NotFinite { path, index, value },
            Refusal::Unsupported(reason) => PersistError::Unsupported { path, reason },
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NotFinite { index, value } => write!(
                f,
                "parameter {index} is {value}, and a saved network holds finite numbers only"
            ),
            Refusal::Unsupported(reason) => {
                write!(f, "{reason}, so loading could not rebuild this network")
            }
        }
    }
}
