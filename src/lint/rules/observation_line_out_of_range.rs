//! FN215 observation-line-out-of-range: a result cites a transcript line the transcript does
//! not have.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN215",
    name: "observation-line-out-of-range",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "an observation result's `messages` line past the end of its transcript",
    doc: r#"## What it flags

A number in a result's `messages` that is larger than the number of lines in the observation's
transcript.

## Why

Each result points at the transcript lines that show it, and the observation page prints those
lines; a line that is not there shows nothing, and often means the transcript was cut or
replaced after the results were written.

## Example

```yaml
results:
  tools.list:
    status: yes
    messages: [4, 50]   # the transcript has 12 lines
```

Cite lines the transcript has, or commit the transcript the results were written from."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let content = &cx.index.content;
    for (o, observation) in content.observations.iter().enumerate() {
        let Some(t) = cx.index.observations.transcript[o].map(|t| &content.transcripts[t]) else {
            continue; // FN214 says the transcript is missing
        };
        if t.problem.is_some() {
            continue;
        }
        for result in &observation.results {
            for line in result.messages.iter().filter(|m| m.value > t.lines()) {
                sink.report(
                    &META,
                    line.span,
                    format!(
                        "line {} of `{}` does not exist: the transcript has {} lines",
                        line.value,
                        t.name,
                        t.lines()
                    ),
                    Some(format!(
                        "cite lines 1 to {} of the transcript that show `{}`",
                        t.lines(),
                        result.capability.value
                    )),
                );
            }
        }
    }
}
