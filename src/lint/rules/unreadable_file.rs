//! FN001 unreadable-file: a content entry that cannot be read as UTF-8 text (not UTF-8, not a
//! regular file), or an entry of any input folder (content, templates, static files, the
//! theme) that is not read: a symlink that dangles, loops, leads out of its folder or into
//! `.git`.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::load::Problem;

pub const META: RuleMeta = RuleMeta {
    code: "FN001",
    name: "unreadable-file",
    severity: Severity::Error,
    scope: Scope::Global, // reads the load's unreadable files
    reads: Reads::FrontMatter,
    summary: "a content file that cannot be read as UTF-8 text, or a symlink that is not followed",
    doc: r#"## What it flags

A `.md` entry under `content/` that could not be read: it is not UTF-8 text (saved as Latin-1 or
UTF-16, or binary); it is a FIFO, socket or device rather than a file; it is a symlink whose
target does not exist, that leads back to itself (or a folder to one above it), or that leads
out of `content/`; or the file system refused to read it.

And an entry of the site's other input folders (`templates/`, `static/`, `themes/`, the
theme's `templates/` and `static/`), or such a folder itself, that is not read: a symlink that
dangles, loops, or leads out of the folder it was found in (a folder: out of the site, or out
of `themes/` or the theme); anything that leads into a `.git` folder; a FIFO, socket or device.

## Why

Nothing in the file can be checked or published. Other findings in it, if any, are read from a
lossy copy and may be wrong. Content comes from pull requests: fieldnotes never reads through
a symlink that leaves the folder it was found in (it could publish any file of the machine
that builds the site, a `.env` beside the content, or `.git/config`, which can hold a token;
or show the first line of one in a lint code frame), and never opens a FIFO (reading it would
wait forever).

## Example

A note saved by an editor as UTF-16:

```text
content/research/a-note.md: not UTF-8 text (invalid byte at offset 0)
```

Save the file as UTF-8."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for bad in &cx.index.unreadable {
        let Some(help) = help(&bad.problem) else {
            continue;
        };
        sink.report_file(
            &META,
            bad.file,
            format!("the file cannot be read: {}", bad.problem),
            Some(help.to_string()),
        );
    }
    for bad in &cx.index.assets.refused {
        let Some(help) = help(&bad.problem) else {
            continue;
        };
        let what = if bad.folder { "folder" } else { "file" };
        sink.report_path(
            &META,
            &bad.path,
            format!("the {what} is not read: {}", bad.problem),
            Some(help.to_string()),
        );
    }
}

/// What to do about a problem this rule reports; `None` for those other rules report.
fn help(problem: &Problem) -> Option<&'static str> {
    Some(match problem {
        Problem::NotUtf8 { .. } => "save the file as UTF-8 text",
        Problem::NotAFile { .. } => "replace it with a regular Markdown file, or remove it",
        Problem::Dangling => "point the symlink at a file in the site, or put the file itself here",
        Problem::SymlinkLoop => {
            "remove the symlink, or point it at a file or folder that does \
             not hold it"
        }
        Problem::SymlinkOutside { .. } => {
            "fieldnotes reads nothing outside the site's folder: put the file itself here \
             instead of a symlink to it"
        }
        Problem::SymlinkLeaves { .. } => {
            "fieldnotes reads a file only from inside the folder it is found in (content/, \
             templates/, static/, the theme's): put the file itself here instead of a \
             symlink to it"
        }
        Problem::InGit { .. } => {
            "fieldnotes never reads the repository's .git folder (it can hold credentials): \
             remove the symlink"
        }
        Problem::Io { .. } => "check that the file can be read by the user running fieldnotes",
        Problem::TooLarge { .. } | Problem::TooMany { .. } => return None,
    })
}
