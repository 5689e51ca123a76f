//! The site's text files (`site.yaml` and the content) as loaded from disk, and byte spans
//! mapped to 1-based lines and columns.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Which part of the site a content file belongs to, from its folder under `content/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Section {
    Research,
    Clients,
    Capabilities,
    Guides,
    /// What a shipped client was seen doing (`fieldnotes probe`), beside its transcript.
    Observations,
}

impl Section {
    /// All sections, in the order pages and indexes list them.
    pub const ALL: [Section; 5] = [
        Section::Research,
        Section::Clients,
        Section::Capabilities,
        Section::Guides,
        Section::Observations,
    ];

    /// The folder name under `content/`, which is also the first segment of the route.
    pub fn dir(self) -> &'static str {
        match self {
            Section::Research => "research",
            Section::Clients => "clients",
            Section::Capabilities => "capabilities",
            Section::Guides => "guides",
            Section::Observations => "observations",
        }
    }

    pub fn from_dir(dir: &str) -> Option<Section> {
        Section::ALL.into_iter().find(|s| s.dir() == dir)
    }
}

/// Index of a file in [`crate::load::LoadedSite::files`].
pub type FileId = usize;

/// One file's text and where its lines start, so byte offsets become lines and columns.
#[derive(Debug, Clone)]
pub struct TextFile {
    /// Path relative to the site root, with `/` separators (what diagnostics print).
    pub path: PathBuf,
    /// The file's text exactly as on disk (a BOM, if any, included).
    pub text: String,
    line_starts: Vec<usize>,
    bom_len: usize,
    /// Columns before every [`COLUMN_STRIDE`]th byte, made on the first column asked for.
    columns: OnceLock<Vec<usize>>,
}

/// Bytes between two entries of a file's column index: a column costs at most this many
/// bytes scanned, however long its line (80,000 findings on one line of a megabyte).
const COLUMN_STRIDE: usize = 256;

/// Whether a byte starts a character that takes a column (a `\r` takes none).
fn takes_column(b: u8) -> bool {
    b & 0xc0 != 0x80 && b != b'\r'
}

/// How many characters that take a column start in `bytes`.
fn count_columns(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| takes_column(b)).count()
}

/// A byte range `start..end` in one file's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    pub file: FileId,
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start,
            end: end.max(start),
        }
    }

    /// An empty span at the start of `file` (for findings about the file as a whole).
    pub fn file_start(file: FileId) -> Span {
        Span::new(file, 0, 0)
    }
}

/// A 1-based line and column; the column counts characters, not bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

impl TextFile {
    pub fn new(path: impl Into<PathBuf>, text: String) -> TextFile {
        let bom_len = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        // Kept for the whole run: the room growing by doubling left (a third on average,
        // 3 MB at 10,000 notes) goes, without a second pass over the text to count lines.
        line_starts.shrink_to_fit();
        TextFile {
            path: path.into(),
            text,
            line_starts,
            bom_len,
            columns: OnceLock::new(),
        }
    }

    /// The path as diagnostics print it: relative to the site root, `/`-separated.
    pub fn display_path(&self) -> String {
        display_path(&self.path)
    }

    /// Line and column of a byte offset. A BOM and the `\r` of CRLF endings take no column.
    pub fn line_col(&self, offset: usize) -> LineCol {
        let offset = offset.min(self.text.len());
        let line_index = self.line_of(offset) - 1;
        let mut start = self.line_starts[line_index];
        if line_index == 0 {
            start = start.max(self.bom_len.min(offset));
        }
        let upto = floor_char_boundary(&self.text, offset).max(start);
        // Near the line's start (most findings: front matter lines are short) count the bytes
        // between; further on, the index bounds the count (and is built once, for the file).
        let columns = if upto - start <= COLUMN_STRIDE {
            count_columns(&self.text.as_bytes()[start..upto])
        } else {
            self.columns_before(upto) - self.columns_before(start)
        };
        let column = columns + 1;
        LineCol {
            line: line_index + 1,
            column,
        }
    }

    /// The 1-based line of a byte offset: [`TextFile::line_col`]'s line, without counting
    /// columns (which builds the column index on first use).
    pub fn line_of(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        self.line_starts.partition_point(|&s| s <= offset)
    }

