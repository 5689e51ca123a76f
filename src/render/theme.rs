//! Themes: the templates and static files a render uses, in layers where a later one wins a
//! same-named file: the built-in default theme, the site's `themes/<theme>/`, then the
//! site's own `templates/` and `static/`. Which files those are, the load step listed
//! ([`crate::load::assets`], fenced); this reads them.

use crate::config::Vocabulary;
use crate::error::{Error, Result};
use crate::index::hashed_names::{theme_static_names, DEFAULT_THEME};
use crate::index::SiteIndex;
use crate::load::assets::{Asset, TEMPLATES_DIR, THEMES_DIR};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

macro_rules! builtin {
    ($kind:literal, $($name:literal),* $(,)?) => {
        &[$(($name, include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"), "/themes/default/", $kind, "/", $name
        )))),*]
    };
}

/// The default theme's templates (kept equal to `themes/default/templates/` by a test).
const BUILTIN_TEMPLATES: &[(&str, &[u8])] = builtin!(
    "templates",
    "404.html",
    "ask.html",
    "base.html",
    "capability.html",
    "capability.md",
    "client.html",
    "client.md",
    "components.html",
    "disagreements.html",
    "feed.xml",
    "guide.html",
    "guide.md",
    "home.html",
    "home.md",
    "list.html",
    "list.md",
    "llms.txt",
    "note.html",
    "note.md",
    "observation.html",
    "observation.md",
    "robots.txt",
    "search.html",
    "search_form.html",
    "sitemap.xml",
    "spec.html",
    "spec.md",
);

/// The default theme's static files.
const BUILTIN_STATIC: &[(&str, &[u8])] = builtin!(
    "static",
    "ask.css",
    "ask.js",
    "favicon.svg",
    "matrix.css",
    "matrix.js",
    "print.css",
    "site.js",
    "style.css"
);

/// Where a render of `index` publishes each static file (the theme's and the site's), by the
/// name it has in its folder: `style.css` → `style.3f9a1c2b.css`, `img/logo.svg` → itself.
pub fn published_static_files(index: &SiteIndex) -> Result<BTreeMap<String, String>> {
    let theme = load(index)?;
    let hashed: BTreeSet<&String> = theme.asset_names.values().collect();
    let mut names = theme.asset_names.clone();
    for file in theme.static_files.keys().filter(|f| !hashed.contains(f)) {
        names.insert(file.clone(), file.clone());
    }
    Ok(names)
}

/// The compiled templates and the static files of a render.
pub struct Theme {
    pub tera: tera::Tera,
    /// Output path → contents, sorted: the theme's stylesheets, scripts and fonts under
    /// their content-hashed names ([`super::hashed`]).
    pub static_files: BTreeMap<String, Vec<u8>>,
    /// A theme file's name (`style.css`) → the hashed name it is published under.
    pub asset_names: BTreeMap<String, String>,
}

/// Loads the site's theme. Fails with [`Error::Template`] when a template does not compile
/// or the theme does not exist.
pub fn load(index: &SiteIndex) -> Result<Theme> {
    let name = index.config.theme.as_str();
    let assets = &index.assets;
    let builtin = name == DEFAULT_THEME;
    if !builtin && !assets.theme_found {
        let expected = Path::new(THEMES_DIR).join(name).join(TEMPLATES_DIR);
        return Err(Error::Template {
            name: name.to_string(),
            message: format!(
                "no theme called `{name}`: expected its templates in {}",
                index.root.join(expected).display()
            ),
        });
    }
    let mut templates: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut static_files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    if builtin {
        for (name, bytes) in BUILTIN_TEMPLATES {
            templates.insert(name.to_string(), bytes.to_vec());
        }
        for (name, bytes) in BUILTIN_STATIC {
            static_files.insert(name.to_string(), bytes.to_vec());
        }
    }
    read_all(&index.root, &assets.templates, &mut templates)?;
    read_all(&index.root, &assets.static_files, &mut static_files)?;
    if builtin {
        fold_stylesheets(&mut static_files);
    }
    let published =
        super::hashed::publish(static_files, &theme_static_names(index)).map_err(|message| {
            Error::Template {
                name: name.to_string(),
                message,
            }
        })?;
    let mut sources = Vec::with_capacity(templates.len());
    for (name, bytes) in templates {
        let text = String::from_utf8(bytes).map_err(|_| Error::Template {
            name: name.clone(),
            message: "not UTF-8 text".to_string(),
        })?;
        sources.push((name, text));
    }
    let mut tera = super::escape::tera();
    register_asset_filter(&mut tera, &published);
    register_words_filter(&mut tera, &index.config.vocabulary);
    let limits = &index.config.limits;
    tera.set_render_limits(tera::RenderLimits {
        max_steps: Some(limits.max_render_steps),
        max_bytes: Some(limits.max_page_bytes),
    });
    tera.add_raw_templates(sources.iter().map(|(n, t)| (n.as_str(), t.as_str())))
        .map_err(|e| template_error("", &e))?;
    Ok(Theme {
        tera,
        static_files: published.files,
        asset_names: published.names,
    })
}

