//! Where a support cell stands in a client file, and the file with that cell written anew:
//! the lines of the cell (its key line, and every line indented under it) replaced, or a new
//! cell's lines added after the last cell of the `support` map (or a `support` map added at
//! the end of the front matter). Every byte before and after those lines is kept; the new
//! text is parsed again, and must read back as the cell asked for with every other cell as it
//! was, or nothing is written.

use super::cell::Cell;
use crate::model::{Client, ObjectKind};
use crate::parse::{parse_file, Parsed};
use crate::text_file::{Section, TextFile};
use std::ops::Range;

/// A client file with one cell written anew.
#[derive(Debug, Clone)]
pub(crate) struct Edited {
    pub after: String,
    /// The bytes of the old text replaced (an empty range where a cell is added).
    pub replaced: Range<usize>,
    /// The bytes of the new text that hold the cell.
    pub written: Range<usize>,
}

/// `file` (holding `client`) with the cell for `capability` written as `cell`: in place of
/// the cell at `existing` (its position in `client.support`), or added.
pub(crate) fn edit(
    file: &TextFile,
    client: &Client,
    existing: Option<usize>,
    capability: &str,
    cell: &Cell,
) -> Result<Edited, String> {
    let text = file.text.as_str();
    let eol = match text.contains("\r\n") {
        true => "\r\n",
        false => "\n",
    };
    let (at, indent, inner) =
        match existing {
            Some(n) => {
                let old = &client.support[n];
                let key = old.capability.span.start;
                let indent = block_indent(text, key).ok_or(
                    "the cell's key does not start its line; write the support map as a block",
                )?;
                let inner = block_indent(text, old.span.start).filter(|&i| i > indent).ok_or(
                "the cell is written on one line (`{…}`); write its fields on lines of their own",
            )?;
                let start = line_start(text, key);
                let end = block_end(text, start, indent);
                unknown_keys(client, start..end)?;
                (start..end, indent, inner)
            }
            None => match client.support.last() {
                Some(last) => {
                    let key = last.capability.span.start;
                    let indent = block_indent(text, key).ok_or(
                    "the support map's last key does not start its line; write the map as a block",
                )?;
                    let inner = block_indent(text, last.span.start)
                        .filter(|&i| i > indent)
                        .unwrap_or(indent + 2);
                    let end = block_end(text, line_start(text, key), indent);
                    (end..end, indent, inner)
                }
                None => (empty_support(file, client)?, 2, 4),
            },
        };
    let mut lines = cell.yaml(capability, indent, inner)?;
    if eol != "\n" {
        lines = lines.replace('\n', eol);
    }
    let mut insert = String::new();
    let adds_map = existing.is_none() && client.support.is_empty() && !has_support_key(client);
    if adds_map {
        insert.push_str("support:");
        insert.push_str(eol);
    }
    let cell_start = at.start + insert.len();
    insert.push_str(&lines);
    let mut after = String::with_capacity(text.len() + insert.len());
    after.push_str(&text[..at.start]);
    after.push_str(&insert);
    after.push_str(&text[at.end..]);
    let written = cell_start..at.start + insert.len();
    check(file, client, existing, &after, capability, cell)?;
    Ok(Edited {
        after,
        replaced: at,
        written,
    })
}

/// The new text parses, its cell for `capability` reads back as `cell`, and every other cell
/// reads as it did.
fn check(
    file: &TextFile,
    client: &Client,
    existing: Option<usize>,
    after: &str,
    capability: &str,
    cell: &Cell,
) -> Result<(), String> {
    let source = TextFile::new(file.path.clone(), after.to_string());
    let Parsed::Client(new) = parse_file(&source, 0, Section::Clients, usize::MAX) else {
        return Err("the file would not read as a client".to_string());
    };
    let lost = "the file would not read back as written (a guard: nothing was written)";
    if new.doc.front_matter_error.is_some() || !new.doc.type_errors.is_empty() {
        return Err(lost.to_string());
    }
    let mut old: Vec<(String, Cell)> = (client.support.iter())
        .map(|c| (c.capability.value.clone(), Cell::of(c)))
        .collect();
    match existing {
        Some(n) => old[n] = (capability.to_string(), cell.clone()),
        None => old.push((capability.to_string(), cell.clone())),
    }
    let now: Vec<(String, Cell)> = (new.support.iter())
        .map(|c| (c.capability.value.clone(), Cell::of(c)))
        .collect();
    match now == old {
        true => Ok(()),
        false => Err(lost.to_string()),
    }
}

