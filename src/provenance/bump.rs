//! Bump: re-pins every source whose lines hold on its repository's default branch —
//! unchanged, or moved as they were — to the branch's head: its `commit` and `path` (file and
//! line ranges) rewritten where they stand in the front matter, in the style they were
//! written in (plain, 'single' or "double" quoted), every other byte of the file kept.
//! Sources whose lines changed or are gone, or that could not be checked, are left as they
//! are and listed with the reason. `lastVerified` is never touched: a bump says where the
//! lines are, not that a person read them again.

use super::pin::format_path;
use super::verdict::{Drift, DriftReport, State};
use crate::beneath::Root;
use crate::error::Error;
use crate::index::SiteIndex;
use crate::parse::source_path;
use crate::parse::yaml::{self, NodeKind, ScalarType};
use crate::terminal;
use crate::text_file::{Span, TextFile};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a bump would do: files to rewrite, sources left as they were.
#[derive(Debug, Default)]
pub struct Bump {
    pub files: Vec<FileBump>,
    pub left: Vec<Left>,
    /// Sources already pinned to the head with their lines where they say.
    pub current: usize,
}

/// One site file with its new text.
#[derive(Debug)]
pub struct FileBump {
    /// The file, relative to the site root (as printed, and as a path).
    pub path: String,
    pub relative: PathBuf,
    pub before: String,
    pub after: String,
    /// How many sources it re-pins.
    pub sources: usize,
}

/// A source left as it was, and why.
#[derive(Debug)]
pub struct Left {
    pub file: String,
    pub line: usize,
    /// Where the value that could not be rewritten stands, when that is why.
    pub column: Option<usize>,
    pub state: State,
    pub why: String,
    /// Left because of how a value is written (an anchor, alias or tag; several lines): the
    /// source would hold, and a person must rewrite it before bump can. `sources bump` exits
    /// 1 when there is one.
    pub refused: bool,
    /// Left because the source says `pin: fixed`: its commit is the point of it.
    pub fixed: bool,
}

/// Why a source is left as it is: in a few words, and the value that could not be rewritten
/// when that is why.
struct Why {
    text: String,
    refused_at: Option<Span>,
    fixed: bool,
}

impl From<String> for Why {
    fn from(text: String) -> Why {
        Why {
            text,
            refused_at: None,
            fixed: false,
        }
    }
}

impl From<&str> for Why {
    fn from(text: &str) -> Why {
        Why::from(text.to_string())
    }
}

/// One value to write in place of another.
struct Edit {
    span: Span,
    text: String,
}

/// Plans the bump of every source in `report` (what `sources drift` found).
pub fn plan(index: &SiteIndex, report: &DriftReport<'_>) -> Bump {
    let mut bump = Bump::default();
    let mut edits: BTreeMap<usize, Vec<Edit>> = BTreeMap::new();
    let mut counts: BTreeMap<usize, usize> = BTreeMap::new();
    for drift in &report.sources {
        let (file, line) = drift.pinned.place(index);
        let leave = |why: Why| {
            let at = why
                .refused_at
                .map(|span| index.files[span.file].line_col(span.start));
            Left {
                file: file.clone(),
                line: at.map_or(line, |at| at.line),
                column: at.map(|at| at.column),
                state: drift.state,
                why: why.text,
                refused: at.is_some(),
                fixed: why.fixed,
            }
        };
        match repin(index, drift) {
            Ok(None) => bump.current += 1,
            Ok(Some(new)) => {
                let at = drift.pinned.source.span.file;
                *counts.entry(at).or_default() += 1;
                edits.entry(at).or_default().extend(new);
            }
            Err(why) => bump.left.push(leave(why)),
        }
    }
    for (at, mut edits) in edits {
        let source = &index.files[at];
        edits.sort_by_key(|e| std::cmp::Reverse(e.span.start));
        let mut after = source.text.clone();
        for edit in edits {
            after.replace_range(edit.span.start..edit.span.end, &edit.text);
        }
        if !front_matter_parses(&after) {
            // Never reached with the checks above; a last guard that no note is written into
            // a file whose front matter no longer reads.
            bump.left.push(Left {
                file: source.display_path(),
                line: 1,
                column: None,
                state: State::Unchanged,
                why: "its front matter would not parse once rewritten; re-pin it by hand"
                    .to_string(),
                refused: true,
                fixed: false,
            });
            continue;
        }
        bump.files.push(FileBump {
            path: source.display_path(),
            relative: source.path.clone(),
            before: source.text.clone(),
            after,
            sources: counts[&at],
        });
    }
    bump
}

