//! The support cell a report writes, as values, and as the YAML lines that hold it: every
//! value written plain only where YAML reads it back as that very text, else double-quoted
//! with every character that could be read as anything but text escaped (`: `, `#`, `{{`,
//! `&a`, `*a`, `!!tag`, quotes, control characters), so that no answer of the form can become
//! a key, an anchor, a tag or a comment.

use crate::model::{text, SupportCell};
use crate::provenance::bump::reads_back;

/// A source of the cell, as its fields' values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Source {
    pub url: String,
    pub title: Option<String>,
    pub commit: Option<String>,
    pub path: Option<String>,
    pub date: Option<String>,
    /// A page without a commit: the sentence relied on, and the day it was read.
    pub quote: Option<String>,
    pub retrieved: Option<String>,
    pub pin: Option<String>,
}

/// A support cell, as its fields' values, in the order they are written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cell {
    pub status: String,
    pub notes: Option<String>,
    pub research: Vec<String>,
    pub sources: Vec<Source>,
    pub last_verified: Option<String>,
    pub version: Option<String>,
    pub observations: Vec<String>,
}

fn value(v: &Option<crate::model::Spanned<String>>) -> Option<String> {
    v.as_ref().map(|v| v.value.clone())
}

fn values(v: &[crate::model::Spanned<String>]) -> Vec<String> {
    v.iter().map(|v| v.value.clone()).collect()
}

impl Cell {
    /// The values of a cell as the parse step read it.
    pub fn of(cell: &SupportCell) -> Cell {
        Cell {
            status: text(&cell.status).to_string(),
            notes: value(&cell.notes),
            research: values(&cell.research),
            sources: (cell.sources.iter())
                .map(|s| Source {
                    url: text(&s.url).to_string(),
                    title: value(&s.title),
                    commit: value(&s.commit),
                    path: value(&s.path),
                    date: value(&s.date),
                    quote: value(&s.quote),
                    retrieved: value(&s.retrieved),
                    pin: value(&s.pin),
                })
                .collect(),
            last_verified: value(&cell.last_verified),
            version: value(&cell.version),
            observations: values(&cell.observations),
        }
    }

    /// The cell as YAML lines under the key `capability`, the key indented by `indent` spaces
    /// and its fields by `inner`; or the value that cannot be written.
    pub fn yaml(&self, capability: &str, indent: usize, inner: usize) -> Result<String, String> {
        let key = " ".repeat(indent);
        let field = " ".repeat(inner);
        let item = " ".repeat(inner + 2);
        let mut out = format!("{key}{}:\n", scalar(capability)?);
        out.push_str(&format!("{field}status: {}\n", scalar(&self.status)?));
        if let Some(notes) = &self.notes {
            out.push_str(&format!("{field}notes: {}\n", scalar(notes)?));
        }
        list(&mut out, &field, "research", &self.research)?;
        if !self.sources.is_empty() {
            out.push_str(&format!("{field}sources:\n"));
            for source in &self.sources {
                out.push_str(&format!("{field}  - url: {}\n", scalar(&source.url)?));
                let fields = [
                    ("title", &source.title),
                    ("commit", &source.commit),
                    ("path", &source.path),
                    ("date", &source.date),
                    ("quote", &source.quote),
                    ("retrieved", &source.retrieved),
                    ("pin", &source.pin),
                ];
                for (name, v) in fields {
                    if let Some(v) = v {
                        out.push_str(&format!("{item}  {name}: {}\n", scalar(v)?));
                    }
                }
            }
        }
        if let Some(day) = &self.last_verified {
            out.push_str(&format!("{field}lastVerified: {}\n", scalar(day)?));
        }
        if let Some(version) = &self.version {
            out.push_str(&format!("{field}version: {}\n", scalar(version)?));
        }
        list(&mut out, &field, "observations", &self.observations)?;
        Ok(out)
    }
}

fn list(out: &mut String, field: &str, name: &str, items: &[String]) -> Result<(), String> {
    if !items.is_empty() {
        out.push_str(&format!("{field}{name}:\n"));
        for item in items {
            out.push_str(&format!("{field}  - {}\n", scalar(item)?));
        }
    }
    Ok(())
}

/// `value` as a YAML scalar that reads back as the text `value`: plain where that holds,
/// else double-quoted with `\`, `"` and every character that is not printable escaped.
pub(crate) fn scalar(value: &str) -> Result<String, String> {
    if plain_is_safe(value) && reads_back(value, value) {
        return Ok(value.to_string());
    }
    let mut quoted = String::with_capacity(value.len() + 2);
    quoted.push('"');
    for c in value.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            c if printable(c) => quoted.push(c),
            c if (c as u32) <= 0xffff => quoted.push_str(&format!("\\u{:04x}", c as u32)),
            c => quoted.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    quoted.push('"');
    match reads_back(&quoted, value) {
        true => Ok(quoted),
        false => Err(format!(
            "`{}` cannot be written as YAML text",
            crate::terminal::escape(value)
        )),
    }
}

/// Whether a plain scalar could be `value` as written: no character YAML gives a meaning to
/// at the start, no `: ` or ` #`, no quote or bracket anywhere (the round trip decides the
/// rest).
fn plain_is_safe(value: &str) -> bool {
    let Some(first) = value.chars().next() else {
        return false;
    };
    !"-?:,[]{}#&*!|>'\"%@`~ ".contains(first)
        && !value.ends_with([' ', ':'])
        && !value.contains(": ")
        && !value.contains(" #")
        && !value.contains(['"', '\'', '{', '}', '[', ']', '\\'])
        && value.chars().all(|c| printable(c) && c != '\t')
}

/// Whether YAML may hold `c` as it is inside a double-quoted scalar (YAML 1.2's printable
/// characters, without the line and paragraph separators some readers take as line ends).
fn printable(c: char) -> bool {
    let n = c as u32;
    match n {
        0x20..=0x7e => true,
        0xa0..=0xd7ff => !matches!(n, 0x2028 | 0x2029),
        0xe000..=0xfffd => n != 0xfeff,
        0x10000..=0x10ffff => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::scalar;

    #[test]
    fn values_yaml_gives_a_meaning_to_are_quoted() {
        assert_eq!(scalar("yes").as_deref(), Ok("yes"));
        assert_eq!(scalar("Uses the SDK.").as_deref(), Ok("Uses the SDK."));
        assert_eq!(scalar("3.17").as_deref(), Ok("\"3.17\""));
        for hostile in [
            "a: b",
            "x # y",
            "{{ secrets.TOKEN }}",
            "&a",
            "*a",
            "!!python/object:os.system",
            "- item",
            "line\nbreak",
            "nul\u{0}bell\u{7}",
            "\u{2028}",
            "\"quoted\" and \\",
            "",
            "true",
            "~",
            "null",
        ] {
            let written = scalar(hostile).expect("written");
            assert!(
                written.starts_with('"') && !written.contains('\n'),
                "{written}"
            );
        }
        assert_eq!(scalar("a\u{1}b").as_deref(), Ok("\"a\\u0001b\""));
    }
}
