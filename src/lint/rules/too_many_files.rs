//! FN011 too-many-files: a site with more content files than `limits.maxFiles`.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::load::Problem;

pub const META: RuleMeta = RuleMeta {
    code: "FN011",
    name: "too-many-files",
    severity: Severity::Error,
    scope: Scope::Global, // reads the load's unreadable files
    reads: Reads::FrontMatter,
    summary: "more content files than limits.maxFiles (200,000 unless site.yaml says)",
    doc: r#"## What it flags

A site with more `.md` files under `content/` than `limits.maxFiles` in `site.yaml` (200,000
unless it says otherwise), at the first file past the cap. That file and the ones after it, in
path order, are not read.

## Why

A cap on the number of files bounds the memory and time of a lint or build, whatever a pull
request adds.

## Example

```yaml
limits:
  maxFiles: 1000
```

with 1,001 files under `content/`. Remove files, or raise the cap."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for bad in &cx.index.unreadable {
        if let Problem::TooMany { .. } = bad.problem {
            sink.report_file(
                &META,
                bad.file,
                bad.problem.to_string(),
                Some(
                    "remove content files, or raise limits.maxFiles in site.yaml if the site \
                     really is this large"
                        .to_string(),
                ),
            );
        }
    }
}
