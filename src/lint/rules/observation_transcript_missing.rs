//! FN214 observation-transcript-missing: an observation's `transcript` names no readable file
//! beside it.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::model::text;

pub const META: RuleMeta = RuleMeta {
    code: "FN214",
    name: "observation-transcript-missing",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "an observation whose `transcript` is not a readable `.jsonl` file beside it",
    doc: r#"## What it flags

An observation whose `transcript` does not name a `.jsonl` file in `content/observations/`
(the folder it is in), or names one that could not be read (too large for
`limits.maxFileBytes`, not UTF-8, not a regular file).

## Why

The transcript is the evidence: the raw messages the client sent. Without it, the results
are claims nobody can check, and the observation page has no lines to show.

## Example

```yaml
transcript: claude-code-2-1-328-stdio-20261201-231500.json
```

Write the transcript's file name as `fieldnotes probe` wrote it, and commit the `.jsonl`
beside the `.md`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let content = &cx.index.content;
    for (o, observation) in content.observations.iter().enumerate() {
        let Some(name) = &observation.transcript else {
            continue;
        };
        let found = cx.index.observations.transcript[o].map(|t| &content.transcripts[t]);
        let (message, help) = match found {
            Some(t) => match &t.problem {
                None => continue,
                Some(problem) => (
                    format!("transcript `{}` could not be read: {problem}", name.value),
                    "commit the transcript as `fieldnotes probe` wrote it (UTF-8 JSON lines \
                     within limits.maxFileBytes)"
                        .to_string(),
                ),
            },
            None => {
                let stem = &observation.doc.stem;
                let expected = format!("{stem}.jsonl");
                let beside = content.transcripts.iter().any(|t| t.name == expected);
                let help =
                    match beside {
                        true if text(&observation.transcript) != expected => {
                            format!("the transcript beside this file is `{expected}`: write that")
                        }
                        _ => {
                            format!(
                        "commit the transcript as content/observations/{}, beside this file",
                        if name.value.contains('/') { &expected } else { &name.value }
                    )
                        }
                    };
                (
                    format!(
                        "transcript `{}` is not a file in content/observations/",
                        name.value
                    ),
                    help,
                )
            }
        };
        sink.report(&META, name.span, message, Some(help));
    }
}
