//! `--package ECOSYSTEM:NAME@VERSION`: the package that ran, as an observation names it
//! (`npm:@continuedev/cli@1.5.47`, `pypi:fast-agent-mcp@0.10.48`). The name must be one its
//! registry allows and the version a SemVer (npm) or PEP 440 (PyPI) version: what reaches the
//! observation is checked, never taken on trust.

use serde::Serialize;

/// A check of a name or version.
type Check = fn(&str) -> bool;

/// A package: its registry, name and version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Package {
    pub ecosystem: &'static str,
    pub name: String,
    pub version: String,
}

impl std::str::FromStr for Package {
    type Err = String;

    /// `npm:@scope/name@1.2.3` or `pypi:name@1.2.3`.
    fn from_str(text: &str) -> Result<Package, String> {
        let usage = "write ECOSYSTEM:NAME@VERSION, e.g. npm:@continuedev/cli@1.5.47 or \
                     pypi:fast-agent-mcp@0.10.48";
        let (ecosystem, rest) = text
            .split_once(':')
            .ok_or_else(|| format!("`{text}` names no ecosystem: {usage}"))?;
        let (name, version) = rest
            .rsplit_once('@')
            .filter(|(name, _)| !name.is_empty())
            .ok_or_else(|| format!("`{text}` names no version: {usage}"))?;
        let (ecosystem, name_ok, version_ok, kind): (_, Check, Check, _) = match ecosystem {
            "npm" => ("npm", npm_name, semver, "a SemVer version"),
            "pypi" => ("pypi", pypi_name, pep440, "a PEP 440 version"),
            other => {
                return Err(format!(
                    "`{other}` is not an ecosystem the probe knows: use npm or pypi"
                ))
            }
        };
        if !name_ok(name) {
            return Err(format!("`{name}` is not a package name {ecosystem} allows"));
        }
        if !version_ok(version) {
            return Err(format!("`{version}` is not {kind}"));
        }
        Ok(Package {
            ecosystem,
            name: name.to_string(),
            version: version.to_string(),
        })
    }
}

/// An npm package name: `name` or `@scope/name`, lower-case URL-safe characters, ≤ 214 bytes.
fn npm_name(name: &str) -> bool {
    let part = |p: &str| {
        !p.is_empty()
            && !p.starts_with(['.', '_'])
            && p.bytes().all(|b| {
                b.is_ascii_lowercase()
                    || b.is_ascii_digit()
                    || matches!(b, b'-' | b'.' | b'_' | b'~')
            })
    };
    if name.len() > 214 {
        return false;
    }
    match name.strip_prefix('@') {
        Some(scoped) => scoped
            .split_once('/')
            .is_some_and(|(scope, rest)| part(scope) && part(rest)),
        None => part(name),
    }
}

/// A PyPI project name: letters, digits, `.`, `_`, `-`, beginning and ending alphanumeric.
fn pypi_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    !name.is_empty()
        && name.len() <= 200
        && bytes[0].is_ascii_alphanumeric()
        && bytes[bytes.len() - 1].is_ascii_alphanumeric()
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// A SemVer 2.0.0 version: `MAJOR.MINOR.PATCH[-PRE][+BUILD]`, no leading zeros.
pub fn semver(version: &str) -> bool {
    let (rest, build) = match version.split_once('+') {
        Some((rest, build)) => (rest, Some(build)),
        None => (version, None),
    };
    let (core, pre) = match rest.split_once('-') {
        Some((core, pre)) => (core, Some(pre)),
        None => (rest, None),
    };
    let number = |n: &str| {
        !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && (n == "0" || !n.starts_with('0'))
    };
    let ident =
        |i: &str| !i.is_empty() && i.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|p| number(p))
        && pre.is_none_or(|pre| {
            pre.split('.')
                .all(|i| ident(i) && (!i.bytes().all(|b| b.is_ascii_digit()) || number(i)))
        })
        && build.is_none_or(|b| b.split('.').all(ident))
}

/// A PEP 440 public version in its normal form or a common spelling of it:
/// `[N!]N(.N)*[{a|b|rc}N][.postN][.devN][+local]`.
pub fn pep440(version: &str) -> bool {
    let v = version.to_ascii_lowercase();
    let v = v.strip_prefix('v').unwrap_or(&v);
    let (v, local) = match v.split_once('+') {
        Some((v, local)) => (v, Some(local)),
        None => (v, None),
    };
    if let Some(local) = local {
        if !local
            .split(['.', '-', '_'])
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric()))
        {
            return false;
        }
    }
    let mut rest = v;
    if let Some((epoch, after)) = rest.split_once('!') {
        if epoch.is_empty() || !epoch.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
        rest = after;
    }
    let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
    // The release: N(.N)*
    let mut release = 0;
    loop {
        let n = digits(rest);
        if n == 0 {
            return false;
        }
        rest = &rest[n..];
        release += 1;
        match rest.strip_prefix('.') {
            Some(after) if digits(after) > 0 => rest = after,
            _ => break,
        }
    }
    if release == 0 {
        return false;
    }
    // Then optional pre, post and dev segments, in that order, each once.
    let segments: [&[&str]; 3] = [
        &["alpha", "beta", "preview", "pre", "rc", "a", "b", "c"],
        &["post", "rev", "r"],
        &["dev"],
    ];
    for names in segments {
        let trimmed = rest.trim_start_matches(['.', '-', '_']);
        if let Some(name) = names.iter().find(|n| trimmed.starts_with(**n)) {
            let after = trimmed[name.len()..].trim_start_matches(['.', '-', '_']);
            let n = digits(after);
            rest = &after[n..];
        }
    }
    rest.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packages_are_read_and_bad_names_or_versions_refused() {
        let p: Package = "npm:@continuedev/cli@1.5.47".parse().expect("valid");
        assert_eq!(
            (p.ecosystem, p.name.as_str(), p.version.as_str()),
            ("npm", "@continuedev/cli", "1.5.47")
        );
        let p: Package = "pypi:fast-agent-mcp@0.10.48".parse().expect("valid");
        assert_eq!(p.name, "fast-agent-mcp");
        for bad in [
            "npm:x@1.0.0\"; import os",
            "npm:x@1.0",
            "npm:X@1.0.0",
            "npm:@1.0.0",
            "cargo:x@1.0.0",
            "x@1.0.0",
            "npm:x",
            "pypi:x@1.0$(id)",
            "pypi:-x@1.0",
        ] {
            assert!(bad.parse::<Package>().is_err(), "{bad}");
        }
    }

    #[test]
    fn semver_and_pep440_take_real_versions_and_nothing_else() {
        for good in ["1.5.47", "0.0.0-dev", "2.1.332", "1.0.0-rc.1+build.5"] {
            assert!(semver(good), "{good}");
        }
        for bad in [
            "1.0", "01.0.0", "1.0.0-", "1.0.0\"", "1.0.0 ", "v1.0.0", "1.0.0-01",
        ] {
            assert!(!semver(bad), "{bad}");
        }
        for good in [
            "0.10.48",
            "1!2.0",
            "1.0a1",
            "1.0.post2",
            "1.0.dev3",
            "2.0rc1+local.1",
        ] {
            assert!(pep440(good), "{good}");
        }
        for bad in ["", "1.0\"", "abc", "1.0-$(id)", "1..0", "1.0+"] {
            assert!(!pep440(bad), "{bad}");
        }
    }
}
