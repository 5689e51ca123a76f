//! Observation pages (`/observations/<id>`): who was seen, which version, when, how it was
//! driven, each result with the transcript lines that show it (highlighted as JSON), and the
//! support cells that cite it. Everything a client sent (its `clientInfo`, the versions, the
//! transcript) is outside text: it reaches the view through [`visible_controls`].

use super::body::BodyView;
use super::escape::visible_controls;
use super::highlight;
use super::outside::{cut_line, Shown};
use super::support::some;
use super::views::{status, Ctx, DateView, LinkView, StatusView};
use crate::index::routes::Page;
use crate::model::{doc_id, text, SUPPORT_STATUSES};
use crate::text_file::Section;
use serde::Serialize;
use std::borrow::Cow;

/// An observation page.
#[derive(Debug, Serialize)]
pub struct ObservationView<'a> {
    pub id: &'a str,
    /// `/observations`.
    pub index_url: String,
    pub title: String,
    /// The client's page, when the site has the client `client` names.
    pub client: Option<LinkView<'a>>,
    /// `client` as written.
    pub client_id: &'a str,
    /// `clientInfo` as sent: every field, `name` and `version` first.
    pub client_info: Vec<Field<'a>>,
    /// The version that ran: the package's, else `clientInfo.version`.
    pub version: Option<Cow<'a, str>>,
    /// `package` as `ecosystem name`, when the observation names it.
    pub package: Option<String>,
    /// `clientInfo.version` when it differs from the package version that ran.
    pub client_info_version: Option<Cow<'a, str>>,
    /// `no-session`: the client was refused and began no session.
    pub outcome: Option<Cow<'a, str>>,
    /// `current` or `2026-07-28`, and the settle time in ms.
    pub probe_protocol: Option<Cow<'a, str>>,
    pub probe_settle_ms: Option<Cow<'a, str>>,
    pub observed: Option<DateView<'a>>,
    pub transport: Option<Cow<'a, str>>,
    pub protocol_version: Option<Cow<'a, str>>,
    /// The revision's page, when the site has it.
    pub protocol_link: Option<LinkView<'a>>,
    pub probe_version: Option<Cow<'a, str>>,
    pub probe_mode: Option<Cow<'a, str>>,
    pub command: Option<Cow<'a, str>>,
    /// The transcript's file name, and how many lines it has (`None`: not beside it).
    pub transcript: Option<&'a str>,
    pub transcript_lines: Option<usize>,
    pub results: Vec<ResultView<'a>>,
    /// The transcript lines the results cite, each once, in transcript order: the page
    /// prints them once, and each result links to its lines (`#line-12`).
    pub cited_lines: Vec<MessageView<'a>>,
    /// The support cells that cite this observation.
    pub cited_by: Vec<CitingCell<'a>>,
    pub backlinks: Vec<LinkView<'a>>,
    pub body: BodyView<'a>,
}

/// A `clientInfo` field.
#[derive(Debug, Serialize)]
pub struct Field<'a> {
    pub name: Cow<'a, str>,
    pub value: Cow<'a, str>,
}

/// One result: a capability, what the session showed, and the lines that show it.
#[derive(Debug, Serialize)]
pub struct ResultView<'a> {
    /// The capability's page, when the site has it.
    pub capability: Option<LinkView<'a>>,
    pub capability_id: &'a str,
    /// The row's anchor (`result-<capability>`).
    pub anchor: String,
    pub status: StatusView,
    /// What the status rests on: `declared`, `did`, `refused` or `absent`.
    pub basis: Option<Cow<'a, str>>,
    pub why: Option<Cow<'a, str>>,
    pub messages: Vec<MessageView<'a>>,
}

/// A transcript line a result cites.
#[derive(Debug, Clone, Serialize)]
pub struct MessageView<'a> {
    pub line: usize,
    /// The line, pretty-printed when it is JSON, cut at [`super::outside::LINE_BYTES`], or
    /// left out whole once the page has shown its share of outside text.
    pub text: Cow<'a, str>,
    /// `text` highlighted as JSON (`<pre><code>`).
    pub html: String,
    /// Bytes left out of a long line.
    pub cut: usize,
    /// A Markdown fence longer than any run of backticks in `text`.
    pub fence: String,
    /// The line is not in the transcript (lint reports it: FN215).
    pub missing: bool,
}

/// A support cell that cites an observation.
#[derive(Debug, Serialize)]
pub struct CitingCell<'a> {
    pub client: LinkView<'a>,
    pub capability_id: &'a str,
    /// The cell's capability, when the site has it.
    pub capability: Option<LinkView<'a>>,
    /// The cell's row on the client page.
    pub url: String,
    pub status: StatusView,
}

