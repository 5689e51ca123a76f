//! Finding a pinned block of lines in a file as it is now: where it stands unchanged (the
//! copy nearest its old place when there are several), and, when it stands nowhere, the
//! closest match — the lines that share the most with it, and how many of its lines differ.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

/// Lines found in more places than this say nothing about where a block went.
const COMMON: usize = 64;

/// A block needs this many characters that are not white space to be looked for outside the
/// file it was pinned in: `}` or `return None` could be anywhere.
const DISTINCTIVE: usize = 20;

/// The most lines of one file fieldnotes reads from a repository: counted before any is
/// kept, so that a file of newlines costs no more than its bytes
/// ([`super::git::MAX_OBJECT_BYTES`] bounds those).
pub(crate) const MAX_LINES: usize = 1_000_000;

/// Above this many cells (block lines × window lines), a closest match is not aligned line
/// by line, only counted.
const MAX_CELLS: usize = 4_000_000;

/// A file's text and where its lines start and end; where each line stands in it is indexed
/// the first time a block is looked for ([`Text::find`], [`Text::closest`]).
#[derive(Debug)]
pub(crate) struct Text {
    data: String,
    /// Each line's byte range in `data`, line endings (`\n`, `\r\n`) left out; found on
    /// first use.
    spans: OnceLock<Vec<(u32, u32)>>,
    at: OnceLock<HashMap<u64, Vec<u32>, BuildHasherDefault<Prehashed>>>,
}

/// How many times `byte` is in `bytes`.
fn bytecount(bytes: &[u8], byte: u8) -> usize {
    bytes.iter().filter(|&&b| b == byte).count()
}

/// A line's hash: FNV-1a over its bytes, eight at a time (for the index, never stored).
fn key(line: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let bytes = line.as_bytes();
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        hash = (hash ^ word).wrapping_mul(0x0100_0000_01b3).rotate_left(23);
    }
    for &byte in chunks.remainder() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    hash ^ bytes.len() as u64
}

/// Hashes keys that are hashes already: the index's keys pass through.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 << 8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

impl Text {
    /// The text of a file's bytes (invalid UTF-8 replaced), split into lines as
    /// [`str::lines`] does; refused (why, in a few words) past [`MAX_LINES`] lines.
    pub(crate) fn read(bytes: &[u8]) -> Result<Text, String> {
        let lines = bytecount(bytes, b'\n') + usize::from(!bytes.ends_with(b"\n"));
        match lines > MAX_LINES {
            true => Err(format!(
                "it has {lines} lines, past the {MAX_LINES} fieldnotes reads from a file"
            )),
            false => Ok(Text::new(bytes)),
        }
    }

    fn new(bytes: &[u8]) -> Text {
        Text {
            data: String::from_utf8_lossy(bytes).into_owned(),
            spans: OnceLock::new(),
            at: OnceLock::new(),
        }
    }

    fn spans(&self) -> &[(u32, u32)] {
        self.spans.get_or_init(|| {
            let base = self.data.as_ptr() as usize;
            (self.data.lines())
                .map(|line| {
                    let start = line.as_ptr() as usize - base;
                    (start as u32, (start + line.len()) as u32)
                })
                .collect()
        })
    }

    pub(crate) fn len(&self) -> usize {
        self.spans().len()
    }

    /// The bytes of text held (what keeping it costs, for [`super::texts`]).
    pub(crate) fn bytes(&self) -> usize {
        self.data.len()
    }

    /// The 0-based line `i`.
    pub(crate) fn line(&self, i: usize) -> &str {
        let (start, end) = self.spans()[i];
        &self.data[start as usize..end as usize]
    }

    /// Whether the file is `lines`, line for line.
    pub(crate) fn is(&self, lines: &[String]) -> bool {
        lines.len() == self.len() && (0..self.len()).all(|i| self.line(i) == lines[i])
    }

