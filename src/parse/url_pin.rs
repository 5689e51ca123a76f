//! A source `url` that pins a file at a commit, read once in the parse step: GitHub's
//! `…/blob/<commit>/<file>#L10-L20` (`#L10`, `#L10C3-L20C8`) and GitLab's
//! `…/-/blob/<commit>/<file>#L10-20`. The commit must be 7 to 40 hex digits: a URL at a
//! branch (`/blob/main/…`) pins nothing (FN404 says so). Such a source is pinned even without
//! `commit` and `path` fields; with them, they must agree with it (FN405).

use crate::model::{LineRange, SourcePath, Spanned, UrlPin};

/// The pin `url` names, if it is a GitHub or GitLab file at a commit.
pub fn url_pin(url: &Spanned<String>) -> Option<UrlPin> {
    let (commit, path) = read(&url.value)?;
    Some(UrlPin {
        commit: Spanned::new(commit, url.span),
        path,
    })
}

/// The commit and the file and lines of a blob URL.
pub fn read(url: &str) -> Option<(String, SourcePath)> {
    let url = url.trim();
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let (rest, fragment) = match rest.split_once('#') {
        Some((rest, fragment)) => (rest, Some(fragment)),
        None => (rest, None),
    };
    let rest = rest.split('?').next().unwrap_or(rest);
    let (host, path) = rest.split_once('/')?;
    let host = host.to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    let segments: Vec<&str> = path.split('/').collect();
    let after = match host {
        "github.com" => segments.get(2..).filter(|_| segments.len() > 4)?,
        "gitlab.com" => {
            let dash = segments.iter().position(|s| *s == "-")?;
            segments.get(dash + 1..)?
        }
        _ => return None,
    };
    let [kind, commit, file @ ..] = after else {
        return None;
    };
    let is_hex = (7..=40).contains(&commit.len()) && commit.bytes().all(|b| b.is_ascii_hexdigit());
    if *kind != "blob" || !is_hex || file.is_empty() || file.iter().any(|s| s.is_empty()) {
        return None;
    }
    let file = decode(&file.join("/"))?;
    let lines = fragment.and_then(lines).into_iter().collect();
    Some((commit.to_ascii_lowercase(), SourcePath { file, lines }))
}

/// `L10`, `L10-L20`, `L10-20`, with columns (`L10C3-L20C8`) left out.
fn lines(fragment: &str) -> Option<LineRange> {
    let line = |part: &str| -> Option<usize> {
        let digits = part.strip_prefix('L').unwrap_or(part);
        let digits = digits.split('C').next()?;
        digits.parse().ok()
    };
    let fragment = fragment.strip_prefix('L')?;
    match fragment.split_once('-') {
        Some((start, end)) => LineRange::new(line(start)?, line(end)?),
        None => {
            let start = line(fragment)?;
            LineRange::new(start, start)
        }
    }
}

/// A URL path with its `%XX` escapes decoded; `None` when they do not make UTF-8.
fn decode(path: &str) -> Option<String> {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], bytes.get(i + 1..i + 3)) {
            (b'%', Some(hex)) => {
                let hex = std::str::from_utf8(hex).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pin(url: &str) -> Option<(String, String)> {
        let (commit, path) = read(url)?;
        let lines: Vec<String> = path.lines.iter().map(ToString::to_string).collect();
        Some((commit, format!("{}:{}", path.file, lines.join(","))))
    }

    #[test]
    fn blob_urls_at_a_commit_are_pins() {
        let sha = "1a196376d185f7d204aa985c7ee494b70cfdbf44";
        let some = |c: &str, p: &str| Some((c.to_string(), p.to_string()));
        assert_eq!(
            pin(&format!(
                "https://github.com/o/r/blob/{sha}/src/a.ts#L10-L20"
            )),
            some(sha, "src/a.ts:10-20")
        );
        assert_eq!(
            pin("https://github.com/o/r/blob/1A19637/a%20b.ts#L7C3-L9C1"),
            some("1a19637", "a b.ts:7-9")
        );
        assert_eq!(
            pin("https://gitlab.com/g/s/r/-/blob/1a19637/x.go#L3-5"),
            some("1a19637", "x.go:3-5")
        );
        assert_eq!(
            pin("https://github.com/o/r/blob/1a19637/x.go"),
            some("1a19637", "x.go:")
        );
        assert_eq!(
            pin("https://github.com/o/r/blob/1a19637/x.go#readme"),
            some("1a19637", "x.go:")
        );
        for not in [
            "https://github.com/o/r/blob/main/x.go#L3",
            "https://github.com/o/r/tree/1a19637/src",
            "https://github.com/o/r",
            "https://github.com/o/r/blob/1a19637/",
            "https://docs.example/blob/1a19637/x",
        ] {
            assert_eq!(pin(not), None, "{not}");
        }
    }
}
