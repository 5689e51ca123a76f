//! FN211 observation-invalid-value: an observation's `transport`, `probe.mode`,
//! `probe.protocol`, `outcome`, `package.ecosystem`, or a result's `status` or `basis` that is
//! not one of the values they take.

use crate::diagnostic::Severity;
use crate::field_table::{BASES, ECOSYSTEMS, OUTCOMES, PROBE_MODES, PROBE_PROTOCOLS, TRANSPORTS};
use crate::lint::{suggest, Context, Reads, RuleMeta, Scope, Sink};
use crate::model::{Spanned, SUPPORT_STATUSES};

pub const META: RuleMeta = RuleMeta {
    code: "FN211",
    name: "observation-invalid-value",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "an observation's transport, probe mode or protocol, outcome, package ecosystem, or result status or basis that is not a known value",
    doc: r#"## What it flags

An observation whose `transport` is not `stdio`, `streamableHttp` or `sse`; whose `probe.mode`
is not `stdio`, `streamable`, `sse`, `legacy-only-404`, `legacy-only-405` or `expire-session`; whose
`probe.protocol` is not `current` or `2026-07-28`; whose `outcome` is not `session` or
`no-session`; whose `package.ecosystem` is not `npm` or `pypi`; or a result whose `status` is
not `yes`, `partial`, `no` or `unknown`, or whose `basis` is not `declared`, `did`, `refused` or
`absent`.

## Why

Pages, the data API and lint's cross-checks with support cells read these values; one they do
not know is shown as nothing, or as `unknown`.

## Example

```yaml
transport: http
results:
  tools.list:
    status: true
```

Write `transport: streamableHttp` and `status: yes`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for observation in &cx.index.content.observations {
        let mut fields: Vec<(&str, &Spanned<String>, &[&str])> = Vec::new();
        fields.extend(
            observation
                .transport
                .iter()
                .map(|t| ("transport", t, &TRANSPORTS[..])),
        );
        let mode = observation.probe.as_ref().and_then(|p| p.mode.as_ref());
        fields.extend(mode.map(|m| ("probe.mode", m, &PROBE_MODES[..])));
        let protocol = observation.probe.as_ref().and_then(|p| p.protocol.as_ref());
        fields.extend(protocol.map(|p| ("probe.protocol", p, &PROBE_PROTOCOLS[..])));
        fields.extend(
            observation
                .outcome
                .iter()
                .map(|o| ("outcome", o, &OUTCOMES[..])),
        );
        let ecosystem = observation
            .package
            .as_ref()
            .and_then(|p| p.ecosystem.as_ref());
        fields.extend(ecosystem.map(|e| ("package.ecosystem", e, &ECOSYSTEMS[..])));
        for result in &observation.results {
            let status = result.status.iter();
            fields.extend(status.map(|s| ("status", s, &SUPPORT_STATUSES[..])));
            fields.extend(result.basis.iter().map(|b| ("basis", b, &BASES[..])));
        }
        for (field, value, allowed) in fields {
            if allowed.contains(&value.value.as_str()) {
                continue;
            }
            let help = suggest::did_you_mean(&value.value, allowed.iter().copied(), || {
                format!("use one of: {}", allowed.join(", "))
            });
            sink.report(
                &META,
                value.span,
                format!("`{}` is not a value `{field}` takes", value.value),
                Some(help),
            );
        }
    }
}
