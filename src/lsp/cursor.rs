//! What the text at a position is: a front matter key being written, a value of a field whose
//! values come from a vocabulary (client, capability, note ids, spec revisions, kinds,
//! statuses), or the destination of a body link. Read from the editor's text as it is, which
//! may not parse: line by line, by indentation.

use crate::lint::vocab::Vocab;
use crate::model::ObjectKind;
use crate::text_file::Section;

/// A word of the text: its byte range and what it says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

/// What the position is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// A key of a front matter object (or where one would be written).
    Key { object: ObjectKind, token: Token },
    /// A value taken from `vocab`.
    Value { vocab: Vocab, token: Token },
    /// The destination of a Markdown link (up to its end, `#anchor` included).
    Link { token: Token },
    /// Anything else.
    Other,
}

/// What the position `offset` of `text`, a document of `section`, is in.
pub fn place(text: &str, offset: usize, section: Section) -> Place {
    let offset = floor_boundary(text, offset);
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let line = text[line_start..line_end].trim_end_matches('\r');
    let column = (offset - line_start).min(line.len());
    if in_front_matter(text, line_start) {
        front_matter_place(text, line_start, line, column, section)
    } else {
        link_place(line, line_start, column)
    }
}

/// Whether the line starting at `line_start` lies between a document's `---` lines.
fn in_front_matter(text: &str, line_start: usize) -> bool {
    let mut lines = text.split_inclusive('\n');
    if lines.next().map(str::trim_end) != Some("---") || line_start == 0 {
        return false;
    }
    let mut at = text.find('\n').map_or(text.len(), |i| i + 1);
    for line in lines {
        if at == line_start {
            return !matches!(line.trim_end(), "---" | "...");
        }
        if matches!(line.trim_end(), "---" | "...") {
            return false;
        }
        at += line.len();
    }
    at == line_start
}

fn front_matter_place(
    text: &str,
    line_start: usize,
    line: &str,
    column: usize,
    section: Section,
) -> Place {
    let trimmed = line.trim_start_matches(' ');
    let spaces = line.len() - trimmed.len();
    let is_item = trimmed.starts_with("- ") || trimmed == "-";
    let content_start = if is_item {
        (spaces + 2).min(line.len())
    } else {
        spaces
    };
    let content = &line[content_start..];
    let parents = ancestors(&text[..line_start], spaces, is_item);
    let parents: Vec<&str> = parents.iter().map(String::as_str).collect();
    let key = split_key(content).map(|(key, value)| (key, content_start + value));
    match key {
        Some((key, value_start)) if column >= value_start => {
            let token = token_at(line, line_start, column, value_start);
            match value_vocab(section, key, &parents) {
                Some(vocab) => Place::Value { vocab, token },
                None => Place::Other,
            }
        }
        // A list item: a value of the list's field.
        None if is_item => {
            let token = token_at(line, line_start, column, content_start);
            let Some((field, above)) = parents.split_first() else {
                return Place::Other;
            };
            match value_vocab(section, field, above) {
                Some(vocab) => Place::Value { vocab, token },
                None => Place::Other,
            }
        }
        // On a key, or writing one.
        _ => {
            let token = token_at(line, line_start, column, content_start);
            if parents == ["support"] && section == Section::Clients {
                let vocab = Vocab::Capabilities;
                return Place::Value { vocab, token };
            }
            match object_of(section, &parents, is_item) {
                Some(object) => Place::Key { object, token },
                None => Place::Other,
            }
        }
    }
}

/// The keys of the objects holding a line indented by `spaces` (a list item when `is_item`),
/// innermost first, read from the lines `above` it.
fn ancestors(above: &str, spaces: usize, is_item: bool) -> Vec<String> {
    let mut keys = Vec::new();
    let (mut level, mut item) = (spaces, is_item);
    for line in above.lines().rev() {
        let line = line.trim_end_matches('\r');
        if line == "---" {
            break;
        }
        let trimmed = line.trim_start_matches(' ');
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indent = line.len() - trimmed.len();
        let line_item = trimmed.starts_with("- ") || trimmed == "-";
        if line_item && !item && indent + 2 == level {
            // A key of the same list item (`- url: …` above `  title: …`).
            (level, item) = (indent, true);
            continue;
        }
        let parent = indent < level || (item && indent == level && !line_item);
        if !parent {
            continue;
        }
        let content = if line_item {
            &trimmed[2.min(trimmed.len())..]
        } else {
            trimmed
        };
        if let Some((key, _)) = split_key(content) {
            keys.push(key.to_string());
        }
        (level, item) = (indent, line_item);
        if indent == 0 && !line_item {
            break;
        }
    }
    keys
}

/// `key: value` → the key and where its value starts (after the `:` and one space).
fn split_key(content: &str) -> Option<(&str, usize)> {
    let bytes = content.as_bytes();
    let colon = (0..bytes.len())
        .find(|&i| bytes[i] == b':' && bytes.get(i + 1).is_none_or(|&b| b == b' '))?;
    let key = content[..colon].trim().trim_matches(['"', '\'']);
    if key.is_empty() || key.contains(' ') {
        return None;
    }
    Some((key, (colon + 2).min(content.len())))
}

