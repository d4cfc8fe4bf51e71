//! The command line, read by hand: a handful of `--name value` options do not need a parser
//! crate, and the main job then compiles only what it runs.

use std::path::PathBuf;

/// What `--help` prints.
pub const HELP: &str = "\
micrograd's demo, number for number: an MLP learns to separate two moons.

Trains micrograd's MLP(2, [16, 16, 1]) after random.seed(1337) on scikit-learn's
make_moons(n_samples=100, noise=0.1) after np.random.seed(1337), with the mean hinge loss
plus 1e-4 L2 and 100 full-batch SGD steps at lr = 1.0 - 0.9 k / 100, printing each step's
loss and accuracy as micrograd's notebook does; then draws the decision boundary, the data
and the training curves as SVG.

Usage: cargo run --release --example moons -- [OPTIONS]

Options:
      --seed N          seed of the data (np.random.seed) and of the weights (random.seed) [default: 1337]
      --samples N       number of points [default: 100]
      --noise X         standard deviation of the noise added to the points [default: 0.1]
      --hidden N,N,...  hidden layer sizes (ReLU); a linear output neuron follows [default: 16,16]
      --steps N         full-batch SGD steps [default: 100]
      --lr X            learning rate at step 0; it decays linearly to a tenth of it [default: 1.0]
      --output FILE     where to write the picture [default: moons.svg for micrograd's demo;
                        with any other option, micrograd-moons.svg in the temporary directory,
                        so that moons.svg always shows the demo]
  -h, --help            print this help
";

/// The one-line reminder printed after a mistake.
pub const USAGE: &str = "Usage: cargo run --release --example moons -- [--seed N] [--samples N] \
[--noise X] [--hidden N,N,...] [--steps N] [--lr X] [--output FILE]; --help says more";

/// The options that take a value, as `--name value` or `--name=value`.
const OPTIONS: [&str; 7] = [
    "--seed",
    "--samples",
    "--noise",
    "--hidden",
    "--steps",
    "--lr",
    "--output",
];

/// The settings of one run.
#[derive(Debug, Clone, PartialEq)]
pub struct Args {
    pub seed: u64,
    pub samples: usize,
    pub noise: f64,
    pub hidden: Vec<usize>,
    pub steps: usize,
    pub lr: f64,
    pub output: Option<PathBuf>,
}

impl Default for Args {
    /// micrograd's demo.
    fn default() -> Args {
        Args {
            seed: 1337,
            samples: 100,
            noise: 0.1,
            hidden: vec![16, 16],
            steps: 100,
            lr: 1.0,
            output: None,
        }
    }
}

impl Args {
    /// Reads the options; `Ok(None)` when `--help` asks for the help instead of a run.
    pub fn parse(mut words: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
        let mut args = Args::default();
        while let Some(word) = words.next() {
            if word == "-h" || word == "--help" {
                return Ok(None);
            }
            let (name, inline) = match word.split_once('=') {
                Some((name, value)) => (name.to_string(), Some(value.to_string())),
                None => (word, None),
            };
            if !name.starts_with("--") {
                return Err(format!(
                    "unexpected argument `{name}`: every option is `--name value`"
                ));
            }
            if !OPTIONS.contains(&name.as_str()) {
                return Err(format!("unknown option `{name}`"));
            }
            let value = match inline.or_else(|| words.next()) {
                Some(value) => value,
                None => return Err(format!("`{name}` needs a value")),
            };
            args.set(&name, &value)?;
        }
        args.check()?;
        Ok(Some(args))
    }

    /// Whether these are micrograd's settings (whatever `--output`): the run then prints the
    /// notebook's lines, digit for digit.
    pub fn is_micrograds_demo(&self) -> bool {
        let output = None;
        Args {
            output,
            ..self.clone()
        } == Args::default()
    }

    /// Where the picture goes: `--output`, else `moons.svg` for the demo itself, else a file in
    /// the temporary directory, so that another run never overwrites the tracked `moons.svg`.
    pub fn picture(&self) -> PathBuf {
        match &self.output {
            Some(path) => path.clone(),
            None if *self == Args::default() => PathBuf::from("moons.svg"),
            None => std::env::temp_dir().join("micrograd-moons.svg"),
        }
    }

    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "--seed" => self.seed = number(name, value)?,
            "--samples" => self.samples = number(name, value)?,
            "--noise" => self.noise = number(name, value)?,
            "--hidden" => {
                let sizes = value.split(',').map(|size| number(name, size.trim()));
                self.hidden = sizes.collect::<Result<_, _>>()?;
            }
            "--steps" => self.steps = number(name, value)?,
            "--lr" => self.lr = number(name, value)?,
            "--output" => self.output = Some(PathBuf::from(value)),
            _ => unreachable!("`{name}` is in OPTIONS but not handled"),
        }
        Ok(())
    }

    fn check(&self) -> Result<(), String> {
        if self.samples == 0 {
            return Err("`--samples` must be at least 1".into());
        }
        if !(self.noise >= 0.0 && self.noise.is_finite()) {
            return Err(format!(
                "`--noise` must be finite and >= 0, got {}",
                self.noise
            ));
        }
        if self.hidden.contains(&0) {
            return Err("`--hidden` sizes must be at least 1".into());
        }
        if !self.lr.is_finite() {
            return Err(format!("`--lr` must be finite, got {}", self.lr));
        }
        Ok(())
    }
}

fn number<T: std::str::FromStr>(name: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("`{name}` takes a number, got `{value}`"))
}