/// The edits that re-pin `drift`'s source to the head (`None`: it is pinned there already),
/// or why it is left as it is.
fn repin(index: &SiteIndex, drift: &Drift<'_>) -> Result<Option<Vec<Edit>>, Why> {
    let describe = || match drift.state {
        State::Changed => "its lines changed; read them again and pin them by hand".to_string(),
        State::Gone => "its file is gone; find where the claim stands now".to_string(),
        _ => drift.reason.clone().unwrap_or_default(),
    };
    if drift.pinned.source.fixed() {
        return Err(fixed(drift));
    }
    if !matches!(drift.state, State::Unchanged | State::Moved) {
        return Err(describe().into());
    }
    let head = drift.head.as_deref().ok_or_else(describe)?;
    let pinned = &drift.pinned;
    if pinned.by_url {
        return Err(
            "its `url` pins it (no `commit` and `path`): edit the URL, or add \
                    `commit` and `path`"
                .into(),
        );
    }
    let file = match pinned.ranges.is_empty() {
        true => drift.file_now.clone(),
        false => one_file(drift)?,
    }
    .ok_or_else(describe)?;
    let ranges: Vec<_> = drift.ranges.iter().filter_map(|r| r.now).collect();
    let path = format_path(&file, &ranges);
    let written = pinned.commit.value.as_str();
    let commit = head
        .get(..written.len().clamp(7, head.len()))
        .unwrap_or(head);
    if commit.eq_ignore_ascii_case(written) && path == pinned.path() {
        return Ok(None);
    }
    match source_path::read(&path) {
        Ok(read) if read.file == file && read.lines == ranges => {}
        _ => return Err(format!("`{path}` would not read back as the file and lines").into()),
    }
    let source_file = &index.files[pinned.source.span.file];
    let path_span = (pinned.source.path.as_ref())
        .map(|p| p.span)
        .ok_or("it pins no path")?;
    Ok(Some(vec![
        edit(source_file, pinned.commit.span, commit)?,
        edit(source_file, path_span, &path)?,
    ]))
}

/// Why a `pin: fixed` source is left at its commit, and what drift saw of its lines.
fn fixed(drift: &Drift<'_>) -> Why {
    let commit = super::short(&drift.pinned.commit.value);
    let branch = drift.branch.as_deref().unwrap_or("the default branch");
    let seen = match drift.state {
        State::Unchanged => format!("its lines are unchanged on {branch}"),
        State::Moved | State::Changed | State::Gone => {
            format!("its lines {} on {branch}", drift.state.as_str())
        }
        _ => format!(
            "it could not be compared ({})",
            drift.reason.as_deref().unwrap_or("not checked")
        ),
    };
    Why {
        text: format!(
            "`pin: fixed`: the commit {commit} is the point of this source, so it stays \
             pinned there ({seen}); remove `pin: fixed` to let bump move it"
        ),
        refused_at: None,
        fixed: true,
    }
}

/// Writing `value` in place of the scalar at `span` of `file`: the scalar itself (a quoted
/// one's span may run on past its closing quote, over spaces and a comment), in its style.
/// A scalar that is more than its text — it carries an anchor (`&p`, which aliases elsewhere
/// name), is an alias (`*p`, whose anchored value other keys share) or has a tag — is refused
/// at its place: rewriting it would drop the anchor or change every value the alias shares.
fn edit(file: &TextFile, span: Span, value: &str) -> Result<Edit, Why> {
    let written = file.text.get(span.start..span.end).unwrap_or_default();
    let refuse = |text: String| Why {
        text,
        refused_at: Some(span),
        fixed: false,
    };
    if let Some(mark) = written
        .chars()
        .next()
        .filter(|c| matches!(c, '&' | '*' | '!'))
    {
        let what = match mark {
            '&' => "carries a YAML anchor, which aliases may name",
            '*' => "is a YAML alias, whose anchored value other keys share",
            _ => "carries a YAML tag",
        };
        return Err(refuse(format!(
            "`{}` {what}: write the value itself here (no `&`, `*` or `!`) and run bump again",
            written.lines().next().unwrap_or_default()
        )));
    }
    let span = Span::new(span.file, span.start, span.start + scalar_len(written));
    Ok(Edit {
        span,
        text: scalar(file, span, value).map_err(refuse)?,
    })
}

