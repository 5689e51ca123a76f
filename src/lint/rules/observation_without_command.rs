//! FN216 observation-without-command: an observation that does not say how the client was
//! driven.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::model::text;

pub const META: RuleMeta = RuleMeta {
    code: "FN216",
    name: "observation-without-command",
    severity: Severity::Warning,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "an observation whose `command` is empty",
    doc: r#"## What it flags

An observation whose `command` is empty: `fieldnotes probe` writes `""` when it was not told
how the client was started (`--command`).

## Why

An observation is replayable evidence: anyone can run the same client version against the
same probe. That needs the command that made the client connect.

## Example

```yaml
command: ""
```

Write how the client was driven, e.g. `claude mcp add probe -- fieldnotes probe stdio && claude
mcp list`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for observation in &cx.index.content.observations {
        let Some(command) = &observation.command else {
            continue; // a missing field is FN007's
        };
        if text(&observation.command).trim().is_empty() {
            sink.report(
                &META,
                command.span,
                "the observation does not say how the client was driven".to_string(),
                Some(
                    "write the commands that made the client connect to the probe, so anyone \
                     can run them again"
                        .to_string(),
                ),
            );
        }
    }
}
