//! "Did you mean …?": the closest known name to a misspelt one.
//!
//! Sites have 10k note ids, and a rename can leave many references to suggest for, so the
//! search is cheap per candidate: a length check first, then an edit distance computed only in
//! a band around the diagonal, abandoned as soon as it exceeds the best distance found so far.

/// The most edits a suggestion may be away from what was written.
const MAX_EDITS: usize = 5;

/// The candidate closest to `input` (ignoring case), if it is close enough to be a likely typo:
/// at most a third of its length, between 2 and `MAX_EDITS` edits. Ties go to the smaller name.
pub fn closest<'a>(input: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let input: Vec<char> = input.chars().map(fold).collect();
    let mut limit = (input.len() / 3).clamp(2, MAX_EDITS);
    let mut rows = Rows::default();
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if candidate.chars().count().abs_diff(input.len()) > limit {
            continue;
        }
        let Some(d) = rows.distance(&input, candidate, limit) else {
            continue;
        };
        if best.is_none_or(|b| (d, candidate) < b) {
            best = Some((d, candidate));
            limit = d;
        }
    }
    best.map(|(_, c)| c)
}

/// A help text "did you mean `x`?" when a candidate is close, else `fallback`.
pub fn did_you_mean<'a>(
    input: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    fallback: impl FnOnce() -> String,
) -> String {
    match closest(input, candidates) {
        Some(c) => format!("did you mean `{c}`?"),
        None => fallback(),
    }
}

/// A character compared without case.
fn fold(c: char) -> char {
    if c.is_ascii() {
        c.to_ascii_lowercase()
    } else {
        c.to_lowercase().next().unwrap_or(c)
    }
}

/// Two rows of the edit distance table, kept between candidates to avoid allocating.
#[derive(Default)]
struct Rows {
    previous: Vec<usize>,
    current: Vec<usize>,
}

impl Rows {
    /// Levenshtein distance between `a` and `b` (folded), or `None` when it exceeds `limit`.
    /// Only cells within `limit` of the diagonal can stay within `limit`, so only those are
    /// computed; the rest count as more than `limit`.
    fn distance(&mut self, a: &[char], b: &str, limit: usize) -> Option<usize> {
        let far = limit + 1;
        let m = a.len();
        self.previous.clear();
        self.previous
            .extend((0..=m).map(|j| if j <= limit { j } else { far }));
        self.current.clear();
        self.current.resize(m + 1, far);
        let mut rows = 0;
        for (i, cb) in b.chars().map(fold).enumerate() {
            let i = i + 1;
            rows = i;
            let lo = i.saturating_sub(limit).max(1);
            let hi = (i + limit).min(m);
            self.current[0] = if i <= limit { i } else { far };
            if lo > 1 {
                self.current[lo - 1] = far;
            }
            let mut row_min = self.current[0];
            for j in lo..=hi {
                let substitute = self.previous[j - 1] + usize::from(a[j - 1] != cb);
                let cell = substitute
                    .min(self.previous[j] + 1)
                    .min(self.current[j - 1] + 1)
                    .min(far);
                self.current[j] = cell;
                row_min = row_min.min(cell);
            }
            if row_min > limit {
                return None;
            }
            std::mem::swap(&mut self.previous, &mut self.current);
        }
        let d = if rows == 0 { m } else { self.previous[m] };
        (d <= limit).then_some(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn levenshtein(a: &str, b: &str) -> usize {
        let b: Vec<char> = b.chars().collect();
        let mut row: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut prev = row[0];
            row[0] = i + 1;
            for (j, cb) in b.iter().enumerate() {
                let cur = row[j + 1];
                row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
                prev = cur;
            }
        }
        row[b.len()]
    }

    #[test]
    fn suggests_close_names_only() {
        assert_eq!(closest("clinee", ["cline", "goose"]), Some("cline"));
        assert_eq!(closest("zzzzzz", ["cline", "goose"]), None);
        assert_eq!(
            closest("last_verified", ["lastVerified", "last-updated"]),
            Some("lastVerified")
        );
        assert_eq!(
            closest(
                "cline-reads-the-type-key",
                ["cline-reads-the-type-field", "cline-keeps-sse-first"]
            ),
            Some("cline-reads-the-type-field")
        );
        assert_eq!(closest("ab", ["ba", "ab"]), Some("ab"));
    }

    #[test]
    fn the_banded_distance_is_the_edit_distance_within_the_limit() {
        let words = [
            "",
            "a",
            "ab",
            "kitten",
            "sitting",
            "cline",
            "clinee",
            "goose",
            "transports.sse",
            "transport.sse",
            "streamableHttp",
            "streamable-http",
            "héllo",
            "hello",
        ];
        let mut rows = Rows::default();
        for a in words {
            let chars: Vec<char> = a.chars().map(fold).collect();
            for b in words {
                let full = levenshtein(&a.to_lowercase(), &b.to_lowercase());
                for limit in 0..8 {
                    let banded = rows.distance(&chars, b, limit);
                    let expected = (full <= limit).then_some(full);
                    assert_eq!(banded, expected, "{a} {b} {limit}");
                }
            }
        }
    }
}
