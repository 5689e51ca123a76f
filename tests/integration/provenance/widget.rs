//! The widget repository the provenance tests pin sources into, built by git in a temporary
//! folder with fixed names and dates, so that every hash is known in advance.

use std::fs;
use std::path::Path;
use std::process::Command;

/// The repository every fixture source names.
pub const WIDGET: &str = "https://git.test/acme/widget";

/// The commits the widget repository is built with (see [`Widget::build`]).
pub const V1: &str = "457c9c417f7c5e7d9abcac2bf97b7ae20e8d317d";
pub const V2: &str = "64a33dd542913bb8b4b6781a332341fcdb548134";
/// Two commits (on branches `collide-a` and `collide-b`) whose hashes share 7 digits.
pub const COLLIDING: [&str; 2] = [
    "573a7ae10833f83aab73e649b0f2975a4c61fd47",
    "573a7aea9c521aca3e794fa545fd848844c2771d",
];

/// `src/transport.py` at v1; v2 inserts three lines after line 2, so lines 5–8 move to 8–11.
const TRANSPORT_V1: &str = r#""""Transport selection for widget."""
import os


def pick_transport(config):
    if config.get("transport") == "sse":
        return "sse"
    return "streamable-http"


def connect(url, transport):
    if transport == "sse":
        return open_sse(url)
    return open_http(url)


def open_sse(url):
    raise NotImplementedError(url)

TIMEOUT = int(os.environ.get("WIDGET_TIMEOUT", "30"))
"#;

const ERRORS_V1: &str = r#""""Errors that make widget fall back."""

def is_rejection(status):
    return status in (400, 405)


class TransportError(Exception):
    pass

RETRYABLE = (502, 503)
"#;

const CONFIG_V1: &str = r#""""Settings."""
DEFAULT_TRANSPORT = "streamable-http"
FALLBACK = "sse"

def load(path):
    return {}
"#;

const README: &str = "# widget\n\nA tiny MCP client.\nSee src/transport.py.\n";

/// A git repository in a temporary folder, every command run with fixed names and dates and
/// without the machine's git configuration.
pub struct Repo {
    pub dir: tempfile::TempDir,
}

impl Repo {
    pub fn init() -> Repo {
        let repo = Repo {
            dir: tempfile::tempdir().expect("temp dir"),
        };
        repo.git(&["init", "--quiet", "--object-format=sha1", "-b", "main"]);
        repo
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Runs git in the repository (dated 2026-01-05 unless `date` says otherwise); its output.
    pub fn git_at(&self, date: &str, args: &[&str]) -> String {
        let out = git_command(date)
            .current_dir(self.path())
            .args(args)
            .output()
            .expect("git runs");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    pub fn git(&self, args: &[&str]) -> String {
        self.git_at("2026-01-05T10:00:00Z", args)
    }

    pub fn write(&self, path: &str, text: &str) {
        let target = self.path().join(path);
        fs::create_dir_all(target.parent().expect("parent")).expect("mkdir");
        fs::write(target, text).expect("write");
    }

    /// Commits everything at `date`; the new commit's hash.
    pub fn commit(&self, date: &str, message: &str) -> String {
        self.git_at(date, &["add", "--all"]);
        self.git_at(date, &["commit", "--quiet", "-m", message]);
        self.git_at(date, &["rev-parse", "HEAD"])
    }
}

/// git with a fixed identity and dates, and none of the machine's configuration.
pub fn git_command(date: &str) -> Command {
    let mut command = Command::new("git");
    command
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_DATE", date)
        .env("GIT_COMMITTER_DATE", date)
        .args(["-c", "user.name=Test", "-c", "user.email=test@example.org"])
        .args(["-c", "commit.gpgsign=false"]);
    command
}

/// The widget repository: v1 (2026-01-05), then v2 (2026-03-01) on `main`, which inserts
/// three lines in `src/transport.py`, edits `src/errors.py`, renames `src/config.py` to
/// `src/settings.py` and deletes `docs/old.md`; and two branches whose commits collide.
pub struct Widget {
    pub repo: Repo,
}

impl Widget {
    pub fn build() -> Widget {
        let repo = Repo::init();
        repo.write("src/transport.py", TRANSPORT_V1);
        repo.write("src/errors.py", ERRORS_V1);
        repo.write("src/config.py", CONFIG_V1);
        repo.write("docs/old.md", "# Old\n\nSSE was the default.\n");
        repo.write("README.md", README);
        let v1 = repo.commit("2026-01-05T10:00:00Z", "v1");
        let inserted = TRANSPORT_V1.replacen(
            "import os\n",
            "import os\nimport logging\n\nLOG = logging.getLogger(__name__)\n",
            1,
        );
        repo.write("src/transport.py", &inserted);
        repo.write(
            "src/errors.py",
            &ERRORS_V1.replace("(400, 405)", "(400, 404, 405)"),
        );
        repo.git(&["mv", "src/config.py", "src/settings.py"]);
        repo.git(&["rm", "--quiet", "docs/old.md"]);
        let v2 = repo.commit("2026-03-01T10:00:00Z", "v2");
        assert_eq!(
            [v1.as_str(), v2.as_str()],
            [V1, V2],
            "the widget repository's hashes changed: update V1, V2 and the fixture notes"
        );
        for (n, (attempt, branch)) in [(18657, "collide-a"), (15170, "collide-b")]
            .into_iter()
            .enumerate()
        {
            let hash = colliding_commit(&repo, attempt);
            assert_eq!(hash, COLLIDING[n]);
            repo.git(&["update-ref", &format!("refs/heads/{branch}"), &hash]);
        }
        Widget { repo }
    }
}

/// A commit of the empty tree whose message is `attempt <n>`. Attempts 15170 and 18657 were
/// found by hashing such commits until two shared their first 7 hex digits (a birthday
/// search: about 20,000 commits for 28 bits), so that an ambiguous 7-digit hash is real.
pub fn colliding_commit(repo: &Repo, attempt: u32) -> String {
    let object = format!(
        "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n\
         author Test <test@example.org> 1767225600 +0000\n\
         committer Test <test@example.org> 1767225600 +0000\n\nattempt {attempt}\n"
    );
    let file = repo.path().join(".git").join(format!("attempt-{attempt}"));
    fs::write(&file, object).expect("write");
    let path = file.to_string_lossy().into_owned();
    repo.git(&["hash-object", "-t", "commit", "-w", &path])
}