/// The vocabulary values of field `key` come from, in an object of `section` held by
/// `parents` (innermost first).
fn value_vocab(section: Section, key: &str, parents: &[&str]) -> Option<Vocab> {
    let in_cell = section == Section::Clients && parents.len() == 2 && parents[1] == "support";
    match (section, key) {
        _ if in_cell => match key {
            "status" => Some(Vocab::SupportStatuses),
            "research" => Some(Vocab::Notes),
            _ => None,
        },
        _ if !parents.is_empty() => None,
        (Section::Research, "kind") => Some(Vocab::Kinds),
        (Section::Research, "status") => Some(Vocab::NoteStatuses),
        (Section::Research, "clients") => Some(Vocab::Clients),
        (Section::Research, "capabilities") => Some(Vocab::Capabilities),
        (Section::Research, "specVersions") => Some(Vocab::SpecVersions),
        (Section::Research, "related" | "supersededBy") => Some(Vocab::Notes),
        (Section::Capabilities, "group") => Some(Vocab::Groups),
        (Section::Capabilities, "introduced" | "deprecated" | "removed") => {
            Some(Vocab::SpecVersions)
        }
        _ => None,
    }
}

/// The kind of object whose keys a line holds.
fn object_of(section: Section, parents: &[&str], is_item: bool) -> Option<ObjectKind> {
    match parents {
        [] if !is_item => Some(crate::parse::object_kind(section)),
        ["sources", ..] => Some(ObjectKind::Source),
        [_, "support"] if section == Section::Clients => Some(ObjectKind::SupportCell),
        _ => None,
    }
}

/// The link destination the cursor is in on `line` (`[text](dest)`), if it is in one.
fn link_place(line: &str, line_start: usize, column: usize) -> Place {
    let before = &line[..column];
    let Some(open) = before.rfind("](") else {
        return Place::Other;
    };
    let start = open + 2;
    if before[start..].contains([')', ' ']) {
        return Place::Other;
    }
    let end = line[column..]
        .find([')', ' ', '"'])
        .map_or(line.len(), |i| column + i);
    Place::Link {
        token: Token {
            start: line_start + start,
            end: line_start + end,
            text: line[start..end].to_string(),
        },
    }
}

/// The word around `column` of `line`, starting no earlier than `from`: ids, revisions and
/// keys, without the quotes, brackets, commas and spaces around them.
fn token_at(line: &str, line_start: usize, column: usize, from: usize) -> Token {
    let stop = |c: char| matches!(c, ' ' | '[' | ']' | ',' | '"' | '\'' | '{' | '}' | '#');
    let from = from.min(column);
    let start = line[from..column]
        .rfind(|c: char| stop(c) || c == ':')
        .map_or(from, |i| from + i + 1);
    let end = line[column..]
        .find(|c: char| stop(c) || c == ':' && column > start)
        .map_or(line.len(), |i| column + i);
    Token {
        start: line_start + start,
        end: line_start + end,
        text: line[start..end].to_string(),
    }
}

fn floor_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOTE: &str = "---\nid: a\nkind: idio\nclients:\n  - cli\nspecVersions: [2025-03-26, 20]\nsources:\n  - url: https://x\n    ti\nrel\n---\n\nSee [x](/clients/cl) here.\n";

    fn at(marker: &str) -> Place {
        let offset = NOTE.find(marker).unwrap() + marker.len();
        place(NOTE, offset, Section::Research)
    }

    fn vocab(place: Place) -> (Option<Vocab>, String) {
        match place {
            Place::Value { vocab, token } => (Some(vocab), token.text),
            Place::Key { token, .. } | Place::Link { token } => (None, token.text),
            Place::Other => (None, "<other>".into()),
        }
    }

    #[test]
    fn values_are_read_by_field() {
        assert_eq!(vocab(at("kind: idio")), (Some(Vocab::Kinds), "idio".into()));
        assert_eq!(vocab(at("  - cli")), (Some(Vocab::Clients), "cli".into()));
        assert_eq!(vocab(at(", 20")), (Some(Vocab::SpecVersions), "20".into()));
        assert_eq!(
            vocab(at("[2025-03")),
            (Some(Vocab::SpecVersions), "2025-03-26".into())
        );
    }

    #[test]
    fn keys_are_read_by_object() {
        let key = |marker| match at(marker) {
            Place::Key { object, token } => Some((object, token.text)),
            _ => None,
        };
        assert_eq!(key("\nrel"), Some((ObjectKind::Note, "rel".into())));
        assert_eq!(key("    ti"), Some((ObjectKind::Source, "ti".into())));
        assert_eq!(at("url: https://x"), Place::Other);
    }

    #[test]
    fn links_are_read_in_the_body() {
        assert_eq!(vocab(at("/clients/cl")), (None, "/clients/cl".into()));
        assert_eq!(at("See "), Place::Other);
    }
}
