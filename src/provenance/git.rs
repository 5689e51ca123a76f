//! Running git: every git process fieldnotes starts is a [`Git`], which keeps text from users
//! and content from being read as an option (prompts off, the caller's repository variables
//! cleared), names its repository itself (never git's own search, see [`super::worktree`]),
//! and switches off every setting that would have git run a command ([`HARDENING`]); network
//! calls run with a time limit, and object reads go through long-lived `git cat-file`
//! processes per repository ([`Objects`]), which never read an object past a size limit.

use super::worktree::WorkTree;
use crate::terminal;
use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// Variables git sets for hooks, or a caller's environment may hold, that would point a
/// command at another repository, other objects or other history, or have it run a diff
/// program: removed from every git fieldnotes starts.
const REPOSITORY_VARIABLES: [&str; 13] = [
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
    "GIT_PREFIX",
    "GIT_SHALLOW_FILE",
    "GIT_REPLACE_REF_BASE",
    "GIT_QUARANTINE_PATH",
    "GIT_EXTERNAL_DIFF",
    "GIT_CONFIG",
];

/// Settings given on every git command line (`-c`, which outranks every configuration file):
/// none of them lets a repository's configuration, or a folder posing as a repository, run a
/// command or start work that outlives the run.
///
/// - `core.fsmonitor`: a command git runs to learn which files changed (`git diff`,
///   `ls-files`);
/// - `core.hooksPath`: hooks (`reference-transaction` runs on every fetch);
/// - `safe.bareRepository=explicit`: no folder is taken for a bare repository unless named;
/// - `protocol.ext.allow`: `ext::<command>` URLs run their command;
/// - `gc.auto`, `maintenance.auto`: a fetch would start a `gc` left running in the background;
/// - `fetch.recurseSubmodules`, `submodule.recurse`: nothing beyond the repository is fetched;
/// - `core.bigFileThreshold`: git streams a file past [`MAX_OBJECT_BYTES`] (when cloning,
///   fetching, diffing) rather than holding it in memory.
///
/// And `--no-pager`: never a pager.
///
/// Diffs run with `--no-ext-diff --no-textconv` ([`DIFF_SAFETY`]): no `diff.external` or
/// textconv program. Credential helpers, `http.*`, `url.*.insteadOf` and the ssh command stay
/// the caller's (their global configuration), which a pull request cannot reach.
const HARDENING: [&str; 9] = [
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "safe.bareRepository=explicit",
    "protocol.ext.allow=never",
    "gc.auto=0",
    "maintenance.auto=false",
    "fetch.recurseSubmodules=false",
    "submodule.recurse=false",
    "core.bigFileThreshold=16m",
];

/// Options every `git diff` or `git log` that compares files takes: no external diff program,
/// no textconv filter.
pub(crate) const DIFF_SAFETY: [&str; 2] = ["--no-ext-diff", "--no-textconv"];

/// No operands: `.operands(NO_PATHS)` ends a command with `--`, so that git reads the words
/// before it as revisions only, never as paths.
pub(crate) const NO_PATHS: [&str; 0] = [];

/// One git command line, built so that no text from a user or from content can be read as an
/// option (`--output=FILE` would have git write a file):
///
/// - options and subcommands are [`Git::args`], `&'static str`: only the code's own words;
/// - a revision, refspec or branch is a [`Git::value`], refused when git could read it as an
///   option (it starts with `-`);
/// - an option's value is [`Git::option`] (`--name=value`, one word that starts with the code's
///   own text);
/// - paths and URLs are [`Git::operands`], after `--`.
///
/// The repository a command runs on is always named, by `--git-dir` (and `--work-tree`),
/// whose argument git never reads as an option; git never looks for one itself. No git
/// command waits for a person: no password prompt, ssh in batch mode.
pub(crate) struct Git {
    command: Command,
}

