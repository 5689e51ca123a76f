//! FN706 restatement-mismatch: a note body that restates its front matter (the title as
//! `# …`, a metadata line, `## Sources`, `## Related notes`) and says something else.

use crate::diagnostic::Severity;
use crate::index::SiteIndex;
use crate::lint::inline::{inline_items, links, plain};
use crate::lint::{walk, Context, Reads, RuleMeta, Scope, Sink};
use crate::model::{MetadataField, Note, RestatedSection, SourceRef, Spanned};
use crate::text_file::Span;

pub const META: RuleMeta = RuleMeta {
    code: "FN706",
    name: "restatement-mismatch",
    severity: Severity::Warning,
    scope: Scope::NoteLocal, // the note's own front matter and body, and site.yaml's kinds
    reads: Reads::Body,
    summary: "a note body that restates its front matter and disagrees with it",
    doc: r#"## What it flags

A research note whose body repeats a fact of its front matter and gets it wrong: a leading
`# title` that is not `title`; a metadata line (`Kind: … · Status: … · Last verified: …`)
whose kind, status, dates, clients, capabilities or revisions differ from the front matter's;
a `## Sources` list with a source the front matter does not have, or without one it has; a
`## Related notes` list that differs from `related`. Reported at the value that differs.

## Why

Pages show each fact once, from the front matter: the body's copies are left out of the HTML
and Markdown renditions. When the two disagree, one of them is out of date, and it may be the
front matter (say the body was updated after a new check, and `lastVerified` was not). It is
a warning, not an error: the page is still built from the front matter.

## Example

```markdown
lastVerified: 2026-11-30
---

# A Hermes server configured by URL alone gets Streamable HTTP

Kind: idiosyncrasy · Status: current · Last verified: 2026-11-09
```

Make the line say `Last verified: 2026-11-30` (or correct `lastVerified`), or remove the
metadata line: the page shows the front matter's facts either way."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for note in &cx.index.content.notes {
        let restated = &note.doc.body.restated;
        if let (Some(line), Some(title)) = (&restated.title, &note.title) {
            let (said, front) = (plain(&line.value.value), plain(&title.value));
            if !said.eq_ignore_ascii_case(&front) && !unwritten(&said) {
                sink.report(
                    &META,
                    line.value.span,
                    format!("the title line says “{said}”, the front matter's `title` is “{front}”"),
                    Some("make them the same, or remove the `# …` line: the page shows `title` as its heading".into()),
                );
            }
        }
        if let Some(line) = &restated.metadata {
            for field in line.value.iter().filter(|f| !unwritten(&f.value.value)) {
                metadata_field(cx.index, note, field, sink);
            }
        }
        if let Some(section) = &restated.sources {
            sources(cx.index, note, section, sink);
        }
        if let Some(section) = &restated.related {
            let listed = (section.items.iter())
                .filter(|item| !unwritten(&item.value))
                .map(|item| (item, inline_items(&item.value)));
            let fronts: Vec<&str> = note.related.iter().map(|r| r.value.as_str()).collect();
            let heading = heading_line(cx.index, note, section);
            list_differs(sink, heading, listed, &fronts, "related note", "related");
        }
    }
}

/// A metadata line's field against the front matter.
fn metadata_field(index: &SiteIndex, note: &Note, field: &MetadataField, sink: &mut Sink<'_>) {
    let key = field.key.value.to_ascii_lowercase();
    let value = &field.value;
    let single = |front: &Option<Spanned<String>>, name: &str, also: Option<&str>| {
        let front = front.as_ref().map_or("", |f| f.value.trim());
        let said = plain(&value.value);
        let agrees =
            said.eq_ignore_ascii_case(front) || also.is_some_and(|a| said.eq_ignore_ascii_case(a));
        (!agrees).then(|| {
            (
                format!(
                    "the metadata line says {} `{said}`, the front matter's `{name}` is `{front}`",
                    field.key.value
                ),
                format!("make them the same, or remove the metadata line: the page shows `{name}`"),
            )
        })
    };
    let kind_title = note
        .kind
        .as_ref()
        .and_then(|k| index.config.kind(&k.value))
        .and_then(|k| k.title.as_deref());
    let finding = match key.as_str() {
        "kind" => single(&note.kind, "kind", kind_title),
        "status" => single(&note.status, "status", None),
        "last verified" => single(&note.last_verified, "lastVerified", None),
        "last updated" => single(&note.last_updated, "last-updated", None),
        "clients" => list_field(&value.value, &note.clients, "clients", |id| {
            index.ids.client(id).map(|c| {
                let client = &index.content.clients[c];
                client.title.as_ref().map_or(id, |t| t.value.as_str())
            })
        }),
        "capabilities" => list_field(&value.value, &note.capabilities, "capabilities", |id| {
            index.ids.capability(id).map(|(c, _)| {
                let cap = &index.content.capabilities[c];
                cap.title.as_ref().map_or(id, |t| t.value.as_str())
            })
        }),
        _ => list_field(&value.value, &note.spec_versions, "specVersions", |_| None),
    };
    if let Some((message, help)) = finding {
        sink.report(&META, value.span, message, Some(help));
    }
}