pub fn observation_view<'a>(ctx: &Ctx<'a>, i: usize) -> ObservationView<'a> {
    let o = ctx.observation(i);
    let page = Page::Observation(i);
    let index = ctx.observations();
    let transcript = ctx.transcript(i);
    let max_highlight = ctx.config().limits.max_highlight_bytes;
    let info = o.client_info.as_ref();
    let mut client_info: Vec<Field<'a>> = info
        .map(|info| {
            info.fields
                .iter()
                .map(|(k, v)| Field {
                    name: visible_controls(&k.value),
                    value: visible_controls(v),
                })
                .collect()
        })
        .unwrap_or_default();
    let rank = |name: &str| ["name", "version"].iter().position(|n| *n == name);
    client_info.sort_by_key(|f| rank(&f.name).unwrap_or(2));
    let protocol_version = some(&o.protocol_version);
    let mut seen = Seen::default();
    let results: Vec<ResultView<'a>> = o
        .results
        .iter()
        .map(|r| {
            let cap = ctx.find_capability(&r.capability.value).map(|(c, _)| c);
            ResultView {
                capability: cap.map(|c| ctx.link(Page::Capability(c))),
                capability_id: r.capability.value.as_str(),
                anchor: format!("result-{}", r.capability.value),
                status: status(known_status(text(&r.status))),
                basis: some(&r.basis).map(visible_controls),
                why: some(&r.why).map(visible_controls),
                messages: r
                    .messages
                    .iter()
                    .map(|m| {
                        let raw = transcript.and_then(|t| t.line(m.value));
                        seen.show(raw, m.value, max_highlight, ctx.shown())
                    })
                    .collect(),
            }
        })
        .collect();
    let mut cited_lines: Vec<MessageView<'a>> = (results.iter())
        .flat_map(|r: &ResultView<'a>| r.messages.iter().cloned())
        .collect();
    cited_lines.sort_by_key(|m| m.line);
    cited_lines.dedup_by_key(|m| m.line);
    let cited_by = index.cited_by.get(i).map_or(&[][..], Vec::as_slice);
    let cited_by = cited_by
        .iter()
        .map(|&(client, cell)| {
            let c = ctx.client(client);
            let capability_id = c.support[cell].capability.value.as_str();
            let cap = ctx.find_capability(capability_id).map(|(cap, _)| cap);
            let anchor = super::support::row_anchor(cap.map_or(capability_id, |cap| {
                let cap = ctx.capability(cap);
                doc_id(&cap.id, &cap.doc)
            }));
            CitingCell {
                client: ctx.link(Page::Client(client)),
                capability_id,
                capability: cap.map(|cap| ctx.link(Page::Capability(cap))),
                url: format!("{}#{anchor}", ctx.href(Page::Client(client))),
                status: status(known_status(text(&c.support[cell].status))),
            }
        })
        .collect();
    ObservationView {
        id: doc_id(&o.id, &o.doc),
        index_url: ctx.href(Page::Index(Section::Observations)),
        title: visible_controls(&o.display_title()).into_owned(),
        client: (index.client.get(i).copied().flatten()).map(|c| ctx.link(Page::Client(c))),
        client_id: text(&o.client),
        client_info,
        version: o
            .client_version()
            .filter(|v| !v.is_empty())
            .map(visible_controls),
        package: o.package.as_ref().map(|p| {
            let named = format!("{} {}", text(&p.ecosystem), text(&p.name));
            visible_controls(named.trim()).into_owned()
        }),
        client_info_version: o.differing_client_info_version().map(visible_controls),
        outcome: some(&o.outcome).map(visible_controls),
        probe_protocol: (o.probe.as_ref().and_then(|p| some(&p.protocol))).map(visible_controls),
        probe_settle_ms: (o.probe.as_ref().and_then(|p| some(&p.settle_ms))).map(visible_controls),
        observed: ctx.maybe_date(&o.observed),
        transport: some(&o.transport).map(visible_controls),
        protocol_version: protocol_version.map(visible_controls),
        protocol_link: protocol_version
            .and_then(|v| ctx.find_spec(v).map(|s| ctx.link_as(Page::Spec(s), v))),
        probe_version: o
            .probe
            .as_ref()
            .and_then(|p| some(&p.version))
            .map(visible_controls),
        probe_mode: o
            .probe
            .as_ref()
            .and_then(|p| some(&p.mode))
            .map(visible_controls),
        command: some(&o.command).map(visible_controls),
        transcript: some(&o.transcript),
        transcript_lines: transcript.map(|t| t.lines()),
        results,
        cited_lines,
        cited_by,
        backlinks: ctx.backlinks(page),
        body: ctx.body(page),
    }
}