/// Refuses to write a cell anew over fields fieldnotes does not know (they would be lost).
fn unknown_keys(client: &Client, lines: Range<usize>) -> Result<(), String> {
    let unknown: Vec<&str> = (client.doc.keys.iter())
        .filter(|k| lines.contains(&k.span.start))
        .filter(|k| matches!(k.object, ObjectKind::SupportCell | ObjectKind::Source))
        .filter(|k| crate::field_table::find(k.object, &k.key).is_none())
        .map(|k| k.key.as_ref())
        .collect();
    match unknown.is_empty() {
        true => Ok(()),
        false => Err(format!(
            "the cell has fields fieldnotes does not know ({}), which writing it anew would \
             drop",
            crate::terminal::escape(&unknown.join(", "))
        )),
    }
}

/// Whether the client's front matter has a `support` key (empty or null).
fn has_support_key(client: &Client) -> bool {
    (client.doc.keys.iter()).any(|k| k.object == ObjectKind::Client && k.key == "support")
}

/// Where a first cell goes when the map has none: after a `support:` line with nothing after
/// the colon, or (no `support` key) before the front matter's closing `---`.
fn empty_support(file: &TextFile, client: &Client) -> Result<Range<usize>, String> {
    let text = file.text.as_str();
    let key =
        (client.doc.keys.iter()).find(|k| k.object == ObjectKind::Client && k.key == "support");
    if let Some(key) = key {
        let end = line_end(text, key.span.start);
        let line = &text[key.span.start..end];
        let value = line.trim_end_matches(['\n', '\r']).strip_prefix("support:");
        return match value.map(str::trim) {
            Some("") => Ok(end..end),
            _ => Err(
                "`support:` has a value on its line (`{}`?); write the map as a block, or \
                      leave `support:` alone on its line"
                    .to_string(),
            ),
        };
    }
    let block = client.doc.front_matter;
    if block.end == 0 {
        return Err("the file has no front matter".to_string());
    }
    let inner = &text[block.start..block.end];
    let trimmed = inner.trim_end_matches(['\n', '\r']);
    let close = trimmed.rfind('\n').map_or(0, |i| i + 1);
    match trimmed[close..].trim_end() == "---" {
        true => Ok(block.start + close..block.start + close),
        false => Err("the front matter's closing `---` was not found".to_string()),
    }
}

/// The indentation of the line `at` is on, when only spaces stand before `at` on it.
fn block_indent(text: &str, at: usize) -> Option<usize> {
    let start = line_start(text, at);
    let before = &text[start..at];
    before.bytes().all(|b| b == b' ').then_some(before.len())
}

fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |i| i + 1)
}

/// The offset after the end of the line `at` is on (its `\n` included).
fn line_end(text: &str, at: usize) -> usize {
    text[at..].find('\n').map_or(text.len(), |i| at + i + 1)
}

/// Where the block that starts with the line at `start` (indented `indent`) ends: at the
/// first later line indented no deeper that is not blank, with blank and comment lines just
/// before it left outside.
fn block_end(text: &str, start: usize, indent: usize) -> usize {
    let mut at = line_end(text, start);
    let mut end = at;
    while at < text.len() {
        let next = line_end(text, at);
        let line = text[at..next].trim_end_matches(['\n', '\r']);
        let depth = line.len() - line.trim_start_matches(' ').len();
        let content = line.trim_start_matches(' ');
        if content.is_empty() || content.starts_with('#') {
            at = next;
            continue;
        }
        if depth <= indent {
            break;
        }
        at = next;
        end = next;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_ends_before_the_next_key_and_the_blank_lines_before_it() {
        let text = "  a:\n    status: yes\n    notes: |\n      x\n\n      y\n\n  # c\n  b:\n";
        let end = block_end(text, 0, 2);
        assert_eq!(&text[end..], "\n  # c\n  b:\n");
        let last = "  b:\n    status: no\n---\n";
        assert_eq!(&last[block_end(last, 0, 2)..], "---\n");
    }
}