/// A list field of the metadata line (`Clients: [a](/clients/a.md), [b](/clients/b.md)`)
/// against the front matter's list `name`, whose ids may also be written by the title
/// `title_of` gives.
fn list_field<'a>(
    written: &str,
    front: &'a [Spanned<String>],
    name: &str,
    title_of: impl Fn(&'a str) -> Option<&'a str>,
) -> Option<(String, String)> {
    let said = inline_items(written);
    let names = |id: &'a str| {
        let title = title_of(id);
        move |item: &String| {
            item.eq_ignore_ascii_case(id) || title.is_some_and(|t| item.eq_ignore_ascii_case(t))
        }
    };
    let missing: Vec<&str> = (front.iter())
        .map(|f| f.value.as_str())
        .filter(|id| !said.iter().any(names(id)))
        .collect();
    let extra: Vec<&String> = (said.iter())
        .filter(|item| !front.iter().any(|f| names(&f.value)(item)))
        .collect();
    if missing.is_empty() && extra.is_empty() {
        return None;
    }
    let mut differences = Vec::new();
    if !missing.is_empty() {
        differences.push(format!("it leaves out {}", quoted(missing.iter())));
    }
    if !extra.is_empty() {
        differences.push(format!("`{name}` does not have {}", quoted(extra.iter())));
    }
    Some((
        format!(
            "the metadata line's list differs from the front matter's `{name}`: {}",
            differences.join("; ")
        ),
        format!(
            "list the same ids as `{name}`, or remove the metadata line: the page shows `{name}`"
        ),
    ))
}

/// The `## Sources` list against the front matter's `sources`: every item must be one of
/// them (its link, commit and path), and every one of them must be listed. An item and a
/// source that match nothing are paired in order, and reported once, at the item, with what
/// differs.
fn sources(index: &SiteIndex, note: &Note, section: &RestatedSection, sink: &mut Sink<'_>) {
    // Each item's links read once: every item is compared with every source.
    let items: Vec<(&Spanned<String>, Vec<String>)> = (section.items.iter())
        .filter(|item| !unwritten(&item.value))
        .map(|item| (item, links(&item.value)))
        .collect();
    // Whether item i is source j, at i * width + j: each pair compared once.
    let width = note.sources.len();
    let same: Vec<bool> = (items.iter())
        .flat_map(|(item, links)| (note.sources.iter()).map(|s| is(item, links, s)))
        .collect();
    let unmatched_items = (items.iter().enumerate())
        .filter(|(i, _)| !same[i * width..(i + 1) * width].contains(&true))
        .map(|(_, item)| item);
    let mut unmatched_sources = (note.sources.iter().enumerate())
        .filter(|(j, _)| !(0..items.len()).any(|i| same[i * width + j]));
    for (item, links) in unmatched_items {
        let help = "make the two agree (the page lists the front matter's `sources`), or \
                    remove the `## Sources` list";
        let message = match unmatched_sources.next() {
            Some((n, source)) => format!(
                "this source differs from the front matter's source {}{}: {}",
                n + 1,
                named(source),
                (differences(&item.value, links, source).map(|d| d.to_string()))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            None => "this source is not one of the front matter's `sources`".to_string(),
        };
        sink.report(&META, item.span, message, Some(help.into()));
    }
    if items.len() < section.items.len() {
        return; // a placeholder item (FN705) may stand for what is left
    }
    for (n, source) in unmatched_sources {
        sink.report(
            &META,
            heading_line(index, note, section),
            format!(
                "the `## Sources` list leaves out the front matter's source {}{}",
                n + 1,
                named(source)
            ),
            Some("list it too, or remove the `## Sources` list: the page lists `sources`".into()),
        );
    }
}

/// Whether a `## Sources` item (its text and the links in it) is `source`: it differs in
/// nothing.
fn is(item: &Spanned<String>, links: &[String], source: &SourceRef) -> bool {
    differences(&item.value, links, source).next().is_none()
}

/// What of a front-matter source a `## Sources` item leaves out.
enum Difference<'s> {
    /// Its `url` is none of the item's links.
    Url(&'s str),
    /// Its `commit` or `path` (the field's name and value) is not in the item's text.
    Field(&'static str, &'s str),
}

impl std::fmt::Display for Difference<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Difference::Url(url) => write!(f, "it does not link to `{url}`"),
            Difference::Field(name, value) => write!(f, "its {name} is not `{value}`"),
        }
    }
}

