//! How much outside text (a cited repository's lines, a transcript's messages) one page
//! shows: each line at most [`LINE_BYTES`], the page at most [`PAGE_BYTES`], counted as the
//! views are made, before any is highlighted or escaped. Thirty citations of one 15 MiB line,
//! or an observation citing one transcript line a thousand times, then cost a page a few MiB
//! instead of gigabytes; what is left out is said so on the page (the excerpt is `truncated`,
//! a message `cut`), and is behind the source link or in the transcript.

use std::cell::Cell;

/// One line of outside text is shown up to this many bytes (a client may send a huge
/// message; a repository may hold a minified file).
pub const LINE_BYTES: usize = 16 * 1024;

/// One page shows this many bytes of outside text at most.
pub const PAGE_BYTES: usize = 4 * 1024 * 1024;

/// What one page may still show.
#[derive(Debug)]
pub struct Shown {
    left: Cell<usize>,
}

impl Default for Shown {
    fn default() -> Shown {
        Shown {
            left: Cell::new(PAGE_BYTES),
        }
    }
}

impl Shown {
    /// Counts `bytes` made from text already let in (its highlighted HTML): the share may run
    /// out, so that the next [`Shown::take`] fails.
    pub fn spend(&self, bytes: usize) {
        self.left.set(self.left.get().saturating_sub(bytes));
    }

    /// Whether `bytes` would fit in what is left.
    pub fn fits(&self, bytes: usize) -> bool {
        bytes <= self.left.get()
    }

    /// Takes `bytes` of the page's share; false, taking nothing, when they do not fit.
    pub fn take(&self, bytes: usize) -> bool {
        let left = self.left.get();
        if bytes > left {
            return false;
        }
        self.left.set(left - bytes);
        true
    }
}

/// `line` cut at [`LINE_BYTES`] (on a character boundary), and how many bytes were left out.
pub fn cut_line(line: &str) -> (&str, usize) {
    if line.len() <= LINE_BYTES {
        return (line, 0);
    }
    let mut end = LINE_BYTES;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    (&line[..end], line.len() - end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_takes_its_share_and_no_more() {
        let shown = Shown::default();
        assert!(shown.take(PAGE_BYTES - 10));
        assert!(!shown.take(11));
        assert!(shown.take(10));
        assert!(!shown.take(1));
    }

    #[test]
    fn long_lines_are_cut_on_a_character_boundary() {
        assert_eq!(cut_line("short"), ("short", 0));
        let long = format!("{}é", "x".repeat(LINE_BYTES - 1));
        let (kept, cut) = cut_line(&long);
        assert_eq!((kept.len(), cut), (LINE_BYTES - 1, 2));
    }
}