impl Git {
    /// git on no repository (`clone`), run in `cwd` (a folder of fieldnotes' own, so that
    /// git's early look for a configuration finds nothing of a site's).
    pub(crate) fn new(cwd: &Path) -> Git {
        let mut command = Command::new("git");
        command.current_dir(cwd);
        for variable in REPOSITORY_VARIABLES {
            command.env_remove(variable);
        }
        command.arg("--no-pager");
        for setting in HARDENING {
            command.arg("-c").arg(setting);
        }
        // Objects read as they are stored: no `refs/replace/` swaps one for another; and no
        // command writes the index of a work tree it only reads.
        command.env("GIT_NO_REPLACE_OBJECTS", "1");
        command.env("GIT_OPTIONAL_LOCKS", "0");
        command.env("GIT_TERMINAL_PROMPT", "0");
        if std::env::var_os("GIT_SSH_COMMAND").is_none() {
            command.env(
                "GIT_SSH_COMMAND",
                "ssh -o BatchMode=yes -o ConnectTimeout=10",
            );
        }
        command.stdin(Stdio::null());
        Git { command }
    }

    /// git on the repository whose git folder is `git_dir` (a bare clone: no work tree).
    pub(crate) fn on(git_dir: &Path) -> Git {
        let mut git = Git::new(git_dir);
        git.command.arg("--git-dir").arg(git_dir);
        git
    }

    /// git on the work tree `tree`, run from its folder `cwd` (so that `--relative` and
    /// `ls-files` name paths from there).
    pub(crate) fn in_work_tree(tree: &WorkTree, cwd: &Path) -> Git {
        let mut git = Git::new(cwd);
        git.command.arg("--git-dir").arg(&tree.git_dir);
        git.command.arg("--work-tree").arg(&tree.top);
        git
    }

    /// Git may not fetch the objects a partial clone lacks (`GIT_NO_LAZY_FETCH`): a missing
    /// file content is missing, not fetched.
    pub(crate) fn no_lazy_fetch(mut self) -> Git {
        self.command.env("GIT_NO_LAZY_FETCH", "1");
        self
    }

    /// The code's own words: the subcommand and its options.
    pub(crate) fn args<const N: usize>(mut self, words: [&'static str; N]) -> Git {
        self.command.args(words);
        self
    }

    /// `--name=value` as one word: git reads all of it as the option's value.
    pub(crate) fn option(mut self, name: &'static str, value: &str) -> Git {
        self.command.arg(format!("{name}={value}"));
        self
    }

    /// A revision, refspec or branch name from a user, content or a repository. Refused when
    /// git could read it as an option: empty, or starting with `-`.
    pub(crate) fn value(mut self, value: &str) -> Result<Git, String> {
        if value.is_empty() || value.starts_with('-') || value.contains('\0') {
            return Err(format!(
                "`{}` cannot be given to git: it would be read as an option",
                terminal::escape(value)
            ));
        }
        self.command.arg(value);
        Ok(self)
    }

    /// `--`, then `items` (paths, URLs): git reads none of them as an option.
    pub(crate) fn operands<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(mut self, items: I) -> Git {
        self.command.arg("--").args(items);
        self
    }

    /// Runs the command to its end and returns what it printed; killed after `timeout` when
    /// one is given. A failure is one line: git's last line of error output, or why it did
    /// not run.
    pub(crate) fn run(mut self, timeout: Option<Duration>) -> Result<Vec<u8>, String> {
        run(&mut self.command, timeout)
    }

    /// Starts the command with its input and output piped to the caller, errors dropped.
    fn spawn_piped(mut self) -> Result<Child, String> {
        self.command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("could not run git: {e}"))
    }
}

