//! FN012 static-replaces-generated: a static file published where the build writes a page
//! or another generated file.

use crate::diagnostic::Severity;
use crate::index::outputs::{Clash, Outputs};
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::load::assets::STATIC_DIR;

pub const META: RuleMeta = RuleMeta {
    code: "FN012",
    name: "static-replaces-generated",
    severity: Severity::Error,
    scope: Scope::Global,      // reads every page's route
    reads: Reads::FrontMatter, // routes and the static file list, never bodies
    summary: "a static file at the path of a generated page or file",
    doc: r#"## What it flags

A file of `static/` (or of the theme's `static/`) that would be published at the path of a
file the build generates: a page (`index.html`, `research/<id>.html` and its `.md`), `404.html`,
`llms.txt`, `feed.xml`, `sitemap.xml`, `robots.txt`; or anywhere in `api/`, `feeds/` or
`search/`, which the build fills itself; or where a generated file needs a folder, or a
generated folder a file; or a name in the form of a theme file's content-hashed name
(`style.0123abcd.css` beside the theme's `style.css`), which the build gives the theme's file. Case is ignored: `static/INDEX.html` is flagged as `static/index.html`
is.

## Why

Static files are copied as they are, after the pages. One at a page's path would silently
replace the page the content and templates make, with whatever a pull request put there: a
home page, a note or the data API that no note and no review shows. On macOS and Windows,
whose file systems ignore case, `INDEX.html` and `index.html` are one file.

## Example

```text
static/index.html
static/INDEX.html
static/api/notes.json
```

Rename or move the file; to change how a page looks, override its template in `templates/`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let static_files = &cx.index.assets.static_files;
    if static_files.is_empty() {
        return;
    }
    let outputs = Outputs::of(cx.index);
    let theme = crate::index::hashed_names::theme_static_names(cx.index);
    for file in static_files {
        let path = crate::text_file::display_path(&file.path);
        if file.path.starts_with(STATIC_DIR) {
            if let Some(theme_file) = crate::index::hashed_names::hashed_twin(&file.name, &theme) {
                sink.report_path(
                    &META,
                    &path,
                    format!(
                        "the static file {path} is named like the theme's {theme_file} under its \
                         content-hashed name, which the build gives that file"
                    ),
                    Some("rename the static file (keep the hash out of its name)".to_string()),
                );
                continue;
            }
        }
        let Some(clash) = outputs.clash(&file.name) else {
            continue;
        };
        let what = match clash {
            Clash::Replaces(generated) => {
                format!("would replace {generated}, which the build generates")
            }
            Clash::InFolder(folder) => {
                format!("would be published in {folder}/, a folder the build fills itself")
            }
            Clash::UnderFile(generated) => {
                format!("would be published inside {generated}, a file the build generates")
            }
            Clash::OverFolder(generated) => format!(
                "would be published as a file where the build makes a folder (for {generated})"
            ),
        };
        sink.report_path(
            &META,
            &path,
            format!("the static file {path} {what}"),
            Some(
                "rename or move the static file; to change how a generated page looks, \
                 override its template in templates/"
                    .to_string(),
            ),
        );
    }
}
