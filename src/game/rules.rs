//! The rules a game is played under, as one value: the superko reading, the
//! suicide option and the komi. The engine sets them, the game applies them
//! to every move, and the search is handed the same value, so that the tree
//! never plays a move the game would refuse.

use super::superko::Superko;

/// Komi when the client has set none: the usual one for area scoring.
pub const DEFAULT_KOMI: f64 = 7.5;

/// The largest komi that still means something: the count of a 25x25
/// board lies within ±625, so a komi past twice that plus one decides every
/// game alone, and a larger one only overflows what analysis prints. GTP's
/// `komi` and an SGF's `KM` are held to it alike.
pub const MAX_KOMI: f64 = 1251.0;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rules {
    /// Which earlier colourings a move may not recreate.
    pub superko: Superko,
    /// Whether a move may clear the mover's own string of two or more
    /// stones: Tromp-Taylor allows it (the default); GNU Go's rules and
    /// most others do not (`--no-suicide`). A one-stone suicide changes
    /// only the turn, and the game refuses it under every rule.
    pub allow_suicide: bool,
    /// Points added to White's count.
    pub komi: f64,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            superko: Superko::Positional,
            allow_suicide: true,
            komi: DEFAULT_KOMI,
        }
    }
}

impl Rules {
    /// The same rules with another komi.
    pub fn with_komi(self, komi: f64) -> Rules {
        Rules { komi, ..self }
    }
}

impl std::fmt::Display for Rules {
    /// The rules in force, as printsgf's RU and the start-up log write them:
    /// `Tromp-Taylor, positional superko, suicide allowed`. SGF's RU is
    /// free text; the name comes first so that a reader that knows
    /// Tromp-Taylor by name sees it at once. The komi is KM's, not RU's.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let suicide = if self.allow_suicide {
            "allowed"
        } else {
            "forbidden"
        };
        write!(
            f,
            "Tromp-Taylor, {} superko, suicide {suicide}",
            self.superko
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_text_names_superko_and_suicide() {
        let rules = Rules::default();
        assert_eq!(
            rules.to_string(),
            "Tromp-Taylor, positional superko, suicide allowed"
        );
        let other = Rules {
            superko: Superko::Situational,
            allow_suicide: false,
            komi: 0.5,
        };
        assert_eq!(
            other.to_string(),
            "Tromp-Taylor, situational superko, suicide forbidden"
        );
    }
}