/// Runs `command` to its end (see [`Git::run`]).
fn run(command: &mut Command, timeout: Option<Duration>) -> Result<Vec<u8>, String> {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("could not run git: {e}"))?;
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let status = match timeout {
        None => child.wait().map(Some),
        Some(limit) => wait_at_most(&mut child, limit),
    }
    .map_err(|e| format!("git did not finish: {e}"))?;
    let Some(status) = status else {
        // Not joined: a helper git started (`git-remote-https`) may hold the pipes open a
        // little longer, and the run should not wait for it.
        return Err(format!(
            "git took longer than {} s and was stopped",
            timeout.unwrap_or_default().as_secs()
        ));
    };
    let output = stdout.join().unwrap_or_default();
    let errors = stderr.join().unwrap_or_default();
    match status.success() {
        true => Ok(output),
        false => Err(last_line(&errors)),
    }
}

/// Reads a pipe to its end on a thread of its own, so that a chatty child never blocks.
fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    })
}

/// Waits for `child` up to `limit`; kills it past that (`None`).
fn wait_at_most(
    child: &mut Child,
    limit: Duration,
) -> std::io::Result<Option<std::process::ExitStatus>> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        if Instant::now() >= deadline {
            child.kill()?;
            child.wait()?;
            return Ok(None);
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// The last non-empty line of git's error output (`fatal: …`), or a generic word; control
/// characters escaped, since it may quote a repository's file names.
fn last_line(errors: &[u8]) -> String {
    let errors = String::from_utf8_lossy(errors);
    let line = errors
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("git failed");
    terminal::escape(line).into_owned()
}

/// The largest object fieldnotes reads from a repository: 16 MiB (a file of source code is
/// rarely past 1 MiB; SQLite's 9 MB amalgamation fits). A larger one is
/// [`Object::TooLarge`]: its size is asked first (`cat-file --batch-check`), and its content
/// never read, by fieldnotes or by git on its behalf.
pub(crate) const MAX_OBJECT_BYTES: u64 = 16 << 20;

/// What `cat-file` answered for one object name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Object {
    Found {
        oid: String,
        /// `commit`, `tree`, `blob` or `tag`.
        kind: String,
        data: Vec<u8>,
    },
    /// An object past [`MAX_OBJECT_BYTES`]: its name, kind and size, its content not read.
    TooLarge {
        oid: String,
        kind: String,
        size: u64,
    },
    Missing,
    /// A short hash that starts more than one object's name.
    Ambiguous,
    /// A file whose content a partial clone has not fetched, and may not fetch now.
    NotFetched,
}

impl Object {
    /// The object's full hash and kind, whether its content was read or not.
    pub(crate) fn identity(&self) -> Option<(&str, &str)> {
        match self {
            Object::Found { oid, kind, .. } | Object::TooLarge { oid, kind, .. } => {
                Some((oid, kind))
            }
            _ => None,
        }
    }
}

/// The full hash of the commit `name` names in the repository `git` runs on, or what to do
/// when it names none (`rev-parse --verify --end-of-options`: a name git could read as an
/// option is never one). `lint --changed-since` and `diff --base` resolve revisions this way.
pub(crate) fn resolve_commit(git: Git, name: &str) -> Result<String, String> {
    git.args(["rev-parse", "--verify", "--quiet", "--end-of-options"])
        .value(&format!("{name}^{{commit}}"))
        .and_then(|rev_parse| rev_parse.run(None))
        .map(|out| String::from_utf8_lossy(&out).trim().to_string())
        .map_err(|_| {
            format!(
                "no commit `{}` in this repository; give a branch, tag or commit it has (in \
                 CI, fetch it first: `git fetch origin main`, or check out with \
                 `fetch-depth: 0`)",
                crate::terminal::escape(name)
            )
        })
}

/// Why an object's content was not read: it is past [`MAX_OBJECT_BYTES`].
pub(crate) fn too_large(what: &str, size: u64) -> String {
    format!(
        "{what} is {} MiB, past the {} MiB fieldnotes reads from a repository",
        size.div_ceil(1 << 20),
        MAX_OBJECT_BYTES >> 20
    )
}

/// One `git cat-file` process: names in, answers out.
struct Pipe {
    child: Child,
    input: Option<ChildStdin>,
    output: BufReader<ChildStdout>,
}

