//! FN101 id-not-kebab-case: a note or client id that is not kebab-case, or a capability id that
//! is not `group.name`.

use crate::diagnostic::Severity;
use crate::lint::walk::{self, Common};
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::source::Section;

pub const META: RuleMeta = RuleMeta {
    code: "FN101",
    name: "id-not-kebab-case",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "an id that is not kebab-case (notes, clients) or group.name (capabilities)",
    doc: r#"## What it flags

A research note or client `id`, or a guide's file name, that is not kebab-case (lowercase ASCII
letters and digits in words joined by single `-`), or a capability `id` that is not a kebab-case
group, a dot, and a lowerCamelCase name (`transports.streamableHttp`). Ids with `/`, `..`,
spaces, or letters from other scripts that look like ASCII ones (Cyrillic `а`, `е`, `о`) are
all flagged.

## Why

Ids are file names and URLs (`/research/<id>`). Uppercase, spaces and underscores make URLs that
differ by case on some hosts and not others, and ids that readers cannot guess; a look-alike
letter makes an id that differs from the one it imitates while reading the same.

## Example

```yaml
id: Hermes_Defaults_To_HTTP
```

Write `hermes-defaults-to-http`, and rename the file to match."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for (doc, id) in walk::common(&cx.index.content, Common::Id) {
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
}
