//! How a finding's file is printed: relative to the site (the default), or to another folder,
//! such as the repository's top level or the current folder, so that a path in an annotation
//! or a terminal leads to its file whatever `--root` was.

use std::path::{Component, Path};

/// Where printed paths start from. The default prints them as they are, relative to the site.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PathStyle {
    /// The folder paths start from, one name per component; empty: the site.
    base: Vec<String>,
    /// The site's folder, likewise.
    site: Vec<String>,
}

impl PathStyle {
    /// Paths relative to `base`, for a site in `site` (both absolute, symlinks resolved).
    pub fn relative(base: &Path, site: &Path) -> PathStyle {
        PathStyle {
            base: names(base),
            site: names(site),
        }
    }

    /// `file` (relative to the site, `/`-separated) as printed: from the base, through `..`
    /// where it must; absolute where no relative path leads there (another drive).
    pub fn show(&self, file: &str) -> String {
        if self.base.is_empty() && self.site.is_empty() {
            return file.to_string();
        }
        let target: Vec<&str> = (self.site.iter().map(String::as_str))
            .chain(file.split('/').filter(|part| !part.is_empty()))
            .collect();
        let common = (self.base.iter().zip(&target))
            .take_while(|(a, b)| a == *b)
            .count();
        if common == 0 {
            return target.join("/");
        }
        let mut parts = vec![".."; self.base.len() - common];
        parts.extend(&target[common..]);
        parts.join("/")
    }
}

/// A path's components as names; the root is an empty name, so that joining with `/` gives
/// back `/…`.
fn names(path: &Path) -> Vec<String> {
    path.components()
        .filter(|c| !matches!(c, Component::CurDir))
        .map(|c| match c {
            Component::RootDir => String::new(),
            other => other.as_os_str().to_string_lossy().into_owned(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(base: &str, site: &str, file: &str) -> String {
        PathStyle::relative(Path::new(base), Path::new(site)).show(file)
    }

    #[test]
    fn paths_lead_from_the_base_to_the_file() {
        let file = "content/research/a.md";
        assert_eq!(PathStyle::default().show(file), file);
        assert_eq!(shown("/repo", "/repo", file), file);
        assert_eq!(
            shown("/repo", "/repo/site", file),
            "site/content/research/a.md"
        );
        assert_eq!(
            shown("/repo/tools", "/repo/site", file),
            "../site/content/research/a.md"
        );
        assert_eq!(
            shown("/repo/site/content/research", "/repo/site", file),
            "a.md"
        );
        assert_eq!(
            shown("/repo/site/content/clients", "/repo/site", file),
            "../research/a.md"
        );
        assert_eq!(shown("/work", "/tmp/x", "a.md"), "../tmp/x/a.md");
    }
}
