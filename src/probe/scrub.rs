//! What never reaches a committed transcript: query-string values (tokens ride there) and the
//! folders of the machine that recorded it (home, working and temporary folders, which name
//! users and scratch paths). Both are replaced by placeholders that keep the line readable;
//! no newline is ever added, so transcript line numbers stay what they were.

/// The query names whose values the probe made itself and may keep.
const KEPT_QUERY: [&str; 1] = ["sessionId"];

/// `path?token=abc&sessionId=…` with every value but the probe's own session id replaced by
/// `<redacted>`.
pub(crate) fn query(path_and_query: &str) -> String {
    let Some((path, query)) = path_and_query.split_once('?') else {
        return path_and_query.to_string();
    };
    let pairs: Vec<String> = query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, value))
                if KEPT_QUERY.contains(&name)
                    && value.len() <= 64
                    && value.bytes().all(|b| b.is_ascii_hexdigit()) =>
            {
                pair.to_string()
            }
            Some((name, _)) => format!("{name}=<redacted>"),
            None => pair.to_string(),
        })
        .collect();
    format!("{path}?{}", pairs.join("&"))
}

/// Replaces the folders of this machine in `text`: the working folder, home and the
/// temporary folder of this process, then any `/tmp/`, `/root/`, `/home/<user>/`,
/// `/Users/<user>/` or `/var/folders/…/` prefix (a client's scratch home is one of those).
pub(crate) fn folders(text: &str) -> String {
    let mut known: Vec<(String, &str)> = Vec::new();
    let mut add = |path: Option<std::path::PathBuf>, placeholder: &'static str| {
        if let Some(path) = path.and_then(|p| p.to_str().map(str::to_string)) {
            let path = path.trim_end_matches('/').to_string();
            // `/` or a one-letter folder would replace far too much.
            if path.len() > 4 {
                known.push((path, placeholder));
            }
        }
    };
    add(std::env::current_dir().ok(), "<cwd>");
    add(std::env::var_os("HOME").map(Into::into), "<home>");
    add(Some(std::env::temp_dir()), "<tmp>");
    known.sort_by_key(|(path, _)| std::cmp::Reverse(path.len()));
    let mut out = text.to_string();
    for (path, placeholder) in &known {
        out = replace_folder(&out, path, placeholder);
    }
    generic(&out)
}

/// Replaces `folder` where it is a whole folder: followed by `/`, a quote or the end.
fn replace_folder(text: &str, folder: &str, placeholder: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(folder) {
        let after = &rest[at + folder.len()..];
        let whole = after.is_empty() || after.starts_with(['/', '"', '\'', ' ', '\\', ':']);
        out.push_str(&rest[..at]);
        out.push_str(if whole { placeholder } else { folder });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The folder prefixes of any machine, with the user or scratch name folded in.
fn generic(text: &str) -> String {
    // (prefix, how many path parts after it name the user or the scratch folder, placeholder)
    const PREFIXES: [(&str, usize, &str); 5] = [
        ("/home/", 1, "<home>"),
        ("/Users/", 1, "<home>"),
        ("/root", 0, "<home>"),
        ("/var/folders/", 2, "<tmp>"),
        ("/tmp", 0, "<tmp>"),
    ];
    let mut out = text.to_string();
    for (prefix, parts, placeholder) in PREFIXES {
        let mut result = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while let Some(at) = rest.find(prefix) {
            let before_ok = at == 0 || !rest.as_bytes()[at - 1].is_ascii_alphanumeric();
            let mut end = at + prefix.len();
            let tail = &rest[end..];
            let boundary = prefix.ends_with('/')
                || tail.is_empty()
                || tail.starts_with(['/', '"', '\'', ' ', '\\']);
            if !before_ok || !boundary {
                result.push_str(&rest[..end]);
                rest = &rest[end..];
                continue;
            }
            for part in 0..parts {
                if part > 0 && rest[end..].starts_with('/') {
                    end += 1;
                }
                let len = rest[end..]
                    .find(['/', '"', '\'', ' ', '\\'])
                    .unwrap_or(rest.len() - end);
                end += len;
            }
            result.push_str(&rest[..at]);
            result.push_str(placeholder);
            rest = &rest[end..];
        }
        result.push_str(rest);
        out = result;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_values_are_redacted_but_the_probe_session_id_kept() {
        assert_eq!(query("/mcp"), "/mcp");
        assert_eq!(
            query("/mcp?token=s3cret&api_key=abc&flag"),
            "/mcp?token=<redacted>&api_key=<redacted>&flag"
        );
        assert_eq!(
            query("/messages?sessionId=0123abcd"),
            "/messages?sessionId=0123abcd"
        );
        assert_eq!(
            query("/messages?sessionId=not-hex-token"),
            "/messages?sessionId=<redacted>"
        );
    }

    #[test]
    fn machine_folders_are_replaced_and_other_text_kept() {
        let text = r#"{"roots":[{"uri":"file:///tmp/scratch-claude/work"},{"uri":"file:///home/alice/src"}],"cwd":"/root/.cache/x","path":"/var/folders/ab/cd/T/x","not":"/tmpfile /usr/bin"}"#;
        let out = generic(text);
        assert!(!out.contains("/tmp/") && !out.contains("alice") && !out.contains("/root"));
        assert!(out.contains("file://<tmp>/scratch-claude/work"), "{out}");
        assert!(out.contains("file://<home>/src"), "{out}");
        assert!(out.contains(r#""cwd":"<home>/.cache/x""#), "{out}");
        assert!(out.contains(r#""path":"<tmp>/T/x""#), "{out}");
        assert!(out.contains("/tmpfile /usr/bin"), "{out}");
        let here = std::env::current_dir().expect("cwd");
        let here = here.to_str().expect("utf-8");
        let out = folders(&format!("\"{here}/a\" \"{here}x\""));
        assert!(out.starts_with("\"<cwd>/a\""), "{out}");
    }
}