    fn matches_at(&self, block: &[String], start: usize) -> bool {
        start + block.len() <= self.len()
            && (block.iter().enumerate()).all(|(i, line)| self.line(start + i) == line)
    }

    fn places(&self, line: &str) -> &[u32] {
        let at = self.at.get_or_init(|| {
            let mut at: HashMap<u64, Vec<u32>, BuildHasherDefault<Prehashed>> = HashMap::default();
            for i in 0..self.len() {
                at.entry(key(self.line(i))).or_default().push(i as u32);
            }
            at
        });
        at.get(&key(line)).map_or(&[], Vec::as_slice)
    }

    /// Whether `block` stands anywhere in the file (a plain scan, for files looked at once,
    /// after a search of the text for the block's longest line).
    pub(crate) fn contains(&self, block: &[String]) -> bool {
        let Some(longest) = block.iter().max_by_key(|l| l.len()) else {
            return false;
        };
        if !self.data.contains(longest.as_str()) {
            return false;
        }
        if self.at.get().is_some() {
            return self.find(block, 1).is_some();
        }
        let first = &block[0];
        (0..self.len()).any(|i| self.line(i) == first && self.matches_at(block, i))
    }

    /// The 1-based line where `block` starts, nearest to line `near` when it stands in more
    /// than one place.
    pub(crate) fn find(&self, block: &[String], near: usize) -> Option<usize> {
        if block.is_empty() || block.len() > self.len() {
            return None;
        }
        // Anchor on the block's rarest line.
        let (offset, places) = (block.iter().enumerate())
            .map(|(i, line)| (i, self.places(line)))
            .min_by_key(|(_, places)| places.len())?;
        (places.iter())
            .filter_map(|&p| (p as usize).checked_sub(offset))
            .filter(|&start| self.matches_at(block, start))
            .map(|start| start + 1)
            .min_by_key(|&start| (start.abs_diff(near), start))
    }

    /// The lines that share the most with `block`, `None` when no line of it is left.
    pub(crate) fn closest(&self, block: &[String], near: usize) -> Option<Closest> {
        let mut votes: HashMap<usize, usize> = HashMap::new();
        for (i, line) in block.iter().enumerate() {
            let places = self.places(line);
            if line.trim().is_empty() || places.len() > COMMON {
                continue;
            }
            for &p in places {
                if let Some(start) = (p as usize).checked_sub(i) {
                    *votes.entry(start).or_default() += 1;
                }
            }
        }
        let near = near.saturating_sub(1);
        let (&anchor, _) = votes
            .iter()
            .max_by_key(|(&start, &n)| (n, std::cmp::Reverse((start.abs_diff(near), start))))?;
        let k = block.len();
        let from = anchor.saturating_sub(k / 2);
        let to = (anchor + k + k / 2).min(self.len());
        let window: Vec<&str> = (from..to).map(|i| self.line(i)).collect();
        Some(align(block, &window, from))
    }

    /// How many of `lines` are in the file, each of its lines counted once.
    pub(crate) fn common(&self, lines: &[String]) -> usize {
        let mut left: HashMap<&str, usize> = HashMap::new();
        for i in 0..self.len() {
            *left.entry(self.line(i)).or_default() += 1;
        }
        (lines.iter())
            .filter(|line| match left.get_mut(line.as_str()) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    true
                }
                _ => false,
            })
            .count()
    }
}

/// A block's closest match: 1-based lines `start..=end` hold `same` of its `of` lines, in
/// order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Closest {
    pub start: usize,
    pub end: usize,
    pub same: usize,
    pub of: usize,
}

