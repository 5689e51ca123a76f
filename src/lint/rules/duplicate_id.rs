//! FN103 duplicate-id: two files of one section with the same id (or ids equal but for case),
//! or a capability alias that another capability answers to as well.

use crate::diagnostic::Severity;
use crate::index::{AliasClash, CaseClash};
use crate::lint::{walk, Context, Reads, RuleMeta, Scope, Sink};
use crate::model::{doc_id, Content};
use crate::text_file::{Section, Span};

pub const META: RuleMeta = RuleMeta {
    code: "FN103",
    name: "duplicate-id",
    severity: Severity::Error,
    scope: Scope::Global, // compares every note's id
    reads: Reads::FrontMatter,
    summary: "two notes, clients, capabilities or guides with the same id (or the same but for \
              case), or a capability alias that names two capabilities",
    doc: r#"## What it flags

Two or more files of one section (research, clients, capabilities, guides) that have the same
id, each reported with the other file it clashes with; an id that is another's of its section
but for case (`transports.streamableHttp` and `transports.streamablehttp`), reported at the
later one with the first; and a capability alias that is another capability's id or alias,
reported at the alias.

## Why

Both would be written to the same URL; one page silently replaces the other, and every link
and `related` entry becomes ambiguous. Ids equal but for case are two files on Linux and one on
macOS and Windows, where the checkout or the build loses one of them. An alias that names two
capabilities puts a note or support cell under whichever the index happens to find first.

## Example

`content/research/a.md` and `content/research/old/a.md`, or a copied note whose `id` was not
changed; or, in `content/capabilities/transports.streamableHttp.md`,

```yaml
aliases:
  - transports.sse
```

Give one of them a new id (and file name), or remove the alias."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let content = &cx.index.content;
    for ((section, id), holders) in &cx.index.ids.duplicates {
        let spans: Vec<Span> = holders
            .iter()
            .map(|&i| id_at(content, *section, i).1)
            .collect();
        walk::report_clashes(
            cx.index,
            sink,
            &META,
            &spans,
            |other| format!("id `{id}` is also the id of {other}"),
            "give one of the two files another id and file name",
        );
    }
    for clash in &cx.index.ids.case_clashes {
        report_case_clash(cx, sink, *clash);
    }
    for clash in &cx.index.ids.alias_clashes {
        report_alias_clash(cx, sink, *clash);
    }
}

/// At the later id: it is the first one's but for case.
fn report_case_clash(cx: &Context<'_>, sink: &mut Sink<'_>, clash: CaseClash) {
    let content = &cx.index.content;
    let (id, span) = id_at(content, clash.section, clash.index);
    let (first_id, first) = id_at(content, clash.section, clash.first);
    sink.report(
        &META,
        span,
        format!(
            "id `{id}` differs only in case from `{first_id}`, the id of {}: on macOS and \
             Windows the two are one file",
            cx.index.files[first.file].display_path()
        ),
        Some("give one of the two files another id and file name".to_string()),
    );
}

/// At the alias, and at the other capability's alias when it is one too.
fn report_alias_clash(cx: &Context<'_>, sink: &mut Sink<'_>, clash: AliasClash) {
    let capabilities = &cx.index.content.capabilities;
    let alias = &capabilities[clash.capability].aliases[clash.alias];
    let name = |i: usize| doc_id(&capabilities[i].id, &capabilities[i].doc);
    let file = |i: usize| cx.index.files[capabilities[i].doc.file].display_path();
    let Some(other_alias) = clash.other_alias else {
        sink.report(
            &META,
            alias.span,
            format!(
                "alias `{}` of capability `{}` is the id of another capability ({})",
                alias.value,
                name(clash.capability),
                file(clash.other)
            ),
            Some("remove the alias: the id already names that capability".to_string()),
        );
        return;
    };
    let pairs = [
        (alias.span, clash.capability, clash.other),
        (
            capabilities[clash.other].aliases[other_alias].span,
            clash.other,
            clash.capability,
        ),
    ];
    for (span, this, other) in pairs {
        sink.report(
            &META,
            span,
            format!(
                "alias `{}` of capability `{}` is also an alias of capability `{}` ({})",
                alias.value,
                name(this),
                name(other),
                file(other)
            ),
            Some(
                "keep the alias on one capability only: a note or support cell that uses it \
                 cannot say which it means"
                    .to_string(),
            ),
        );
    }
}

/// The id the `index`th document of `section` goes by, and where it writes it (its first line
/// when it does not: a guide's id is its file name).
fn id_at(content: &Content, section: Section, index: usize) -> (&str, Span) {
    let (id, doc) = match section {
        Section::Research => (&content.notes[index].id, &content.notes[index].doc),
        Section::Clients => (&content.clients[index].id, &content.clients[index].doc),
        Section::Capabilities => (
            &content.capabilities[index].id,
            &content.capabilities[index].doc,
        ),
        Section::Guides => (&None, &content.guides[index].doc),
        Section::Observations => (
            &content.observations[index].id,
            &content.observations[index].doc,
        ),
    };
    let span = id.as_ref().map_or(Span::file_start(doc.file), |id| id.span);
    (doc_id(id, doc), span)
}
