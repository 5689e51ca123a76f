//! "Did you mean …?": the closest known name to a misspelt one.

/// The candidate closest to `input`, if it is close enough to be a likely typo.
pub fn closest<'a>(input: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (input.chars().count() / 3).max(2);
    let lower = input.to_lowercase();
    candidates
        .into_iter()
        .map(|c| (distance(&lower, &c.to_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, c)| (*d, *c))
        .map(|(_, c)| c)
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

/// Levenshtein distance over characters.
fn distance(a: &str, b: &str) -> usize {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        assert_eq!(closest("clinee", ["cline", "goose"]), Some("cline"));
        assert_eq!(closest("zzzzzz", ["cline", "goose"]), None);
        assert_eq!(distance("kitten", "sitting"), 3);
    }
}