impl Pipe {
    fn start(git: Git, mode: &'static str) -> Result<Pipe, String> {
        let mut child = git.args(["cat-file", mode]).spawn_piped()?;
        let input = child.stdin.take();
        let output = BufReader::new(child.stdout.take().ok_or("git gave no output pipe")?);
        Ok(Pipe {
            child,
            input,
            output,
        })
    }

    /// Writes `batch` (names, one a line) whole.
    fn ask(&mut self, batch: &str) -> Result<(), String> {
        let input = self.input.as_mut().ok_or("git cat-file is closed")?;
        input.write_all(batch.as_bytes()).map_err(broken)?;
        input.flush().map_err(broken)
    }

    /// Reads one header line: `<oid> <kind> <size>`, or the name and `missing` or
    /// `ambiguous`.
    fn header(&mut self) -> Result<Header, String> {
        let mut line = String::new();
        if self.output.read_line(&mut line).map_err(broken)? == 0 {
            return Err("git cat-file stopped answering".to_string());
        }
        let line = line.trim_end_matches('\n');
        if line.ends_with(" missing") {
            return Ok(Header::Missing);
        }
        if line.ends_with(" ambiguous") {
            return Ok(Header::Ambiguous);
        }
        let mut fields = line.split(' ');
        match (fields.next(), fields.next(), fields.next().map(str::parse)) {
            (Some(oid), Some(kind), Some(Ok(size))) => Ok(Header::Found {
                oid: oid.to_string(),
                kind: kind.to_string(),
                size,
            }),
            _ => Err(format!(
                "git cat-file answered `{}`",
                terminal::escape(line)
            )),
        }
    }
}

impl Drop for Pipe {
    fn drop(&mut self) {
        // Closing its input ends `cat-file`; wait so that no zombie is left.
        drop(self.input.take());
        let _ = self.child.wait();
    }
}

fn broken(e: std::io::Error) -> String {
    format!("git cat-file stopped answering: {e}")
}

/// A header `cat-file` wrote.
enum Header {
    Found {
        oid: String,
        kind: String,
        size: u64,
    },
    Missing,
    Ambiguous,
}

/// A repository's object reader: `git cat-file --batch-check` tells each object's kind and
/// size, and `git cat-file --batch` gives the content of those not past
/// [`MAX_OBJECT_BYTES`], asked for by full hash.
pub(crate) struct Objects {
    check: Pipe,
    contents: Pipe,
}

impl Objects {
    /// Starts both processes, each on the repository as `git` gives it.
    pub(crate) fn start(git: impl Fn() -> Git) -> Result<Objects, String> {
        Ok(Objects {
            check: Pipe::start(git(), "--batch-check")?,
            contents: Pipe::start(git(), "--batch")?,
        })
    }

    /// The objects `names` name, in order: asked for in batches, each written whole before
    /// its answers are read (a batch of names fits in a pipe's buffer, so that neither side
    /// waits on the other).
    pub(crate) fn get_many<S: AsRef<str>>(&mut self, names: &[S]) -> Result<Vec<Object>, String> {
        self.get_many_within(names, MAX_OBJECT_BYTES)
    }

    /// [`Objects::get_many`], reading no object past `limit` bytes (nor past
    /// [`MAX_OBJECT_BYTES`]): a larger one is [`Object::TooLarge`], its content never read.
    pub(crate) fn get_many_within<S: AsRef<str>>(
        &mut self,
        names: &[S],
        limit: u64,
    ) -> Result<Vec<Object>, String> {
        let limit = limit.min(MAX_OBJECT_BYTES);
        const BATCH_BYTES: usize = 16 * 1024;
        let mut objects = Vec::with_capacity(names.len());
        let mut rest = names;
        while !rest.is_empty() {
            let mut batch = String::new();
            let mut count = 0;
            for name in rest {
                let name = name.as_ref();
                if name.contains(['\n', '\r']) {
                    return Err(format!(
                        "{name:?}: a name with a line break cannot be looked up"
                    ));
                }
                if count > 0 && batch.len() + name.len() >= BATCH_BYTES {
                    break;
                }
                batch.push_str(name);
                batch.push('\n');
                count += 1;
            }
            self.check.ask(&batch)?;
            let headers = (0..count)
                .map(|_| self.check.header())
                .collect::<Result<Vec<_>, _>>()?;
            self.read(headers, limit, &mut objects)?;
            rest = &rest[count..];
        }
        Ok(objects)
    }

