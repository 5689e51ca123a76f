//! Assets: the templates and static files a render uses, listed (not read) from the theme's
//! `templates/` and `static/` and the site's own `templates/` and `static/`, each walk fenced
//! ([`super::fence`]). Entries that may not be read are listed with their problem, so that
//! lint reports them (FN001) and a build refuses them, as it does content files.

use super::fence::{is_git_entry, special_kind, walk_problem, Fence};
use super::Problem;
use crate::text_file::display_path;
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

/// The folder that holds the site's themes.
pub const THEMES_DIR: &str = "themes";
/// The folder of a site's (or a theme's) templates.
pub const TEMPLATES_DIR: &str = "templates";
/// The folder of a site's (or a theme's) static files, copied as they are.
pub const STATIC_DIR: &str = "static";

/// The templates and static files of a site, each list in the order its layers apply: the
/// theme's first, then the site's (a later file of the same name wins).
#[derive(Debug, Clone, Default)]
pub struct Assets {
    pub templates: Vec<Asset>,
    pub static_files: Vec<Asset>,
    /// Entries that are not read, and why.
    pub refused: Vec<Refused>,
    /// Whether the theme's `templates/` folder was found (and may be read).
    pub theme_found: bool,
}

/// A template or static file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asset {
    /// Its name within its layer, `/`-separated: the template name (`note.html`) or the path
    /// it is published at (`img/logo.svg`).
    pub name: String,
    /// Where it is, relative to the site root (`static/img/logo.svg`).
    pub path: PathBuf,
}

/// An entry of an asset folder (or the folder itself) that is not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// Relative to the site root, `/`-separated.
    pub path: String,
    pub problem: Problem,
    /// Whether the entry is (or leads to) a folder.
    pub folder: bool,
}

/// Lists the assets of the site at `root` (resolved as `site`) with the theme `theme`.
pub fn scan(root: &Path, site: &Fence, theme: &str) -> Assets {
    let mut scan = Scan {
        root,
        assets: Assets::default(),
    };
    let theme_dir = format!("{THEMES_DIR}/{theme}");
    let theme = scan
        .folder(site, THEMES_DIR)
        .and_then(|themes| scan.folder(&themes, &theme_dir));
    let theme_folder = |scan: &mut Scan<'_>, kind: &str| {
        let theme = theme.as_ref()?;
        scan.folder(theme, &format!("{theme_dir}/{kind}"))
    };
    let theme_templates = theme_folder(&mut scan, TEMPLATES_DIR);
    scan.assets.theme_found = theme_templates.is_some();
    let theme_static = theme_folder(&mut scan, STATIC_DIR);
    let site_templates = scan.folder(site, TEMPLATES_DIR);
    let site_static = scan.folder(site, STATIC_DIR);
    let mut templates = Vec::new();
    for folder in [theme_templates, site_templates].into_iter().flatten() {
        scan.walk(&folder, &mut templates);
    }
    let mut static_files = Vec::new();
    for folder in [theme_static, site_static].into_iter().flatten() {
        scan.walk(&folder, &mut static_files);
    }
    scan.assets.templates = templates;
    scan.assets.static_files = static_files;
    scan.assets
}

/// A scan under way: the site root and what it found so far.
struct Scan<'r> {
    root: &'r Path,
    assets: Assets,
}