/// How many bytes of `written` the scalar takes: up to its closing quote when quoted.
pub(crate) fn scalar_len(written: &str) -> usize {
    let bytes = written.as_bytes();
    let mut i = 1;
    match bytes.first() {
        Some(b'"') => {
            while i < bytes.len() {
                match bytes[i] {
                    b'\\' => i += 2,
                    b'"' => return i + 1,
                    _ => i += 1,
                }
            }
        }
        Some(b'\'') => {
            while i < bytes.len() {
                match (bytes[i], bytes.get(i + 1)) {
                    (b'\'', Some(b'\'')) => i += 2,
                    (b'\'', _) => return i + 1,
                    _ => i += 1,
                }
            }
        }
        _ => {}
    }
    written.len()
}

/// The file that holds every range now.
fn one_file(drift: &Drift<'_>) -> Result<Option<String>, String> {
    let mut files = drift.ranges.iter().filter_map(|r| r.file.as_deref());
    let first = files.next().map(str::to_string);
    match files.all(|f| Some(f) == first.as_deref()) {
        true => Ok(first),
        false => Err("its lines are now in more than one file; split the source".to_string()),
    }
}

/// `value` written as the scalar at `span` of `file` is written: plain, single- or
/// double-quoted (a plain scalar that YAML would read as something else is single-quoted).
fn scalar(file: &TextFile, span: Span, value: &str) -> Result<String, String> {
    let written = file.text.get(span.start..span.end).unwrap_or_default();
    if written.contains('\n') || value.chars().any(char::is_control) {
        return Err(format!(
            "`{}` is written over several lines or would hold a control character; \
             edit it by hand",
            terminal::escape(written)
        ));
    }
    let single = || format!("'{}'", value.replace('\'', "''"));
    let text = match written.chars().next() {
        Some('"') => format!("\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\"")),
        Some('\'') => single(),
        _ if reads_back(value, value) => value.to_string(),
        _ => single(),
    };
    match reads_back(&text, value) {
        true => Ok(text),
        false => Err(format!("`{value}` cannot be written as `{written}` is")),
    }
}

/// Whether the front matter of the file text `text` parses as YAML.
fn front_matter_parses(text: &str) -> bool {
    let crate::parse::frontmatter::Split::Found { yaml, .. } =
        crate::parse::frontmatter::split(text)
    else {
        return false;
    };
    let source = TextFile::new("bump", text.to_string());
    yaml::parse(&source, 0, yaml.start, yaml.end).is_ok()
}

/// Whether `text` after `key: ` reads as the string `value` (also how `fieldnotes submit`
/// checks every value it writes).
pub(crate) fn reads_back(text: &str, value: &str) -> bool {
    let yaml = format!("key: {text}\n");
    let source = TextFile::new("bump", yaml);
    let Ok(node) = yaml::parse(&source, 0, 0, source.text.len()) else {
        return false;
    };
    match node.kind {
        NodeKind::Map(entries) => matches!(
            &entries[..],
            [(_, v)] if v.kind == NodeKind::Scalar(value.to_string(), ScalarType::Str)
        ),
        _ => false,
    }
}

/// Why bump may not run on the site: lint finds content it does not read (FN001: a symlink
/// that leads elsewhere, a file that is not text), which bump would otherwise write through
/// or beside. `None` when there is none.
pub fn refusal(index: &SiteIndex) -> Option<String> {
    let mut paths: Vec<String> = (index.unreadable.iter())
        .map(|bad| index.files[bad.file].display_path())
        .chain(index.assets.refused.iter().map(|bad| bad.path.clone()))
        .collect();
    if paths.is_empty() {
        return None;
    }
    paths.sort();
    Some(format!(
        "sources bump rewrites files in place, and the site holds entries lint does not read \
         (FN001): {}; fix them (`fieldnotes lint` says how) and run bump again",
        terminal::escape(&paths.join(", "))
    ))
}

