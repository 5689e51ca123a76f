//! Splitting a file into its front matter (between `---` lines) and its Markdown body.

use std::ops::Range;

/// Where the front matter and the body lie in a file's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Split {
    /// `---`, YAML, `---`: `block` covers both fences, `yaml` the text between them.
    Found {
        block: Range<usize>,
        yaml: Range<usize>,
        body: Range<usize>,
    },
    /// The file does not open with `---`.
    Missing { body: Range<usize> },
    /// The opening fence has no closing one; `fence` is the opening line.
    Unterminated { fence: Range<usize> },
}

/// Splits `text`. A BOM before the opening fence and CRLF endings are accepted.
pub fn split(text: &str) -> Split {
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut lines = LineIter { text, pos: start };
    let Some(first) = lines.next() else {
        return Split::Missing {
            body: start..text.len(),
        };
    };
    if !is_fence(&text[first.clone()], "---") {
        return Split::Missing {
            body: start..text.len(),
        };
    }
    let yaml_start = first.end;
    for line in lines.by_ref() {
        let content = &text[line.clone()];
        if is_fence(content, "---") || is_fence(content, "...") {
            return Split::Found {
                block: start..line.end,
                yaml: yaml_start..line.start,
                body: line.end..text.len(),
            };
        }
    }
    Split::Unterminated {
        fence: start..trim_newline(text, first.end),
    }
}

fn is_fence(line: &str, fence: &str) -> bool {
    line.trim_end_matches(['\n', '\r']).trim_end() == fence
}

fn trim_newline(text: &str, end: usize) -> usize {
    let bytes = text.as_bytes();
    let mut end = end;
    while end > 0 && matches!(bytes[end - 1], b'\n' | b'\r') {
        end -= 1;
    }
    end
}

/// Yields each line's byte range, newline included.
struct LineIter<'a> {
    text: &'a str,
    pos: usize,
}

impl Iterator for LineIter<'_> {
    type Item = Range<usize>;
    fn next(&mut self) -> Option<Range<usize>> {
        if self.pos >= self.text.len() {
            return None;
        }
        let start = self.pos;
        let end = self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |i| start + i + 1);
        self.pos = end;
        Some(start..end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_front_matter_and_body() {
        let text = "---\nid: a\n---\nbody\n";
        let Split::Found { yaml, body, .. } = split(text) else {
            panic!("expected front matter")
        };
        assert_eq!(&text[yaml], "id: a\n");
        assert_eq!(&text[body], "body\n");
    }

    #[test]
    fn accepts_bom_and_crlf() {
        let text = "\u{feff}---\r\nid: a\r\n---\r\nbody";
        let Split::Found { yaml, body, .. } = split(text) else {
            panic!("expected front matter")
        };
        assert_eq!(&text[yaml], "id: a\r\n");
        assert_eq!(&text[body], "body");
    }

    #[test]
    fn reports_missing_and_unterminated() {
        assert!(matches!(split("# hi\n"), Split::Missing { .. }));
        assert!(matches!(split(""), Split::Missing { .. }));
        assert_eq!(split("---\nid: a\n"), Split::Unterminated { fence: 0..3 });
    }
}