/// The `asset` filter: `{{ "style.css" | asset }}` is the name the file is published under
/// (hashed for the theme's stylesheets, scripts and fonts; as it is for any other static
/// file), to put after `page.assets`. A name the build publishes no file under is an error
/// naming the files it does publish.
fn register_asset_filter(tera: &mut tera::Tera, published: &super::hashed::Published) {
    let names = published.names.clone();
    let plain: BTreeSet<String> = (published.files.keys())
        .filter(|name| !names.values().any(|hashed| hashed == *name))
        .cloned()
        .collect();
    tera.register_filter(
        "asset",
        move |name: &str, _: tera::Kwargs, _: &tera::State| -> tera::TeraResult<String> {
            if let Some(hashed) = names.get(name) {
                return Ok(hashed.clone());
            }
            if plain.contains(name) {
                return Ok(name.to_string());
            }
            let known: Vec<&str> = names.keys().chain(&plain).map(String::as_str).collect();
            Err(tera::Error::message(format!(
                "`asset`: the build publishes no static file called `{name}` (it has {})",
                known.join(", ")
            )))
        },
    );
}

/// The `words` filter: `{{ "Clients to compare" | words }}` is the theme's own text in the
/// site's words (`Editors to compare` where `vocabulary` calls a client an editor; see
/// [`Vocabulary::reword`]). Content is never passed through it, only the theme's chrome.
fn register_words_filter(tera: &mut tera::Tera, words: &Vocabulary) {
    let words = words.clone();
    tera.register_filter(
        "words",
        move |text: &str, _: tera::Kwargs, _: &tera::State| words.reword(text),
    );
}

/// The default theme's stylesheets that are folded into `style.css`, in this order, so that
/// every page loads one stylesheet (and it is cached once for the whole site).
const FOLDED_STYLESHEETS: &[&str] = &["matrix.css", "ask.css"];

/// Appends each of [`FOLDED_STYLESHEETS`] (the theme's, or the site's own `static/` one that
/// replaced it) to `style.css`, and publishes it no more on its own.
fn fold_stylesheets(files: &mut BTreeMap<String, Vec<u8>>) {
    for name in FOLDED_STYLESHEETS {
        let Some(part) = files.remove(*name) else {
            continue;
        };
        let style = files.entry("style.css".to_string()).or_default();
        if !style.is_empty() && !style.ends_with(b"\n") {
            style.push(b'\n');
        }
        style.extend_from_slice(format!("\n/* ---- {name} ---- */\n\n").as_bytes());
        style.extend(part);
    }
}

/// Reads each of `assets` (paths under `root`) into `files` by name, in order: a later file
/// of the same name replaces an earlier one.
fn read_all(root: &Path, assets: &[Asset], files: &mut BTreeMap<String, Vec<u8>>) -> Result<()> {
    for asset in assets {
        let path = root.join(&asset.path);
        let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, "read", e))?;
        files.insert(asset.name.clone(), bytes);
    }
    Ok(())
}

/// A tera error as [`Error::Template`], named after the template it points into.
pub fn template_error(template: &str, error: &tera::Error) -> Error {
    let name = match error.kind() {
        tera::ErrorKind::SyntaxError(report) | tera::ErrorKind::RenderingError(report)
            if !report.filename().is_empty() =>
        {
            report.filename().to_string()
        }
        tera::ErrorKind::MissingParent { current, .. } => current.clone(),
        tera::ErrorKind::CircularExtend { tpl, .. } => tpl.clone(),
        _ => template.to_string(),
    };
    let mut message = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        message.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    if let Some(key) = budget_key(&message) {
        message.push_str(&format!(
            "\nhelp: the template runs away (a loop too long or nested too deep): make it do \
             less, or raise `limits.{key}` in site.yaml if the site truly needs it"
        ));
    }
    Error::Template { name, message }
}

/// The `site.yaml` limit a render ran out of, from tera's budget message (see
/// `vendor/tera/src/vm/budget.rs`).
fn budget_key(message: &str) -> Option<&'static str> {
    if message.contains("the render ran past its limit of") {
        Some("maxRenderSteps")
    } else if message.contains("the render made more than its limit of") {
        Some("maxPageBytes")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file of `themes/default/` is built in, and nothing else.
    #[test]
    fn builtin_theme_matches_the_folder() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let assets = crate::load::assets(root, DEFAULT_THEME).expect("assets");
        assert_eq!(assets.refused, []);
        for (kind, builtin) in [("templates", BUILTIN_TEMPLATES), ("static", BUILTIN_STATIC)] {
            let theme_dir = Path::new("themes/default").join(kind);
            let in_theme = (assets.templates.iter().chain(&assets.static_files))
                .filter(|a| a.path.starts_with(&theme_dir));
            let listed: Vec<&str> = builtin.iter().map(|(n, _)| *n).collect();
            let found: Vec<&str> = in_theme.map(|a| a.name.as_str()).collect();
            assert_eq!(
                listed, found,
                "themes/default/{kind} and the built-in list differ"
            );
        }
    }

    #[test]
    fn the_embedded_static_files_are_the_ones_lint_knows_by_name() {
        let embedded: Vec<&str> = BUILTIN_STATIC.iter().map(|(name, _)| *name).collect();
        assert_eq!(embedded, crate::index::hashed_names::BUILTIN_STATIC_NAMES);
    }
}
