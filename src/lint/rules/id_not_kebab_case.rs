//! FN101 id-not-kebab-case: a note or client id that is not kebab-case, a capability id that is
//! not `group.name`, or any id that cannot be a file name everywhere (too long, a name Windows
//! reserves).

use crate::diagnostic::Severity;
use crate::lint::walk::{self, Common};
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::text_file::Section;

pub const META: RuleMeta = RuleMeta {
    code: "FN101",
    name: "id-not-kebab-case",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "an id that is not kebab-case (notes, clients) or group.name (capabilities), or \
              that cannot be a file name everywhere (over 100 bytes, a Windows device name)",
    doc: r#"## What it flags

A research note or client `id`, or a guide's file name, that is not kebab-case (lowercase ASCII
letters and digits in words joined by single `-`), or a capability `id` that is not a kebab-case
group, a dot, and a lowerCamelCase name (`transports.streamableHttp`). Ids with `/`, `..`,
spaces, or letters from other scripts that look like ASCII ones (Cyrillic `а`, `е`, `о`) are
all flagged. So is any id, or guide file name, that cannot be a file name on every system: one
longer than 100 bytes, or a name Windows reserves for a device (`con`, `prn`, `aux`, `nul`,
`com0`–`com9`, `lpt0`–`lpt9`, in any case, alone or before a dot: `nul.sse`).

## Why

Ids are file names and URLs (`/research/<id>`). Uppercase, spaces and underscores make URLs that
differ by case on some hosts and not others, and ids that readers cannot guess; a look-alike
letter makes an id that differs from the one it imitates while reading the same. A file name is
at most 255 bytes on Linux and macOS, and Windows paths are at most 260 characters unless long
paths are turned on: an id of 100 bytes leaves room for `.html` and the folders above it. No
file can be called `con.html` on Windows; a checkout or a build of the site there fails.

## Example

```yaml
id: Hermes_Defaults_To_HTTP
```

Write `hermes-defaults-to-http`, and rename the file to match."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for (doc, id) in walk::common(&cx.index.content, Common::Id) {
        if let Some(problem) = file_name_problem(&id.value) {
            sink.report(
                &META,
                id.span,
                format!("id `{}` {problem}", shortened(&id.value)),
                Some("choose another id, and rename the file to match".to_string()),
            );
        }
        let (ok, form, shape, suggestion) = match doc.section {
            Section::Capabilities => (
                is_capability_id(&id.value),
                "group.name",
                "a capability id is `group.name`: a kebab-case group, a dot, a lowerCamelCase \
                 name",
                capability_id(&id.value),
            ),
            _ => (
                is_kebab(&id.value),
                "kebab-case",
                "an id is lowercase words joined by `-`",
                kebab(&id.value),
            ),
        };
        if ok {
            continue;
        }
        let help = if suggestion.is_empty() || suggestion == id.value {
            format!("{shape}; rename the file to match")
        } else {
            format!("{shape}: write `{suggestion}`, and rename the file to match")
        };
        sink.report(
            &META,
            id.span,
            format!("id `{}` is not {form}{}", id.value, non_ascii(&id.value)),
            Some(help),
        );
    }
    // A guide's id is its file name.
    for guide in &cx.index.content.guides {
        let stem = &guide.doc.stem;
        if !is_kebab(stem) {
            let suggestion = kebab(stem);
            sink.report_file(
                &META,
                guide.doc.file,
                format!(
                    "guide file name `{stem}.md` is not kebab-case{}",
                    non_ascii(stem)
                ),
                Some(format!(
                    "a guide's file name is its URL: lowercase words joined by `-`; rename the \
                     file to `{}.md`",
                    if suggestion.is_empty() {
                        "a-guide"
                    } else {
                        &suggestion
                    }
                )),
            );
        }
        if let Some(problem) = file_name_problem(stem) {
            sink.report_file(
                &META,
                guide.doc.file,
                format!("guide file name `{}.md` {problem}", shortened(stem)),
                Some("rename the file: a guide's file name is its id".to_string()),
            );
        }
    }
}

/// Most bytes an id may have. Its page is `<id>.html` and a file name is at most 255 bytes on
/// Linux and macOS; a Windows path is at most 260 characters (unless long paths are turned
/// on), folders above included. 100 leaves room for both, and for any suffix a build adds.
pub const MAX_ID_BYTES: usize = 100;

/// Why an id cannot be a file name on every system, or `None` when it can: too long, or a
/// device name Windows reserves (alone or before a dot, in any case: `nul.sse.html` is `nul`
/// there too).
pub fn file_name_problem(id: &str) -> Option<String> {
    if id.len() > MAX_ID_BYTES {
        return Some(format!(
            "is {} bytes long; an id is at most {MAX_ID_BYTES} bytes, so that its page's file \
             name fits on every system",
            id.len()
        ));
    }
    let base = id.split('.').next().unwrap_or(id);
    is_windows_device(base).then(|| {
        format!(
            "is a name Windows reserves for a device (`{base}`, in any case, alone or before a \
             dot): no file `{id}.html` can exist there"
        )
    })
}

