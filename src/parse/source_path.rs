//! A source's `path` read into its file and line ranges, once, in the parse step: lint
//! (FN403) reports the errors, and pages, `sources verify`, `sources drift` and excerpts read
//! the value, so all of them agree on which lines a source pins.
//!
//! The grammar: `file`, or `file:` then line ranges `N` or `N-M` separated by `,`
//! (`tools/x.py:3-5,9`). The last `:` starts the ranges, so the file may hold a `:` only when
//! lines follow. The file is relative to the repository root: no leading `/`, no drive
//! (`C:\`, `C:/`), no `\`, no `..` segment, no spaces at either end (spaces inside are
//! fine). Lines are digits only, numbered from 1 (`L10`, GitHub's spelling, is refused with
//! the fix); each range runs forwards and starts after the one before it ends.

use crate::model::{LineRange, PathProblem, SourcePath, SourcePathError, Spanned};
use crate::text_file::Span;
use std::fmt;
use std::ops::Range;

/// What is wrong with a path and the byte range of the path it is about.
pub type Located = (PathProblem, Range<usize>);

/// Reads the `path` of a source, as written at `value.span` in `file_text`; an error points at
/// the part of the path that is wrong when the value stands in the file as it is (a plain or
/// quoted scalar without escapes), else at the whole value.
pub fn source_path(
    value: &Spanned<String>,
    file_text: &str,
) -> Result<SourcePath, SourcePathError> {
    read(&value.value).map_err(|(problem, at)| {
        let span = value.span;
        let written = file_text.get(span.start..span.end).unwrap_or_default();
        let start = match written.len().checked_sub(value.value.len()) {
            Some(0) if written == value.value => Some(span.start),
            Some(2) if written.get(1..written.len() - 1) == Some(value.value.as_str()) => {
                Some(span.start + 1)
            }
            _ => None,
        };
        let span = match start {
            Some(start) => Span::new(span.file, start + at.start, start + at.end),
            None => span,
        };
        SourcePathError { problem, span }
    })
}

/// Reads `file[:ranges]`.
pub fn read(text: &str) -> Result<SourcePath, Located> {
    if text.trim().is_empty() {
        return Err((PathProblem::Empty, 0..text.len()));
    }
    if is_drive(text) {
        return Err((PathProblem::Drive, 0..3));
    }
    let (file, ranges) = match text.rfind(':') {
        Some(colon) => (&text[..colon], Some(colon + 1)),
        None => (text, None),
    };
    check_file(file)?;
    let lines = match ranges {
        Some(start) => read_ranges(text, start)?,
        None => Vec::new(),
    };
    Ok(SourcePath {
        file: file.to_string(),
        lines,
    })
}

/// `C:\…` or `C:/…`.
fn is_drive(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() >= 3
        && bytes[0].is_ascii_alphabetic()
        && bytes[1] == b':'
        && b"/\\".contains(&bytes[2])
}

fn check_file(file: &str) -> Result<(), Located> {
    if file.is_empty() {
        return Err((PathProblem::NoFile, 0..1));
    }
    if file.starts_with('/') {
        return Err((PathProblem::Absolute, 0..1));
    }
    if let Some(at) = file.find('\\') {
        return Err((PathProblem::Backslash, at..at + 1));
    }
    let mut at = 0;
    for segment in file.split('/') {
        if segment == ".." {
            return Err((PathProblem::ParentDir, at..at + 2));
        }
        at += segment.len() + 1;
    }
    if file != file.trim() {
        return Err((PathProblem::Spaces, 0..file.len()));
    }
    Ok(())
}

/// The ranges of `text[start..]`, in increasing order.
fn read_ranges(text: &str, start: usize) -> Result<Vec<LineRange>, Located> {
    if start == text.len() {
        return Err((PathProblem::NoLines, start - 1..start));
    }
    let mut ranges: Vec<LineRange> = Vec::new();
    let mut at = start;
    for part in text[start..].split(',') {
        let span = at..at + part.len();
        at += part.len() + 1;
        if part.is_empty() {
            // The `,` before the gap (or after it, for a leading one).
            let comma = span.start.saturating_sub(1).max(start);
            return Err((PathProblem::EmptyRange, comma..comma + 1));
        }
        let (first, last) = match part.split_once('-') {
            Some((a, b)) if a.is_empty() || b.is_empty() => {
                return Err((PathProblem::HalfRange(part.to_string()), span))
            }
            Some((a, b)) => (line(a, span.start)?, line(b, span.start + a.len() + 1)?),
            None => {
                let n = line(part, span.start)?;
                (n, n)
            }
        };
        let range = LineRange::new(first, last).ok_or_else(|| {
            (
                PathProblem::Reversed {
                    start: first,
                    end: last,
                },
                span.clone(),
            )
        })?;
        if ranges.last().is_some_and(|before| first <= before.end()) {
            return Err((PathProblem::OutOfOrder { start: first }, span));
        }
        ranges.push(range);
    }
    Ok(ranges)
}

/// A line number at byte `at` of the path.
fn line(text: &str, at: usize) -> Result<usize, Located> {
    let span = at..at + text.len();
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if let Some(number) = text.strip_prefix(['L', 'l']).filter(|n| digits(n)) {
        return Err((PathProblem::LinePrefix(number.to_string()), span));
    }
    match text.parse::<usize>() {
        Ok(0) if digits(text) => Err((PathProblem::LineZero, span)),
        Ok(n) if digits(text) => Ok(n),
        _ => Err((PathProblem::NotALine(text.to_string()), span)),
    }
}

