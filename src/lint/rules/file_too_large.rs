//! FN009 file-too-large: a content file larger than `limits.maxFileBytes`.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::load::Problem;

pub const META: RuleMeta = RuleMeta {
    code: "FN009",
    name: "file-too-large",
    severity: Severity::Error,
    scope: Scope::Global, // reads the load's unreadable files
    reads: Reads::FrontMatter,
    summary: "a content file larger than limits.maxFileBytes (16 MiB unless site.yaml says)",
    doc: r#"## What it flags

A `.md` file under `content/` larger than `limits.maxFileBytes` in `site.yaml` (16 MiB unless it
says otherwise). The file is not read.

## Why

Content comes from pull requests, and lint and build run on them in CI: a cap on what one file
may hold keeps a careless or hostile one from exhausting the memory or time of the run. No
research note needs megabytes of text.

## Example

A 40 MB log pasted into a note body:

```text
content/research/a-note.md: it has 41943040 bytes, more than the 16777216 of limits.maxFileBytes
```

Link to the log instead of pasting it, or split the file. A site that really needs larger
files raises the cap:

```yaml
limits:
  maxFileBytes: 33554432
```"#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for bad in &cx.index.unreadable {
        if let Problem::TooLarge { .. } = bad.problem {
            sink.report_file(
                &META,
                bad.file,
                format!("the file was not read: {}", bad.problem),
                Some(
                    "shorten the file or split it; link to large material instead of pasting \
                     it (or raise limits.maxFileBytes in site.yaml)"
                        .to_string(),
                ),
            );
        }
    }
}