    /// The objects `headers` describe: the content of each found one within `limit` read
    /// by its full hash, the others answered from their header alone.
    fn read(
        &mut self,
        headers: Vec<Header>,
        limit: u64,
        objects: &mut Vec<Object>,
    ) -> Result<(), String> {
        let small = |h: &Header| matches!(h, Header::Found { size, .. } if *size <= limit);
        let wanted: String = (headers.iter().filter(|h| small(h)))
            .filter_map(|h| match h {
                Header::Found { oid, .. } => Some(format!("{oid}\n")),
                _ => None,
            })
            .collect();
        if !wanted.is_empty() {
            self.contents.ask(&wanted)?;
        }
        for header in headers {
            objects.push(match header {
                Header::Found { oid, kind, size } if size > limit => {
                    Object::TooLarge { oid, kind, size }
                }
                Header::Found { oid, .. } => self.content(&oid)?,
                Header::Missing => Object::Missing,
                Header::Ambiguous => Object::Ambiguous,
            });
        }
        Ok(())
    }

    /// Reads the content `--batch` answers for `oid`.
    fn content(&mut self, oid: &str) -> Result<Object, String> {
        let Header::Found {
            oid: got,
            kind,
            size,
        } = self.contents.header()?
        else {
            return Err(format!("git cat-file lost object {oid}"));
        };
        if got != oid || size > MAX_OBJECT_BYTES {
            return Err(format!("git cat-file answered {got} for {oid}"));
        }
        let mut data = vec![0; size as usize + 1];
        self.contents.output.read_exact(&mut data).map_err(broken)?;
        data.pop();
        Ok(Object::Found {
            oid: got,
            kind,
            data,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_past_its_time_limit_is_stopped() {
        let started = Instant::now();
        let mut sleep = Command::new("sleep");
        sleep.arg("5");
        let out = run(&mut sleep, Some(Duration::from_millis(200)));
        assert!(out.is_err_and(|e| e.contains("longer than")));
        assert!(started.elapsed() < Duration::from_secs(4));
    }

    #[test]
    fn a_failure_is_its_last_line_of_errors() {
        assert_eq!(
            last_line(b"hint: x\nfatal: no such remote\n\n"),
            "fatal: no such remote"
        );
        assert_eq!(last_line(b""), "git failed");
        assert_eq!(
            last_line(b"fatal: path '\x1b[2J' does not exist\n"),
            "fatal: path '\\u{1b}[2J' does not exist"
        );
    }

    #[test]
    fn values_git_would_read_as_options_are_refused() {
        let here = Path::new(".");
        for value in ["--output=x", "-p", "", "a\0b"] {
            assert!(Git::new(here).value(value).is_err(), "{value:?}");
        }
        for value in ["HEAD", "origin/main", "3f4e5d6^{commit}", "a:refs/b"] {
            assert!(Git::new(here).value(value).is_ok(), "{value:?}");
        }
    }

    /// Every git process goes through [`Git`]: no other file of `src/` starts one.
    #[test]
    fn git_is_started_only_here() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let here = src.join("provenance").join("git.rs");
        let mut folders = vec![src];
        let mut starters = Vec::new();
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).expect("src is readable") {
                let path = entry.expect("an entry").path();
                if path.is_dir() {
                    folders.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") && path != here {
                    let text = std::fs::read_to_string(&path).expect("a source file");
                    if text.contains("Command::new(\"git\")") {
                        starters.push(path.display().to_string());
                    }
                }
            }
        }
        assert!(starters.is_empty(), "git started outside Git: {starters:?}");
    }
}