/// How a `## Sources` item (its text and the links in it) differs from a front-matter
/// source: its link, commit or path not in it (none: the item is that source). Lazy, and
/// without allocating, as every item is compared with every source.
fn differences<'s>(
    item: &'s str,
    links: &'s [String],
    source: &'s SourceRef,
) -> impl Iterator<Item = Difference<'s>> + 's {
    let url = (source.url.as_ref())
        .map(|url| url.value.trim_end_matches('/'))
        .filter(|url| !links.iter().any(|l| l.trim_end_matches('/') == *url))
        .map(Difference::Url);
    let fields = [("commit", &source.commit), ("path", &source.path)]
        .into_iter()
        .filter_map(move |(name, value)| {
            (value.as_ref())
                .filter(|v| !item.contains(v.value.as_str()))
                .map(|v| Difference::Field(name, &v.value))
        });
    url.into_iter().chain(fields)
}

/// ` (“title”)` of a source, or of its path.
fn named(source: &SourceRef) -> String {
    (source.title.as_ref().or(source.path.as_ref()))
        .map_or(String::new(), |t| format!(" (“{}”)", t.value))
}

/// Text an author has still to write (`TODO`): FN705 reports it, this rule leaves it be.
fn unwritten(text: &str) -> bool {
    text.contains(crate::model::PLACEHOLDER)
}

/// A restated list against the front matter's ids `fronts`: items that name none of them,
/// and ids no item names.
fn list_differs<'i>(
    sink: &mut Sink<'_>,
    heading: Span,
    listed: impl Iterator<Item = (&'i Spanned<String>, Vec<String>)>,
    fronts: &[&str],
    what: &str,
    field: &str,
) {
    let mut named: Vec<String> = Vec::new();
    for (item, ids) in listed {
        let id = ids.into_iter().next().unwrap_or_default();
        if !fronts.iter().any(|f| f.eq_ignore_ascii_case(&id)) {
            sink.report(
                &META,
                item.span,
                format!("`{id}` is not in the front matter's `{field}`"),
                Some(format!(
                    "add it to `{field}`, or remove it from this list: the page lists `{field}`"
                )),
            );
        }
        named.push(id);
    }
    for front in fronts {
        if !named.iter().any(|n| n.eq_ignore_ascii_case(front)) {
            sink.report(
                &META,
                heading,
                format!("this list leaves out the {what} `{front}` that `{field}` names"),
                Some(format!(
                    "list it too, or remove this section: the page lists `{field}`"
                )),
            );
        }
    }
}

/// The line of a restated section's heading (`## Sources`), its line break left out.
fn heading_line(index: &SiteIndex, note: &Note, section: &RestatedSection) -> Span {
    let span = note.doc.body.headings[section.heading].span;
    let text = walk::span_text(index, span);
    let line = text.find(['\r', '\n']).unwrap_or(text.len());
    Span::new(span.file, span.start, span.start + line)
}

/// `a`, `b` and `c`.
fn quoted<T: std::fmt::Display>(items: impl Iterator<Item = T>) -> String {
    items
        .map(|i| format!("`{i}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