/// Why `id` cannot be a research note's or client's id, as this rule says, or `None`: for a
/// check made before an id is written (the language server's rename).
pub fn kebab_id_problem(id: &str) -> Option<String> {
    if let Some(problem) = file_name_problem(id) {
        return Some(format!("id `{}` {problem}", shortened(id)));
    }
    if is_kebab(id) {
        return None;
    }
    let suggestion = kebab(id);
    let like = if suggestion.is_empty() {
        String::new()
    } else {
        format!(", like `{}`", shortened(&suggestion))
    };
    Some(format!(
        "id `{}` is not kebab-case{} ({}): an id is lowercase words joined by `-`{like}",
        shortened(id),
        non_ascii(id),
        META.code
    ))
}

/// `con`, `prn`, `aux`, `nul`, `com0`–`com9`, `lpt0`–`lpt9` (and `com¹`…`lpt³`), any case.
fn is_windows_device(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    if ["con", "prn", "aux", "nul"].contains(&lower.as_str()) {
        return true;
    }
    let port = lower
        .strip_prefix("com")
        .or_else(|| lower.strip_prefix("lpt"));
    port.is_some_and(|n| {
        (n.len() == 1 && n.as_bytes()[0].is_ascii_digit()) || ["¹", "²", "³"].contains(&n)
    })
}

/// The id as messages show it: whole, or its first 40 characters when it is long.
fn shortened(id: &str) -> String {
    match id.char_indices().nth(40) {
        Some((end, _)) => format!("{}…", &id[..end]),
        None => id.to_string(),
    }
}

/// Names the first character outside ASCII, which may look like an ASCII one (Cyrillic `а`
/// for Latin `a`): `" (it has `а`, U+0430, which is not ASCII)"`, or "" when there is none.
fn non_ascii(id: &str) -> String {
    id.chars()
        .find(|c| !c.is_ascii())
        .map_or(String::new(), |c| {
            format!(
                " (it has `{c}`, U+{:04X}, which is not ASCII and may only look like an ASCII \
                 letter)",
                u32::from(c)
            )
        })
}

/// `a-b-1`: lowercase ASCII letters and digits, in words joined by single `-`.
pub fn is_kebab(id: &str) -> bool {
    !id.is_empty()
        && id.split('-').all(|word| {
            !word.is_empty()
                && word
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

/// `group.name`: a kebab-case group, one dot, a lowerCamelCase name.
fn is_capability_id(id: &str) -> bool {
    let Some((group, name)) = id.split_once('.') else {
        return false;
    };
    is_kebab(group)
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric())
}

/// The words of an id, split at separators and lower-to-upper case changes.
fn words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut prev_lower = false;
    for c in text.chars() {
        if !c.is_ascii_alphanumeric() {
            words.push(String::new());
            prev_lower = false;
            continue;
        }
        if (c.is_ascii_uppercase() && prev_lower) || words.is_empty() {
            words.push(String::new());
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        words
            .last_mut()
            .expect("pushed")
            .push(c.to_ascii_lowercase());
    }
    words.retain(|w| !w.is_empty());
    words
}

/// The kebab-case spelling of an id (`Hermes_Agent` → `hermes-agent`).
fn kebab(text: &str) -> String {
    words(text).join("-")
}

/// The `group.name` spelling of a capability id (`transport.streamable_http` →
/// `transport.streamableHttp`); empty when it has no dot.
fn capability_id(text: &str) -> String {
    let Some((group, name)) = text.split_once('.') else {
        return String::new();
    };
    let mut camel = String::new();
    for (i, word) in words(name).into_iter().enumerate() {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            camel.push(if i == 0 {
                first
            } else {
                first.to_ascii_uppercase()
            });
            camel.extend(chars);
        }
    }
    format!("{}.{camel}", kebab(group))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spells_ids() {
        assert!(is_kebab("hermes-agent-2"));
        assert!(!is_kebab("hermes--agent"));
        assert!(!is_kebab("Hermes"));
        assert!(is_capability_id("transports.streamableHttp"));
        assert!(!is_capability_id("transport.streamable_http"));
        assert!(!is_capability_id("streamableHttp"));
        assert_eq!(kebab("Hermes_Defaults ToHTTP"), "hermes-defaults-to-http");
        assert_eq!(
            capability_id("transport.streamable_http"),
            "transport.streamableHttp"
        );
    }

    #[test]
    fn new_ids_are_checked_as_written_ones_are() {
        assert_eq!(kebab_id_problem("cline-reads-2"), None);
        for bad in [
            "Upper_Case",
            "..\\..\\x",
            "CON",
            "nul.sse",
            &"a".repeat(300),
            "",
        ] {
            assert!(kebab_id_problem(bad).is_some(), "{bad}");
        }
        let why = kebab_id_problem("Upper_Case").unwrap_or_default();
        assert!(why.contains("like `upper-case`"), "{why}");
    }

    #[test]
    fn ids_must_be_file_names_everywhere() {
        assert!(file_name_problem(&"a".repeat(MAX_ID_BYTES)).is_none());
        assert!(file_name_problem(&"a".repeat(MAX_ID_BYTES + 1)).is_some());
        for reserved in [
            "con", "NUL", "Aux", "prn", "com1", "LPT9", "nul.sse", "con.x.y",
        ] {
            assert!(file_name_problem(reserved).is_some(), "{reserved}");
        }
        for fine in [
            "console",
            "nul-pointer",
            "com",
            "com10",
            "lpt",
            "sse.nul",
            "a-con",
        ] {
            assert!(file_name_problem(fine).is_none(), "{fine}");
        }
    }
}
