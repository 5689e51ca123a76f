//! FN605 link-escapes-root: a relative link that climbs above the site root.

use crate::diagnostic::Severity;
use crate::index::links::LinkTarget;
use crate::lint::{walk, Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN605",
    name: "link-escapes-root",
    severity: Severity::Error,
    scope: Scope::NoteLocal, // what it flags resolves without reading ids
    reads: Reads::Body,
    summary: "a relative link that climbs above the site root",
    doc: r#"## What it flags

A link whose `..` segments climb above the root of the site: relative
(`../../../README.md` from `content/research/`) or absolute (`/research/../../x.md`).

## Why

Nothing above the root is published, so the link is dead on the site, even if it works when
the file is read on GitHub.

## Example

```markdown
[the guide](../../../guides/streamable-http-vs-sse.md)
```

Write a site path: `/guides/streamable-http-vs-sse.md`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for (target, link) in walk::links(cx.index) {
        let escapes = match target {
            LinkTarget::Escapes => true,
            LinkTarget::Static { path } => climbs_above_root(path),
            _ => false,
        };
        if escapes {
            sink.report(
                &META,
                link.span,
                format!("`{}` climbs above the site root", link.dest),
                Some(
                    "write a site path such as /research/<id>.md or /guides/<slug>.md".to_string(),
                ),
            );
        }
    }
}

/// Whether an absolute site path's `..` segments climb above `/` (`/research/../../x`).
fn climbs_above_root(path: &str) -> bool {
    let mut depth = 0usize;
    for segment in path.split(['/', '\\']) {
        match segment {
            "" | "." => {}
            ".." => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return true,
            },
            _ => depth += 1,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::climbs_above_root;

    #[test]
    fn only_paths_above_the_root_climb() {
        assert!(climbs_above_root("/research/../../etc/passwd"));
        assert!(climbs_above_root("/..\\x"));
        assert!(!climbs_above_root("/research/../clients/a.md"));
        assert!(!climbs_above_root("/img/a.png"));
    }
}
