//! Which backend evaluates a model: `fp32` (`forward`, the reference, on
//! every CPU), `winograd` (`winograd`, fp32 with the blocks' convolutions
//! by Winograd's F(4x4, 3x3), AVX2 where the CPU has it, on every CPU),
//! `bf16` (`bf16`, AMX tiles where the CPU has them) or `auto`, the
//! fastest that runs here and runs the model (bf16, else winograd, else
//! fp32). Chosen once
//! a process, by `--backend` or else the `HANE_BACKEND` environment
//! variable (so that CI can force the fp32 fallback on a CPU that has the
//! faster instructions), `auto` by default.

use std::sync::OnceLock;

use super::evaluator::Evaluator;
use super::forward::Network;
use super::model::Model;
use super::winograd::WinogradNetwork;

/// A backend a user may ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Fp32,
    Winograd,
    Bf16,
    Auto,
}

impl Backend {
    /// The backend named `name` (fp32, winograd, bf16 or auto), or why not.
    pub fn parse(name: &str) -> Result<Backend, String> {
        match name {
            "fp32" => Ok(Backend::Fp32),
            "winograd" => Ok(Backend::Winograd),
            "bf16" => Ok(Backend::Bf16),
            "auto" => Ok(Backend::Auto),
            _ => Err(format!(
                "backend {name:?}: expected fp32, winograd, bf16 or auto"
            )),
        }
    }

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Fp32 => "fp32",
            Backend::Winograd => "winograd",
            Backend::Bf16 => "bf16",
            Backend::Auto => "auto",
        }
    }

    /// Whether this CPU runs it, and if not, what it lacks.
    pub fn runs_here(self) -> Result<(), String> {
        match self {
            Backend::Bf16 if !bf16_available() => Err(
                "backend bf16: this CPU lacks Intel AMX (amx-bf16 and amx-tile), or the kernel \
                 does not grant its tiles; use --backend fp32 or auto"
                    .to_string(),
            ),
            _ => Ok(()),
        }
    }
}

fn bf16_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        super::amx::available()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

static CHOSEN: OnceLock<Backend> = OnceLock::new();

/// Sets the process's backend (`--backend`), refused where this CPU cannot
/// run it; once, before the first evaluator is made.
pub fn choose_backend(name: &str) -> Result<(), String> {
    let backend = Backend::parse(name)?;
    backend.runs_here()?;
    if CHOSEN.get() == Some(&backend) {
        return Ok(());
    }
    CHOSEN
        .set(backend)
        .map_err(|_| "the backend is chosen once, before the network is loaded".to_string())
}

/// The process's backend: `--backend`'s, else `HANE_BACKEND`'s (a value
/// that is not a backend, or one this CPU cannot run, is logged and auto
/// taken), else auto.
fn chosen() -> Backend {
    *CHOSEN.get_or_init(|| {
        let Ok(name) = std::env::var("HANE_BACKEND") else {
            return Backend::Auto;
        };
        match Backend::parse(&name).and_then(|b| b.runs_here().map(|()| b)) {
            Ok(backend) => backend,
            Err(why) => {
                log::warn!("HANE_BACKEND: {why}: taking auto");
                Backend::Auto
            }
        }
    })
}

/// `model` on `backend`, or why it cannot run there: bf16 where the CPU or
/// the model does not allow it, winograd where the model does not; auto
/// then falls back to the next fastest.
pub fn build_on(backend: Backend, model: Model) -> Result<Box<dyn Evaluator>, String> {
    match backend {
        Backend::Fp32 => Ok(Box::new(Network::new(model))),
        Backend::Winograd => Ok(Box::new(WinogradNetwork::new(model)?)),
        Backend::Bf16 => {
            backend.runs_here()?;
            bf16_backend(model)
        }
        Backend::Auto if bf16_available() && bf16_runs(&model) => bf16_backend(model),
        Backend::Auto if WinogradNetwork::runs(&model) => {
            Ok(Box::new(WinogradNetwork::new(model)?))
        }
        Backend::Auto => Ok(Box::new(Network::new(model))),
    }
}

/// `model` on the process's backend.
pub(super) fn build(model: Model) -> Result<Box<dyn Evaluator>, String> {
    build_on(chosen(), model)
}

/// The shipped network on `backend` (what a benchmark times).
pub fn shipped_on(backend: Backend) -> Result<Box<dyn Evaluator>, String> {
    build_on(backend, Model::shipped())
}

/// The backend names that run `model` here, fastest first: what a
/// benchmark times.
pub fn backends_here() -> Vec<Backend> {
    let mut here = vec![Backend::Winograd, Backend::Fp32];
    if bf16_available() {
        here.insert(0, Backend::Bf16);
    }
    here
}

fn bf16_runs(model: &Model) -> bool {
    model.blocks.iter().all(|b| b.pooling.is_none())
}

#[cfg(target_arch = "x86_64")]
fn bf16_backend(model: Model) -> Result<Box<dyn Evaluator>, String> {
    Ok(Box::new(super::bf16::Bf16Network::new(model)?))
}

#[cfg(not(target_arch = "x86_64"))]
fn bf16_backend(_: Model) -> Result<Box<dyn Evaluator>, String> {
    Err(Backend::Bf16.runs_here().err().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backends_are_named_and_one_the_cpu_lacks_is_refused_with_what_it_lacks() {
        assert_eq!(Backend::parse("fp32"), Ok(Backend::Fp32));
        assert_eq!(Backend::parse("auto"), Ok(Backend::Auto));
        assert!(Backend::parse("gpu")
            .unwrap_err()
            .contains("fp32, winograd, bf16 or auto"));
        assert_eq!(Backend::Fp32.runs_here(), Ok(()));
        match Backend::Bf16.runs_here() {
            Ok(()) => assert!(bf16_available()),
            Err(why) => assert!(why.contains("AMX"), "{why}"),
        }
        assert_eq!(Backend::parse("winograd"), Ok(Backend::Winograd));
        assert_eq!(Backend::Winograd.runs_here(), Ok(()));
        // fp32 and winograd always build, and auto builds on every CPU.
        let fp32 = build_on(Backend::Fp32, Model::shipped()).expect("fp32");
        let winograd = build_on(Backend::Winograd, Model::shipped()).expect("winograd");
        let auto = build_on(Backend::Auto, Model::shipped()).expect("auto");
        assert_eq!(fp32.description(), auto.description());
        assert_eq!(fp32.description(), winograd.description());
        assert_eq!(
            backends_here(),
            if bf16_available() {
                vec![Backend::Bf16, Backend::Winograd, Backend::Fp32]
            } else {
                vec![Backend::Winograd, Backend::Fp32]
            }
        );
    }
}
