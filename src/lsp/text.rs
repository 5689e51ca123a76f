//! Positions and addresses: LSP positions count lines and UTF-16 code units, the library
//! counts bytes; LSP names files by `file://` URI, the library by path.

use lsp_types::{Position, Range, Uri};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Where each line of a text starts, to convert byte offsets to positions and back.
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> LineIndex<'a> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { text, starts }
    }

    /// The position of byte `offset` (clamped to the text, and back to a character boundary).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let column = self.text[self.starts[line]..offset].encode_utf16().count();
        Position::new(to_u32(line), to_u32(column))
    }

    /// The byte offset of `position`: a column past the end of its line is the line's end, a
    /// line past the end of the text is the text's end, a column inside a character that takes
    /// two UTF-16 units is that character's start.
    pub fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(position.line as usize + 1)
            .map_or(self.text.len(), |next| next - 1);
        let mut units = 0;
        for (at, c) in self.text[start..end].char_indices() {
            units += c.len_utf16();
            if units > position.character as usize {
                return start + at;
            }
        }
        end
    }

    pub fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end))
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The `file://` URI of an absolute path, with every byte but unreserved ones and `/`
/// percent-encoded.
pub fn uri_of(path: &Path) -> Uri {
    let mut uri = String::from("file://");
    let text = path.to_string_lossy().replace('\\', "/");
    if !text.starts_with('/') {
        uri.push('/');
    }
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                uri.push(byte as char)
            }
            _ => uri.push_str(&format!("%{byte:02X}")),
        }
    }
    Uri::from_str(&uri).unwrap_or_else(|_| Uri::from_str("file:///").expect("a valid URI"))
}

/// The path a `file://` URI names; `None` for any other scheme.
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file://host/path`: only the local host.
    let path = match rest.find('/') {
        Some(0) => rest,
        Some(at) if &rest[..at] == "localhost" => &rest[at..],
        _ => return None,
    };
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let bytes = percent_decode(path);
    let text = String::from_utf8(bytes).ok()?;
    // `/C:/x` on Windows.
    let windows = text.len() > 2 && text.as_bytes()[2] == b':' && cfg!(windows);
    Some(PathBuf::from(if windows { &text[1..] } else { &text }))
}

fn percent_decode(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units() {
        // "é" is 2 bytes and 1 unit; "😀" is 4 bytes and 2 units.
        let text = "ab\né😀x\n";
        let lines = LineIndex::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(lines.position(x), Position::new(1, 3));
        assert_eq!(lines.offset(Position::new(1, 3)), x);
        assert_eq!(lines.offset(Position::new(1, 1)), text.find('😀').unwrap());
        assert_eq!(lines.offset(Position::new(1, 99)), text.len() - 1);
        assert_eq!(lines.offset(Position::new(9, 0)), text.len());
        assert_eq!(lines.position(text.len()), Position::new(2, 0));
    }

    #[test]
    fn paths_round_trip_through_uris() {
        let path = Path::new("/tmp/a site/content/research/é.md");
        let uri = uri_of(path);
        assert_eq!(
            uri.as_str(),
            "file:///tmp/a%20site/content/research/%C3%A9.md"
        );
        assert_eq!(path_of(&uri).as_deref(), Some(path));
        assert_eq!(path_of(&Uri::from_str("untitled:x").unwrap()), None);
    }
}
