//! The example sites `fieldnotes init` writes, built into the binary from `src/init/sites/`.

/// Which example site to start from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Example {
    /// A small "can I use" for EditorConfig: one editor, one property, one note, one guide.
    Minimal,
    /// A small "can I use" for MCP clients, as the bundled site "Can I MCP?" is.
    Mcp,
}

/// One file of an example: its path in the new site, and its text.
type File = (&'static str, &'static str);

macro_rules! site {
    ($name:literal: $($path:literal),+ $(,)?) => {
        &[$((
            $path,
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/init/sites/", $name, "/", $path)),
        )),+]
    };
}

const MINIMAL: &[File] = site!("minimal":
    "site.yaml",
    "content/clients/neovim.md",
    "content/capabilities/whitespace.trimTrailingWhitespace.md",
    "content/research/neovim-trims-trailing-whitespace-on-write.md",
    "content/guides/adding-a-note.md",
);

const MCP: &[File] = site!("mcp":
    "site.yaml",
    "content/clients/cline.md",
    "content/capabilities/transports.sse.md",
    "content/research/cline-defaults-a-url-server-to-sse.md",
    "content/guides/adding-a-note.md",
);

/// `.gitignore`, kept as `gitignore.txt` so that it does not apply to this repository.
const GITIGNORE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/src/init/sites/minimal/gitignore.txt"
));

impl Example {
    /// Every file of the example, `site.yaml` first, then `.gitignore`.
    pub fn files(self) -> Vec<File> {
        let files = match self {
            Example::Minimal => MINIMAL,
            Example::Mcp => MCP,
        };
        let mut all = files.to_vec();
        all.insert(1, (".gitignore", GITIGNORE));
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file under `src/init/sites/<name>/` is in the list, so none is forgotten.
    #[test]
    fn every_file_of_each_folder_is_built_in() {
        for (name, example) in [("minimal", Example::Minimal), ("mcp", Example::Mcp)] {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("src/init/sites")
                .join(name);
            let mut on_disk: Vec<String> = walkdir::WalkDir::new(&dir)
                .into_iter()
                .map(|e| e.expect("walk"))
                .filter(|e| e.file_type().is_file())
                .map(|e| {
                    let rel = e.path().strip_prefix(&dir).expect("under");
                    rel.to_string_lossy().replace('\\', "/")
                })
                .filter(|p| p != "gitignore.txt")
                .collect();
            on_disk.sort();
            let mut listed: Vec<String> = (example.files().iter())
                .map(|(p, _)| p.to_string())
                .filter(|p| p != ".gitignore")
                .collect();
            listed.sort();
            assert_eq!(on_disk, listed, "{name}");
        }
    }
}