/// Writes each file's new text in place of the old, after checking that nothing changed it
/// since it was read. The new text goes to a staging file beside it, created new (never an
/// existing file or symlink), then renamed over the file, which must itself be a regular
/// file inside `root`. Returns how many files were written; a file that cannot be written
/// stops the bump there, and says which.
pub fn write(root: &Path, bump: &Bump) -> Result<usize, Error> {
    let real_root = root
        .canonicalize()
        .map_err(|e| Error::io(root, "read the site folder", e))?;
    for (n, file) in bump.files.iter().enumerate() {
        let path = root.join(&file.relative);
        let io = |e: std::io::Error| Error::io(&path, "rewrite", e);
        let refuse = |why: &str| Error::Usage {
            message: format!(
                "{}: {why}; nothing more was written ({n} of {} files were)",
                file.path,
                bump.files.len()
            ),
        };
        let inside = (path.parent().and_then(|p| p.canonicalize().ok()))
            .is_some_and(|parent| parent.starts_with(&real_root));
        let meta = std::fs::symlink_metadata(&path).map_err(io)?;
        if !meta.file_type().is_file() || !inside {
            return Err(refuse("not a regular file inside the site"));
        }
        let now = std::fs::read(&path).map_err(io)?;
        if now != file.before.as_bytes() {
            return Err(refuse(
                "changed while fieldnotes read it; run the command again",
            ));
        }
        // Through the one write layer: no symlink followed from the site root to the note.
        let written = Root::create(root).and_then(|site| {
            site.replace_with(
                &file.relative,
                file.after.as_bytes(),
                Some(meta.permissions()),
            )
        });
        if let Err(e) = written {
            return Err(refuse(&e.to_string()));
        }
    }
    Ok(bump.files.len())
}

/// The bump as a diff of each file (three lines of context), for `--dry-run`.
pub fn diff(bump: &Bump) -> String {
    let mut out = String::new();
    for file in &bump.files {
        let before: Vec<&str> = file.before.split_inclusive('\n').collect();
        let after: Vec<&str> = file.after.split_inclusive('\n').collect();
        out.push_str(&format!("--- a/{0}\n+++ b/{0}\n", file.path));
        // Values are rewritten within their lines: line i before is line i after.
        let changed: Vec<usize> = (0..before.len())
            .filter(|&i| before[i] != after[i])
            .collect();
        let mut i = 0;
        while i < changed.len() {
            let mut j = i;
            while j + 1 < changed.len() && changed[j + 1] - changed[j] <= 7 {
                j += 1;
            }
            let from = changed[i].saturating_sub(3);
            let to = (changed[j] + 4).min(before.len());
            let count = to - from;
            out.push_str(&format!("@@ -{0},{count} +{0},{count} @@\n", from + 1));
            for line in from..to {
                match before[line] == after[line] {
                    true => push_line(&mut out, ' ', before[line]),
                    false => {
                        push_line(&mut out, '-', before[line]);
                        push_line(&mut out, '+', after[line]);
                    }
                }
            }
            i = j + 1;
        }
    }
    terminal::escape_source(&out).into_owned()
}

fn push_line(out: &mut String, mark: char, line: &str) {
    out.push(mark);
    out.push_str(line.trim_end_matches(['\n', '\r']));
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written_as(written: &str, value: &str) -> Result<String, String> {
        let file = TextFile::new("x.md", format!("commit: {written}\n"));
        scalar(&file, Span::new(0, 8, 8 + written.len()), value)
    }

    #[test]
    fn a_quoted_scalar_ends_at_its_closing_quote() {
        assert_eq!(scalar_len("\"a\\\"b\"   # c"), 6);
        assert_eq!(scalar_len("'it''s'  # c"), 7);
        assert_eq!(scalar_len("plain"), 5);
    }

    #[test]
    fn values_keep_the_style_they_were_written_in() {
        assert_eq!(written_as("abc1234", "def5678").as_deref(), Ok("def5678"));
        assert_eq!(
            written_as("'abc1234'", "def5678").as_deref(),
            Ok("'def5678'")
        );
        assert_eq!(
            written_as("\"a.py:3\"", "b \"c\".py:4").as_deref(),
            Ok("\"b \\\"c\\\".py:4\"")
        );
        // Plain text YAML would read as a number or a comment is quoted.
        assert_eq!(written_as("abc1234", "1234567").as_deref(), Ok("'1234567'"));
        assert_eq!(written_as("abc1234", "12e4567").as_deref(), Ok("'12e4567'"));
        assert_eq!(written_as("a.py", "it's.py").as_deref(), Ok("it's.py"));
        assert_eq!(
            written_as("a.py", "it's #1.py").as_deref(),
            Ok("'it''s #1.py'")
        );
        assert_eq!(written_as("a.py", "a #b.py").as_deref(), Ok("'a #b.py'"));
        assert!(written_as("a.py", "a\nb.py").is_err());
    }
}