/// Aligns `block` with `window` (which starts at 0-based line `offset`): the longest run of
/// lines in common, in order, and the span of the window it covers.
fn align(block: &[String], window: &[&str], offset: usize) -> Closest {
    let (k, n) = (block.len(), window.len());
    if k * n > MAX_CELLS {
        let mut left: HashMap<&str, usize> = HashMap::new();
        for line in window {
            *left.entry(line).or_default() += 1;
        }
        let same = (block.iter())
            .filter(|line| match left.get_mut(line.as_str()) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    true
                }
                _ => false,
            })
            .count();
        return Closest {
            start: offset + 1,
            end: offset + n.max(1),
            same,
            of: k,
        };
    }
    // lcs[i][j]: the longest common subsequence of block[i..] and window[j..].
    let mut lcs = vec![0u32; (k + 1) * (n + 1)];
    let at = |i: usize, j: usize| i * (n + 1) + j;
    for i in (0..k).rev() {
        for j in (0..n).rev() {
            lcs[at(i, j)] = match block[i] == window[j] {
                true => lcs[at(i + 1, j + 1)] + 1,
                false => lcs[at(i + 1, j)].max(lcs[at(i, j + 1)]),
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let (mut first, mut last) = (None, (0, 0));
    while i < k && j < n {
        if block[i] == window[j] {
            first.get_or_insert((i, j));
            last = (i, j);
            i += 1;
            j += 1;
        } else if lcs[at(i + 1, j)] >= lcs[at(i, j + 1)] {
            i += 1;
        } else {
            j += 1;
        }
    }
    // The match spans the lines in common, and as many lines around them as the block has
    // before its first and after its last line in common (edited in place).
    let (i0, j0) = first.unwrap_or((0, 0));
    let start = j0.saturating_sub(i0);
    let end = (last.1 + (k - 1 - last.0))
        .min(n.saturating_sub(1))
        .max(start);
    Closest {
        start: offset + start + 1,
        end: offset + end + 1,
        same: lcs[0] as usize,
        of: k,
    }
}

/// Whether `block` says enough to be recognised in another file.
pub(crate) fn distinctive(block: &[String]) -> bool {
    let chars: usize = (block.iter())
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).count())
        .sum();
    chars >= DISTINCTIVE
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: &[&str]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    fn file(lines: &[&str]) -> Text {
        Text::new(format!("{}\n", lines.join("\n")).as_bytes())
    }

    #[test]
    fn blocks_are_found_nearest_their_old_place() {
        let file = file(&["x", "b", "x", "x", "b"]);
        assert_eq!(file.find(&text(&["b"]), 4), Some(5));
        assert_eq!(file.find(&text(&["b"]), 1), Some(2));
        assert_eq!(file.find(&text(&["b", "c"]), 1), None);
        assert_eq!(file.find(&text(&["x", "x", "b"]), 1), Some(3));
        assert!(file.contains(&text(&["x", "b"])) && !file.contains(&text(&["b", "b"])));
        let crlf = Text::new(b"a\r\nb\r\n\r\nc");
        assert!(crlf.is(&text(&["a", "b", "", "c"])));
    }

    #[test]
    fn the_closest_match_counts_what_differs() {
        let file = file(&[
            "import os",
            "",
            "def pick(config):",
            "    if config.sse:",
            "        log('sse')",
            "        return 'sse'",
            "    return 'http'",
            "",
            "def other():",
        ]);
        let pinned = text(&[
            "def pick(config):",
            "    if config.sse:",
            "        return 'sse'",
            "    return 'streamable'",
        ]);
        assert_eq!(file.find(&pinned, 3), None);
        let closest = file.closest(&pinned, 10).expect("a match");
        assert_eq!(
            closest,
            Closest {
                start: 3,
                end: 7,
                same: 3,
                of: 4
            }
        );
        assert_eq!(file.closest(&text(&["nothing like it"]), 1), None);
    }

    #[test]
    fn short_blocks_are_not_distinctive() {
        assert!(!distinctive(&text(&["    }", "    return None"])));
        assert!(distinctive(&text(&["def pick_transport(config):"])));
        assert_eq!(file(&["a", "c"]).common(&text(&["a", "a", "b"])), 1);
    }
}
