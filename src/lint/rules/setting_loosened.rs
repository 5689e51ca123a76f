//! FN013 setting-loosened: a `site.yaml` setting that a pull request loosened against the
//! base revision's (`lint --config-from REV`, made by `config::trust`).

use crate::config::trust::{LOOSENED_CODE, LOOSENED_NAME};
use crate::diagnostic::Severity;
use crate::lint::{Reads, RuleMeta, Scope};

pub const META: RuleMeta = RuleMeta {
    code: LOOSENED_CODE,
    name: LOOSENED_NAME,
    severity: Severity::Error,
    scope: Scope::Global,
    reads: Reads::FrontMatter,
    summary: "a site.yaml setting a pull request loosened against the base revision's (lint --config-from)",
    doc: r#"## What it flags

With `fieldnotes lint --config-from REV` (the GitHub Action passes the pull request's base
commit), a `site.yaml` value in the work tree that is looser than the one at REV: a higher
limit (`limits.*`), `unsafeHtml: true`, another `theme`, a rule's severity lowered or switched
off, a longer `staleAfterDays`. The base's value is used instead, and the finding points at
the line that tried to change it. Values that tighten the check (a lower limit, a higher
severity) are taken.

## Why

A pull request must not set the rules of its own check: raising a limit lets a template spin
until CI is killed, `unsafeHtml` lets raw `<script>` into the published site, and switching a
rule off lets the problem it finds through.

## Example

```yaml
lint:
  rules:
    broken-link: off   # in the pull request; the base has it as an error
```

Take the change back, or make it in a change of its own that a maintainer merges."#,
};