/// A support status as written, or `unknown` when it is none of them.
fn known_status(value: &str) -> &'static str {
    SUPPORT_STATUSES
        .into_iter()
        .find(|s| *s == value)
        .unwrap_or("unknown")
}

/// The transcript lines this page has laid out, each once however often it is cited; every
/// showing still takes its bytes of the page's share of outside text.
#[derive(Default)]
struct Seen<'t> {
    lines: std::collections::HashMap<usize, MessageView<'t>>,
}

impl<'t> Seen<'t> {
    fn show(
        &mut self,
        raw: Option<&'t str>,
        line: usize,
        max_highlight: usize,
        shown: &Shown,
    ) -> MessageView<'t> {
        if let Some(seen) = self.lines.get(&line) {
            let cost = seen.text.len() + seen.html.len();
            if seen.missing || (cost > 0 && shown.take(cost)) {
                return seen.clone();
            }
            return left_out(line, raw.map_or(0, str::len));
        }
        let view = message(raw, line, max_highlight, shown);
        self.lines.insert(line, view.clone());
        view
    }
}

/// A line left out whole: the page has shown its share of outside text.
fn left_out(line: usize, bytes: usize) -> MessageView<'static> {
    MessageView {
        line,
        text: Cow::Borrowed(""),
        html: String::new(),
        cut: bytes,
        fence: "```".to_string(),
        missing: false,
    }
}

/// Transcript line `line` as a result shows it.
fn message<'t>(
    raw: Option<&'t str>,
    line: usize,
    max_highlight: usize,
    shown: &Shown,
) -> MessageView<'t> {
    let Some(raw) = raw else {
        return MessageView {
            line,
            text: Cow::Borrowed(""),
            html: String::new(),
            cut: 0,
            fence: "```".to_string(),
            missing: true,
        };
    };
    let (kept, cut) = cut_line(raw);
    if !shown.fits(kept.len()) {
        return left_out(line, raw.len());
    }
    let is_json = cut == 0 && serde_json::from_str::<serde::de::IgnoredAny>(kept).is_ok();
    let text = match is_json {
        true => Cow::Owned(visible_controls(&reindent(kept)).into_owned()),
        false => visible_controls(kept),
    };
    // The page's share of outside text counts what is shown, laid out.
    let (text, cut) = match shown.take(text.len()) {
        true => (text, cut),
        false => (Cow::Borrowed(""), raw.len()),
    };
    let longest = longest_run(&text, '`');
    let html = highlight::code_block("json", &text, max_highlight);
    shown.spend(html.len());
    MessageView {
        line,
        html,
        fence: "`".repeat(longest.max(2) + 1),
        text,
        cut,
        missing: false,
    }
}

/// How deep [`reindent`] indents.
const MAX_INDENT: usize = 16;

/// Valid JSON laid out two spaces a level, its keys in the order recorded (a parsed value
/// would sort them): each `{`, `[` and `,` outside strings ends a line, `:` takes a space.
fn reindent(json: &str) -> String {
    let mut out = String::with_capacity(json.len() * 2);
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    let mut chars = json.trim().chars().peekable();
    // Indented at most MAX_INDENT levels: a line of 16 KiB of `[` would otherwise take
    // gigabytes laid out.
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        out.push_str(&"  ".repeat(depth.min(MAX_INDENT)));
    };
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                out.push(c);
                let close = if c == '{' { '}' } else { ']' };
                while chars.peek().is_some_and(|n| n.is_whitespace()) {
                    chars.next();
                }
                if chars.peek() == Some(&close) {
                    out.push(close);
                    chars.next();
                } else {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            c if c.is_whitespace() => {}
            c => out.push(c),
        }
    }
    out
}

/// The longest run of `c` in `text`.
fn longest_run(text: &str, c: char) -> usize {
    let (mut longest, mut run) = (0, 0);
    for ch in text.chars() {
        run = if ch == c { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    longest
}

/// The description of an observation's page.
pub fn description(view: &ObservationView<'_>) -> String {
    let shown = view.results.iter().filter(|r| r.status.value != "unknown");
    format!(
        "What {} was seen doing against fieldnotes probe: {} results, with the transcript lines that show each.",
        view.title,
        shown.count()
    )
}

#[cfg(test)]
mod tests {
    use super::reindent;

    #[test]
    fn json_is_laid_out_with_its_keys_in_the_order_recorded() {
        let line = r#"{"t":"x","dir":"in","msg":{"a":[1, {}],"b":[ ],"s":"{,:\"}"}}"#;
        let expected = r#"{
  "t": "x",
  "dir": "in",
  "msg": {
    "a": [
      1,
      {}
    ],
    "b": [],
    "s": "{,:\"}"
  }
}"#;
        assert_eq!(reindent(line), expected);
    }
}
