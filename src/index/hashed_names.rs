//! Which theme files are published under content-hashed names (`style.css` as
//! `style.0123abcd.css`), and whether a static file's name has the form of one: what lint
//! (FN012) needs to know of the render's asset names without importing the render.

use super::SiteIndex;
use crate::load::assets::THEMES_DIR;
use std::collections::BTreeSet;
use std::path::Path;

/// The extensions that get a hashed name, in the order they are hashed: fonts first
/// (stylesheets name them), then stylesheets, then scripts.
pub const ORDER: [&[&str]; 3] = [&["woff", "woff2", "ttf", "otf"], &["css"], &["js", "mjs"]];

/// The default theme's static files, by name (the render embeds these; a test there holds the
/// two lists together).
pub const BUILTIN_STATIC_NAMES: [&str; 8] = [
    "ask.css",
    "ask.js",
    "favicon.svg",
    "matrix.css",
    "matrix.js",
    "print.css",
    "site.js",
    "style.css",
];

/// The name of the theme the render uses when a site names no other.
pub const DEFAULT_THEME: &str = "default";

/// The static files of the theme `index` renders with, by name: the files under `themes/`,
/// and the built-in ones when the theme is the default.
pub fn theme_static_names(index: &SiteIndex) -> BTreeSet<String> {
    let theme_dir = Path::new(THEMES_DIR);
    let mut names: BTreeSet<String> = (index.assets.static_files.iter())
        .filter(|a| a.path.starts_with(theme_dir))
        .map(|a| a.name.clone())
        .collect();
    if index.config.theme == DEFAULT_THEME {
        names.extend(BUILTIN_STATIC_NAMES.iter().map(|name| name.to_string()));
    }
    names
}

/// The theme file among `theme` whose hashed name `name` has the form of
/// (`style.0123abcd.css` for `style.css`), whatever its hash: a static file of that name may
/// take the hashed file's place in some build (FN012).
pub fn hashed_twin<'t>(name: &str, theme: &'t BTreeSet<String>) -> Option<&'t str> {
    let (rest, ext) = name.rsplit_once('.')?;
    let (stem, hash) = rest.rsplit_once('.')?;
    if hash.len() != 8 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let plain = format!("{stem}.{ext}");
    let ext = ext.to_ascii_lowercase();
    let hashed = ORDER.iter().any(|kinds| kinds.contains(&ext.as_str()));
    theme.get(&plain).filter(|_| hashed).map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn theme(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn a_name_in_the_form_of_a_hashed_theme_file_is_its_twin() {
        let theme = theme(&["style.css", "favicon.svg", "fonts/a.woff2"]);
        assert_eq!(hashed_twin("style.0123abcd.css", &theme), Some("style.css"));
        assert_eq!(
            hashed_twin("fonts/a.deadBEEF.woff2", &theme),
            Some("fonts/a.woff2")
        );
        for other in [
            "style.css",
            "style.0123abc.css",
            "mine.0123abcd.css",
            "favicon.0123abcd.svg",
        ] {
            assert_eq!(hashed_twin(other, &theme), None, "{other}");
        }
    }
}
