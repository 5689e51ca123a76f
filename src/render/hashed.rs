//! Content-hashed names for the theme's stylesheets, scripts and fonts: `style.css` is
//! published as `style.<8 hex digits of its SHA-256>.css`, so a host may let browsers keep it
//! for a year (`immutable`) and a change still reaches every reader at once. Templates name
//! them with the `asset` filter (`{{ page.assets }}{{ "style.css" | asset }}`); a stylesheet's
//! `url(…)` of another hashed file is rewritten before the stylesheet itself is hashed.
//! Files a site adds in its own `static/` (not replacing a theme file) keep their names:
//! pages and notes may link them as they are.

use crate::index::hashed_names::ORDER;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};

/// The lower-cased extension of the last component of `name`, if it has one.
fn extension(name: &str) -> Option<String> {
    let file = name.rsplit('/').next().unwrap_or(name);
    let (stem, ext) = file.rsplit_once('.')?;
    (!stem.is_empty()).then(|| ext.to_ascii_lowercase())
}

/// `name` with the first 8 hex digits of the SHA-256 of `bytes` before its extension:
/// `fonts/a.woff2` → `fonts/a.0123abcd.woff2`.
pub fn hashed_name(name: &str, bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let hex: String = digest[..4].iter().map(|b| format!("{b:02x}")).collect();
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.ends_with('/') && !stem.is_empty() => {
            format!("{stem}.{hex}.{ext}")
        }
        _ => format!("{name}.{hex}"),
    }
}

/// The static files to publish and the name each hashed theme file is published under.
pub struct Published {
    /// Output path → contents, sorted.
    pub files: BTreeMap<String, Vec<u8>>,
    /// A theme file's name (`style.css`) → the name it is published under.
    pub names: BTreeMap<String, String>,
}

/// Renames each of `files` that `theme` names (the theme's own files, and a site's files
/// that replace one) and that is a font, stylesheet or script ([`ORDER`]) to its
/// [`hashed_name`]; stylesheets' references to
/// them rewritten first. Fails, naming both, when a hashed name is a file already there.
pub fn publish(
    mut files: BTreeMap<String, Vec<u8>>,
    theme: &BTreeSet<String>,
) -> Result<Published, String> {
    let mut names = BTreeMap::new();
    for kinds in ORDER {
        let due: Vec<String> = (files.keys())
            .filter(|n| theme.contains(*n))
            .filter(|n| extension(n).is_some_and(|e| kinds.contains(&e.as_str())))
            .cloned()
            .collect();
        for name in due {
            let Some(mut bytes) = files.remove(&name) else {
                continue;
            };
            if kinds == ORDER[1] {
                bytes = rewrite_css_urls(&name, &bytes, &names);
            }
            let hashed = hashed_name(&name, &bytes);
            if files.contains_key(&hashed) {
                return Err(format!(
                    "the static file {hashed} is where the theme's {name} is published under \
                     its content-hashed name; rename the static file"
                ));
            }
            files.insert(hashed.clone(), bytes);
            names.insert(name, hashed);
        }
    }
    Ok(Published { files, names })
}

/// The stylesheet `name` with each `url(…)` that leads to a hashed file (relative to the
/// stylesheet) pointing at its hashed name instead. Other URLs stay as they are.
fn rewrite_css_urls(name: &str, bytes: &[u8], names: &BTreeMap<String, String>) -> Vec<u8> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return bytes.to_vec();
    };
    if names.is_empty() || !text.contains("url(") {
        return bytes.to_vec();
    }
    let dir = name.rsplit_once('/').map_or("", |(dir, _)| dir);
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("url(") {
        let (before, after) = rest.split_at(at + 4);
        out.push_str(before);
        let Some(end) = after.find(')') else {
            rest = after;
            break;
        };
        let inner = &after[..end];
        out.push_str(&rewrite_url(dir, inner, names).unwrap_or_else(|| inner.to_string()));
        rest = &after[end..];
    }
    out.push_str(rest);
    out.into_bytes()
}