impl Scan<'_> {
    /// The input folder `name` inside `outer`, when it exists and may be read; refused (and
    /// recorded) when it leaves `outer`.
    fn folder(&mut self, outer: &Fence, name: &str) -> Option<Fence> {
        match outer.inner(name) {
            Ok(fence) => fence,
            Err(problem) => {
                self.refuse(&self.root.join(name), problem, true);
                None
            }
        }
    }

    fn refuse(&mut self, path: &Path, problem: Problem, folder: bool) {
        let relative = path.strip_prefix(self.root).unwrap_or(path);
        self.assets.refused.push(Refused {
            path: display_path(relative),
            problem,
            folder,
        });
    }

    /// Lists every file under the folder, sorted, into `files`. Hidden entries (`.git`
    /// among them) and a `README.md` at the top (a folder may explain itself) are passed over.
    fn walk(&mut self, fence: &Fence, files: &mut Vec<Asset>) {
        let dir = &self.root.join(fence.name());
        let mut entries = WalkDir::new(dir)
            .follow_links(true)
            .sort_by_file_name()
            .min_depth(1)
            .into_iter();
        while let Some(entry) = entries.next() {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    let path = e.path().unwrap_or(dir).to_path_buf();
                    self.refuse(&path, walk_problem(&e), false);
                    continue;
                }
            };
            let is_dir = entry.file_type().is_dir();
            let hidden = entry.file_name().to_string_lossy().starts_with('.');
            let refused = match hidden || is_git_entry(&entry) {
                true => None,
                false => fence.refuses(&entry),
            };
            if hidden || refused.is_some() {
                if let Some(problem) = refused {
                    self.refuse(entry.path(), problem, is_dir);
                }
                if is_dir {
                    entries.skip_current_dir();
                }
                continue;
            }
            if is_dir {
                continue;
            }
            let relative = entry.path().strip_prefix(dir).unwrap_or(entry.path());
            let name = display_path(relative);
            if name.eq_ignore_ascii_case("README.md") {
                continue;
            }
            if !entry.file_type().is_file() {
                let kind = special_kind(&entry.file_type());
                self.refuse(entry.path(), Problem::NotAFile { kind }, false);
                continue;
            }
            let path = entry.path().strip_prefix(self.root).unwrap_or(entry.path());
            files.push(Asset {
                name,
                path: path.to_path_buf(),
            });
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn write(root: &Path, path: &str) {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, "x").expect("write");
    }

    fn names(assets: &[Asset]) -> Vec<String> {
        assets.iter().map(|a| display_path(&a.path)).collect()
    }

    #[test]
    fn layers_in_order_hidden_files_and_readmes_passed_over() {
        let dir = tempfile::tempdir().expect("temp");
        let root = dir.path();
        for path in [
            "themes/t/templates/base.html",
            "themes/t/static/style.css",
            "templates/README.md",
            "templates/note.html",
            "static/img/logo.svg",
            "static/.env",
            "static/.hidden/x",
            "static/.git/config",
        ] {
            write(root, path);
        }
        let site = Fence::site(root).expect("site");
        let assets = scan(root, &site, "t");
        assert!(assets.theme_found);
        assert_eq!(
            names(&assets.templates),
            ["themes/t/templates/base.html", "templates/note.html"]
        );
        assert_eq!(
            names(&assets.static_files),
            ["themes/t/static/style.css", "static/img/logo.svg"]
        );
        assert_eq!(assets.static_files[1].name, "img/logo.svg");
        assert_eq!(assets.refused, []);
    }

    #[test]
    fn every_folder_and_file_is_fenced() {
        let dir = tempfile::tempdir().expect("temp");
        let root = dir.path();
        write(root, ".env");
        write(root, ".git/config");
        write(root, "elsewhere/x.css");
        write(root, "static/ok.css");
        symlink("/etc", root.join("templates")).expect("link");
        symlink("../.env", root.join("static/env.txt")).expect("link");
        symlink("ok.css", root.join("static/same.css")).expect("link");
        std::fs::create_dir_all(root.join("themes")).expect("mkdir");
        symlink("../.git", root.join("themes/t")).expect("link");
        let site = Fence::site(root).expect("site");
        let assets = scan(root, &site, "t");
        let refused: Vec<(&str, bool)> = (assets.refused.iter())
            .map(|r| (r.path.as_str(), r.folder))
            .collect();
        assert_eq!(
            refused,
            [
                ("themes/t", true),
                ("templates", true),
                ("static/env.txt", false)
            ]
        );
        assert!(!assets.theme_found);
        assert_eq!(assets.templates, []);
        assert_eq!(
            names(&assets.static_files),
            ["static/ok.css", "static/same.css"]
        );
    }
}
