//! FN006 unknown-field: a front matter key that the object does not take.

use crate::diagnostic::Severity;
use crate::field_table;
use crate::lint::{suggest, Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN006",
    name: "unknown-field",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a front matter field that the note, client, capability, source or cell does not take",
    doc: r#"## What it flags

A key of a note, client, capability or guide, or of a nested source or support cell, that is
not one of the fields that object takes. Misspellings get a "did you mean".

## Why

An unknown key is ignored, so a misspelt field is a missing one: `lastverified` leaves the note
without a verification date. Data taken in from elsewhere (`last_verified`, `source`) needs
renaming.

## Example

```yaml
support:
  transports.sse:
    status: yes
    last_verified: 2026-11-30
```

Write `lastVerified`. `fieldnotes schema` lists every field."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for doc in cx.index.content.documents() {
        for key in &doc.keys {
            if field_table::find(key.object, &key.key).is_some() || field_table::is_open(key.object)
            {
                continue;
            }
            let fields = field_table::fields(key.object);
            let help = suggest::did_you_mean(&key.key, fields.iter().map(|f| f.name), || {
                let names: Vec<&str> = fields.iter().map(|f| f.name).collect();
                format!(
                    "remove it; a {} takes {}",
                    field_table::object_name(key.object),
                    names.join(", ")
                )
            });
            sink.report(
                &META,
                key.span,
                format!(
                    "unknown field `{}` in {}",
                    key.key,
                    field_table::object_name(key.object)
                ),
                Some(help),
            );
        }
    }
}