impl fmt::Display for PathProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathProblem::Empty => write!(f, "the path is empty"),
            PathProblem::NoFile => write!(f, "no file before the line numbers"),
            PathProblem::Absolute => write!(
                f,
                "the file must be relative to the repository root, without a leading `/`"
            ),
            PathProblem::Drive => write!(
                f,
                "the file must be relative to the repository root, not on a Windows drive"
            ),
            PathProblem::Backslash => write!(f, "the file may not contain `\\`: write `/`"),
            PathProblem::ParentDir => write!(f, "the file may not contain `..`"),
            PathProblem::Spaces => write!(f, "the file starts or ends with spaces"),
            PathProblem::NoLines => write!(f, "no line numbers after the `:`"),
            PathProblem::EmptyRange => write!(f, "a `,` with no line range on one side of it"),
            PathProblem::HalfRange(range) => {
                write!(f, "the range `{range}` needs a line on each side of `-`")
            }
            PathProblem::LinePrefix(number) => {
                write!(f, "write line numbers without `L`: `{number}`")
            }
            PathProblem::NotALine(text) => write!(f, "`{text}` is not a line number"),
            PathProblem::LineZero => write!(f, "lines are numbered from 1"),
            PathProblem::Reversed { start, end } => {
                write!(f, "the range {start}-{end} runs backwards")
            }
            PathProblem::OutOfOrder { start } => write!(
                f,
                "the range starting at line {start} overlaps or comes before the one before it"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(start: usize, end: usize) -> LineRange {
        LineRange::new(start, end).expect("a range")
    }

    fn ok(text: &str) -> (String, Vec<LineRange>) {
        let path = read(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        (path.file, path.lines)
    }

    /// The problem, and the part of the path it points at.
    fn bad(text: &str) -> (PathProblem, &str) {
        match read(text) {
            Ok(path) => panic!("{text} read as {path:?}"),
            Err((problem, at)) => (problem, &text[at]),
        }
    }

    #[test]
    fn files_and_ranges_read() {
        let file = |f: &str, lines: Vec<LineRange>| (f.to_string(), lines);
        assert_eq!(ok("a.py"), file("a.py", vec![]));
        assert_eq!(ok("docs/"), file("docs/", vec![]));
        assert_eq!(ok("a/b.py:3"), file("a/b.py", vec![r(3, 3)]));
        assert_eq!(
            ok("t.py:532-560,600-668"),
            file("t.py", vec![r(532, 560), r(600, 668)])
        );
        assert_eq!(
            ok("my docs/a b.md:1-2"),
            file("my docs/a b.md", vec![r(1, 2)])
        );
        // The last `:` starts the lines, so a file may hold a `:` when lines follow.
        assert_eq!(ok("a:b.py:07"), file("a:b.py", vec![r(7, 7)]));
    }

    #[test]
    fn each_problem_points_at_its_part() {
        use PathProblem::*;
        let cases = [
            ("a.py:L10", LinePrefix("10".into()), "L10"),
            ("a.py:3-l5", LinePrefix("5".into()), "l5"),
            ("a.py:20-10", Reversed { start: 20, end: 10 }, "20-10"),
            ("a.py:0-3", LineZero, "0"),
            ("a.py:0", LineZero, "0"),
            ("a.py:3-", HalfRange("3-".into()), "3-"),
            ("a.py:-3", HalfRange("-3".into()), "-3"),
            ("a.py:1-2,", EmptyRange, ","),
            ("a.py:1,,5", EmptyRange, ","),
            ("a.py:,1", EmptyRange, ","),
            ("a.py:", NoLines, ":"),
            ("a.py:5-9,1-2", OutOfOrder { start: 1 }, "1-2"),
            ("a.py:1-5,5", OutOfOrder { start: 5 }, "5"),
            ("a.py: 3", NotALine(" 3".into()), " 3"),
            ("a.py:+3", NotALine("+3".into()), "+3"),
            ("a.py:1-2-3", NotALine("2-3".into()), "2-3"),
            (
                "a.py:99999999999999999999999",
                NotALine("99999999999999999999999".into()),
                "99999999999999999999999",
            ),
            (":1-2", NoFile, ":"),
            ("/a.py:1", Absolute, "/"),
            ("C:\\x.py:3", Drive, "C:\\"),
            ("c:/x.py", Drive, "c:/"),
            ("src\\x.py", Backslash, "\\"),
            ("a/../b.py", ParentDir, ".."),
            (" a.py:3", Spaces, " a.py"),
            ("  ", Empty, "  "),
        ];
        for (text, problem, part) in cases {
            assert_eq!(bad(text), (problem, part), "{text}");
        }
    }

    #[test]
    fn errors_point_into_the_file_when_the_value_stands_as_written() {
        let file_text = "path: a.py:20-10\nquoted: \"a.py:0\"\nescaped: \"a\\x2Epy:0\"\n";
        let at = |needle: &str, value: &str| {
            let start = file_text.find(needle).expect("in the text");
            let value = Spanned::new(value.to_string(), Span::new(0, start, start + needle.len()));
            let span = source_path(&value, file_text).expect_err("bad").span;
            &file_text[span.start..span.end]
        };
        assert_eq!(at("a.py:20-10", "a.py:20-10"), "20-10");
        assert_eq!(at("\"a.py:0\"", "a.py:0"), "0");
        assert_eq!(at("\"a\\x2Epy:0\"", "a.py:0"), "\"a\\x2Epy:0\"");
    }
}