    /// How many characters that take a column lie before byte `offset` (a char boundary),
    /// counted from the file's start: the index gives all but the last stride's.
    fn columns_before(&self, offset: usize) -> usize {
        let index = self.columns.get_or_init(|| {
            let chunks = self.text.as_bytes().chunks(COLUMN_STRIDE);
            let mut before = Vec::with_capacity(self.text.len() / COLUMN_STRIDE + 1);
            let mut count = 0;
            for chunk in chunks {
                before.push(count);
                count += count_columns(chunk);
            }
            before
        });
        let stride = offset / COLUMN_STRIDE;
        let counted = index.get(stride).copied().unwrap_or(0);
        let from = (stride * COLUMN_STRIDE).min(offset);
        counted + count_columns(&self.text.as_bytes()[from..offset])
    }

    /// Byte offset of a 1-based line and 1-based character column (clamped to the line).
    pub fn offset_of(&self, line: usize, column: usize) -> usize {
        let Some(&start) = self.line_starts.get(line.saturating_sub(1)) else {
            return self.text.len();
        };
        let start = if line <= 1 {
            start + self.bom_len
        } else {
            start
        };
        let line_end = self.line_end(start);
        self.text[start..line_end]
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(line_end, |(i, _)| start + i)
    }

    /// Byte offset where line `line` (1-based) starts.
    pub fn line_start(&self, line: usize) -> usize {
        self.line_starts
            .get(line.saturating_sub(1))
            .copied()
            .unwrap_or(self.text.len())
    }

    /// The number of lines in the file.
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// Byte offset of the end of the line that starts at `start` (before `\r\n` or `\n`).
    fn line_end(&self, start: usize) -> usize {
        let rest = &self.text[start..];
        let end = rest.find('\n').map_or(self.text.len(), |i| start + i);
        if end > start && self.text.as_bytes()[end - 1] == b'\r' {
            end - 1
        } else {
            end
        }
    }
}

/// A path printed with `/` separators, whatever the platform.
pub fn display_path(path: &Path) -> String {
    path.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_ignore_bom_and_cr() {
        let file = TextFile::new("a.md", "\u{feff}ab\r\ncdé\r\nx".to_string());
        assert_eq!(file.line_col(3), LineCol { line: 1, column: 1 });
        assert_eq!(file.line_col(4), LineCol { line: 1, column: 2 });
        let c = file.text.find('c').unwrap();
        assert_eq!(file.line_col(c), LineCol { line: 2, column: 1 });
        let x = file.text.find('x').unwrap();
        assert_eq!(file.line_col(x), LineCol { line: 3, column: 1 });
        assert_eq!(file.offset_of(2, 3), file.text.find('é').unwrap());
        assert_eq!(file.offset_of(1, 1), 3);
    }

    #[test]
    fn columns_on_long_lines_count_characters_across_index_strides() {
        let line = "é\r".repeat(3 * COLUMN_STRIDE);
        let file = TextFile::new("a.md", format!("x\n{line}!"));
        let bang = file.text.len() - 1;
        let col = file.line_col(bang);
        assert_eq!((col.line, col.column), (2, 3 * COLUMN_STRIDE + 1));
        // A byte inside a character counts as that character's start.
        let mid = 2 + 3 * 2730 + 1;
        assert_eq!(file.line_col(mid).column, file.line_col(mid - 1).column);
    }

    #[test]
    fn columns_near_a_line_start_and_past_the_index_stride_agree_with_counting() {
        // Short lines are counted directly, long ones through the index: the same columns.
        let long = "aé\r".repeat(COLUMN_STRIDE);
        let text = format!("\u{feff}id: x\r\n{long}\nshort é line\n\n{long}z");
        let file = TextFile::new("a.md", text.clone());
        for offset in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
            let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
            let from = if line_start == 0 {
                3.min(offset)
            } else {
                line_start
            };
            let column = 1 + text.as_bytes()[from..offset]
                .iter()
                .filter(|&&b| takes_column(b))
                .count();
            let line = 1 + text[..offset].matches('\n').count();
            assert_eq!(file.line_col(offset), LineCol { line, column }, "{offset}");
            assert_eq!(file.line_of(offset), line);
        }
    }
}
