//! When output is coloured: `--color always|never`, or in `auto` what the environment says,
//! by the conventions other command-line tools follow:
//!
//! - `NO_COLOR` (no-color.org) set and not empty: no colour. An empty `NO_COLOR=` is unset.
//! - `FORCE_COLOR` (force-color.org) set and not empty, whatever its value, or
//!   `CLICOLOR_FORCE` (bixense.com/clicolors) set and not `0`: colour, terminal or not.
//! - `CLICOLOR=0`: no colour.
//! - Otherwise colour when the stream is a terminal.
//!
//! The flag beats the environment; `NO_COLOR` beats the variables that force colour.

use crate::cli::ColorChoice;
use std::ffi::OsString;

/// Whether to colour a stream that `is_terminal` (or not), reading variables through `env`.
pub fn enabled(
    choice: ColorChoice,
    is_terminal: bool,
    env: impl Fn(&str) -> Option<OsString>,
) -> bool {
    let non_empty = |name: &str| env(name).is_some_and(|v| !v.is_empty());
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto if non_empty("NO_COLOR") => false,
        ColorChoice::Auto
            if non_empty("FORCE_COLOR")
                || env("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0") =>
        {
            true
        }
        ColorChoice::Auto if env("CLICOLOR").is_some_and(|v| v == "0") => false,
        ColorChoice::Auto => is_terminal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ColorChoice::*;

    fn with<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    fn the_flag_beats_the_environment() {
        assert!(enabled(Always, false, with(&[("NO_COLOR", "1")])));
        assert!(!enabled(Never, true, with(&[("FORCE_COLOR", "1")])));
    }

    #[test]
    fn no_color_counts_only_when_not_empty() {
        assert!(!enabled(Auto, true, with(&[("NO_COLOR", "1")])));
        assert!(enabled(Auto, true, with(&[("NO_COLOR", "")])));
        assert!(!enabled(Auto, false, with(&[("NO_COLOR", "")])));
    }

    #[test]
    fn force_color_and_clicolor_force_colour_any_stream() {
        assert!(enabled(Auto, false, with(&[("FORCE_COLOR", "1")])));
        assert!(
            enabled(Auto, false, with(&[("FORCE_COLOR", "0")])),
            "any value"
        );
        assert!(!enabled(Auto, false, with(&[("FORCE_COLOR", "")])));
        assert!(enabled(Auto, false, with(&[("CLICOLOR_FORCE", "1")])));
        assert!(!enabled(Auto, false, with(&[("CLICOLOR_FORCE", "0")])));
        assert!(
            !enabled(Auto, true, with(&[("FORCE_COLOR", "1"), ("NO_COLOR", "1")])),
            "NO_COLOR wins"
        );
    }

    #[test]
    fn clicolor_zero_and_pipes_are_plain() {
        assert!(!enabled(Auto, true, with(&[("CLICOLOR", "0")])));
        assert!(enabled(Auto, true, with(&[("CLICOLOR", "1")])));
        assert!(!enabled(Auto, false, with(&[])));
        assert!(enabled(Auto, true, with(&[])));
    }
}