/// `inner` (what stands between `url(` and `)`, quotes and spaces included) pointing at the
/// hashed name of the file it leads to, when that file has one.
fn rewrite_url(dir: &str, inner: &str, names: &BTreeMap<String, String>) -> Option<String> {
    let trimmed = inner.trim();
    let quote = trimmed.chars().next().filter(|c| matches!(c, '"' | '\''));
    let url = match quote {
        Some(q) => trimmed.strip_prefix(q)?.strip_suffix(q)?,
        None => trimmed,
    };
    if url.starts_with('/') || url.starts_with('#') || url.contains(':') {
        return None;
    }
    let cut = url.find(['?', '#']).unwrap_or(url.len());
    let (path, suffix) = url.split_at(cut);
    let target = resolve(dir, path)?;
    let hashed = names.get(&target)?;
    let file = hashed.rsplit('/').next().unwrap_or(hashed);
    let kept = path.rsplit_once('/').map_or("", |(d, _)| d);
    let new = match kept {
        "" => format!("{file}{suffix}"),
        d => format!("{d}/{file}{suffix}"),
    };
    let q = quote.map(String::from).unwrap_or_default();
    Some(format!("{q}{new}{q}"))
}

/// `path` relative to the folder `dir` (both `/`-separated, inside the output), `None` when it
/// leaves the output.
fn resolve(dir: &str, path: &str) -> Option<String> {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(list: &[(&str, &str)]) -> BTreeMap<String, Vec<u8>> {
        (list.iter())
            .map(|(n, t)| (n.to_string(), t.as_bytes().to_vec()))
            .collect()
    }

    fn theme(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn hashes_go_before_the_extension_and_follow_the_bytes() {
        let a = hashed_name("style.css", b"body{}");
        assert!(
            a.starts_with("style.") && a.ends_with(".css") && a.len() == 18,
            "{a}"
        );
        assert_ne!(a, hashed_name("style.css", b"body{ }"));
        assert_eq!(a, hashed_name("style.css", b"body{}"));
        assert!(hashed_name("fonts/a.woff2", b"x").starts_with("fonts/a."));
    }

    #[test]
    fn only_theme_stylesheets_scripts_and_fonts_are_renamed() {
        let published = publish(
            files(&[
                ("style.css", "a{}"),
                ("site.js", "1"),
                ("favicon.svg", "<svg/>"),
                ("mine.js", "2"),
            ]),
            &theme(&["style.css", "site.js", "favicon.svg"]),
        )
        .expect("publishes");
        let names: Vec<&String> = published.files.keys().collect();
        assert!(names.contains(&&"favicon.svg".to_string()), "{names:?}");
        assert!(names.contains(&&"mine.js".to_string()), "{names:?}");
        assert!(!names.contains(&&"style.css".to_string()), "{names:?}");
        assert_eq!(published.names.len(), 2);
        assert!(published.files.contains_key(&published.names["site.js"]));
    }

    #[test]
    fn a_stylesheet_names_the_hashed_fonts_and_changes_with_them() {
        let css = "@font-face{src:url(\"fonts/a.woff2?v=1\") format('woff2'),url(b.png)}";
        let one = publish(
            files(&[("style.css", css), ("fonts/a.woff2", "font one")]),
            &theme(&["style.css", "fonts/a.woff2"]),
        )
        .expect("publishes");
        let font = &one.names["fonts/a.woff2"];
        let text = String::from_utf8(one.files[&one.names["style.css"]].clone()).unwrap();
        assert!(text.contains(&format!("url(\"{font}?v=1\")")), "{text}");
        assert!(text.contains("url(b.png)"), "{text}");
        let two = publish(
            files(&[("style.css", css), ("fonts/a.woff2", "font two")]),
            &theme(&["style.css", "fonts/a.woff2"]),
        )
        .expect("publishes");
        assert_ne!(one.names["style.css"], two.names["style.css"]);
    }

    #[test]
    fn a_static_file_at_a_hashed_name_is_refused() {
        let hashed = hashed_name("style.css", b"a{}");
        let Err(error) = publish(
            files(&[("style.css", "a{}"), (&hashed, "mine")]),
            &theme(&["style.css"]),
        ) else {
            panic!("a static file at a hashed name is refused");
        };
        assert!(
            error.contains(&hashed) && error.contains("rename"),
            "{error}"
        );
    }

    #[test]
    fn urls_resolve_relative_to_the_stylesheet() {
        assert_eq!(
            resolve("css", "../fonts/a.woff2").as_deref(),
            Some("fonts/a.woff2")
        );
        assert_eq!(resolve("", "../a"), None);
        assert_eq!(resolve("", "./a.woff2").as_deref(), Some("a.woff2"));
    }
}
