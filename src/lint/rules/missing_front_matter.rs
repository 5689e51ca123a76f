//! FN002 missing-front-matter: a content file that does not open with `---`.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::model::FrontMatterError;

pub const META: RuleMeta = RuleMeta {
    code: "FN002",
    name: "missing-front-matter",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a content file without front matter",
    doc: r#"## What it flags

A file under `content/` whose first line is not `---`, so it has no front matter.

## Why

The front matter holds the id, title, sources and everything else the site is built from; a
file without it cannot become a page.

## Example

```markdown
# A Hermes server configured by URL alone gets Streamable HTTP
```

Start the file with a `---` line, the fields, and another `---` line (`fieldnotes schema`
lists the fields)."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for doc in cx.index.content.documents() {
        if let Some(FrontMatterError::Missing { .. }) = doc.front_matter_error {
            sink.report_file(
                &META,
                doc.file,
                "the file has no front matter".to_string(),
                Some("start the file with `---`, the front matter fields, then `---`".to_string()),
            );
        }
    }
}
