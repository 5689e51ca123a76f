//! Untrusted HTML: script payloads in every front matter value, in bodies, links, images, ids
//! and site settings reach no output file as executable script. Each output is read the way
//! its reader reads it: HTML pages by a small tokenizer (script elements, `on*` attributes,
//! script URLs, `srcdoc`), feeds and sitemaps as XML and again with their escaped text decoded
//! (a feed reader renders it as HTML), JSON by parsing it and reading every `…html` string as
//! HTML; no script or style file may carry content at all. Markdown and text renditions are
//! served as text and never run.
//!
//! The detector is checked too: with `markdown.unsafeHtml: true` the body's raw script must be
//! found, so a pass means the payloads were escaped, not missed.
//!
//! `structure`: the same site read for structure instead of script (Markdown payloads in front
//! matter make no link, heading, list item, comment or raw HTML in any output).

mod structure;

use super::super::support::TestSite;
use std::fs;
use std::path::Path;

/// What every payload runs: found anywhere executable, it is a hole.
const MARK: &str = "xss1337";

/// Payloads, each calling `alert('xss1337')` in a different way.
const PAYLOADS: &[&str] = &[
    "<script>alert('xss1337')</script>",
    "<img src=x onerror=alert('xss1337')>",
    "\"><svg onload=alert('xss1337')>",
    "'><script>alert('xss1337')</script>",
    "</script><script>alert('xss1337')</script>",
    "]]><script>alert('xss1337')</script>",
    "&lt;script&gt;alert('xss1337')&lt;/script&gt;",
    "<iframe srcdoc=\"<script>alert('xss1337')</script>\"></iframe>",
    "{{ 'xss1337' }} {% raw %}<script>alert('xss1337')</script>{% endraw %}",
    "<!--<script>alert('xss1337')</script>-->\u{2028}\u{2029}",
];

/// URLs that run script if a link or image keeps them.
const SCRIPT_URLS: &[&str] = &[
    "javascript:alert('xss1337')",
    "JaVaScRiPt:alert('xss1337')",
    " javascript:alert('xss1337')",
    "java\tscript:alert('xss1337')",
    "jav&#x09;ascript:alert('xss1337')",
    "&#106;avascript:alert('xss1337')",
    "vbscript:msgbox('xss1337')",
    "data:text/html,<script>alert('xss1337')</script>",
];

/// A `javascript:` URL for a URL field, marked with the field's name (so a hole names the
/// field it comes from), YAML-quoted.
fn js(field: &str) -> String {
    format!("\"javascript:alert('xss1337-{field}')\"")
}

/// All payloads, the script ones and [`structure::MD_PAYLOADS`] (which hold line breaks and
/// control characters), as one YAML double-quoted string.
fn yaml_payloads() -> String {
    let joined = [PAYLOADS, structure::MD_PAYLOADS].concat().join(" ");
    // A JSON string is a YAML double-quoted one; YAML 1.1 readers take U+2028 and U+2029 for
    // line breaks, so those are escaped too.
    serde_json::to_string(&joined)
        .expect("a string serializes")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// A body with every payload as raw HTML, in text, headings, code, link texts, titles and
/// destinations, image alt texts and sources, footnotes and autolinks.
fn body() -> String {
    let mut body = String::from("# Heading <script>alert('xss1337')</script>\n\n");
    for payload in PAYLOADS {
        body.push_str(&format!("{payload}\n\nText {payload} inline.\n\n"));
        body.push_str(&format!("## {payload}\n\n`{payload}`\n\n"));
        body.push_str(&format!("```{payload}\n{payload}\n```\n\n"));
        body.push_str(&format!(
            "[{payload}](https://example.org/a \"{payload}\")\n\n"
        ));
        body.push_str(&format!("![{payload}](https://example.org/i.png)\n\n"));
        body.push_str(&format!("| a |\n|---|\n| {payload} |\n\n"));
    }
    for url in SCRIPT_URLS {
        body.push_str(&format!("[link](<{url}>) ![image](<{url}>) <{url}>\n\n"));
    }
    body.push_str("[a](https://example.org/\"onmouseover=\"alert('xss1337'))\n\n");
    body.push_str("[b](/research/a-note.md#\"><script>alert('xss1337')</script>)\n\n");
    body.push_str("Footnote[^x].\n\n[^x]: <script>alert('xss1337')</script>\n");
    body
}

/// The base site with payloads in every field a contributor writes, and every lint rule turned
/// off, so that render meets them all.
fn xss_site(unsafe_html: bool) -> TestSite {
    let site = TestSite::fixture("bad/_base");
    let p = yaml_payloads();
    let config = fs::read_to_string(site.root().join("site.yaml")).expect("config");
    let mut config = config
        .replace(
            "title: Bad input",
            &format!("title: {p}\nrepository: {}", js("site-repository")),
        )
        .replace(
            "  - id: 2025-03-26\n",
            &format!(
                "  - id: 2025-03-26\n    title: {p}\n    url: {}\n",
                js("spec-url")
            ),
        )
        .replace(
            "    title: Transports\n",
            &format!("    title: {p}\n    description: {p}\n"),
        )
        .replace(
            "  - id: idiosyncrasy\n",
            &format!("  - id: idiosyncrasy\n    title: {p}\n    description: {p}\n"),
        )
        .replace(
            "description: A clean site that each bad-input case is copied over.",
            &format!("description: {p}"),
        );
    // Every rule off: render must be safe whatever lint would have stopped.
    config.push_str("lint:\n  rules:\n");
    for rule in fieldnotes::lint::rules::ALL {
        config.push_str(&format!("    {}: off\n", rule.meta.code));
    }
    if unsafe_html {
        config.push_str("markdown:\n  unsafeHtml: true\n");
    }
    site.write("site.yaml", &config);
    let note = format!(
        "---\nid: a-note\ntitle: {p}\nkind: idiosyncrasy\nsummary: {p}\ncapabilities:\n  - transports.sse\n\
clients:\n  - client-a\nspecVersions:\n  - 2025-03-26\nsources:\n  - url: https://github.com/example/client-a\n\
\x20   title: {p}\n    commit: 0123abc\n    path: main.py:1-2\n    date: 2026-11-01\n\
\x20 - url: \"https://example.org/\\\"><script>alert('xss1337')</script>\"\n    title: {p}\n\
\x20 - url: {}\n    title: {p}\n    commit: 0123abc\n    path: main.py:1\n\
status: current\nlastVerified: 2026-11-02\nrelated:\n  - \"x\\\"><svg onload=alert('xss1337')>\"\n\
last-updated: 2026-11-02\n---\n\n{}",
        js("source-url"),
        body()
    );
    site.write("content/research/a-note.md", &note);
    let odd_id = "x\"><svg onload=alert('xss1337')>";
    let odd_note = note.replacen(
        "id: a-note",
        &format!("id: '{}'", odd_id.replace('\'', "''")),
        1,
    );
    let status = "\"<img src=x onerror=alert('xss1337-status')>\"";
    let odd_note = odd_note.replacen("status: current", &format!("status: {status}"), 1);
    site.write(&format!("content/research/{odd_id}.md"), &odd_note);
    site.write(
        "content/clients/client-a.md",
        &format!(
            "---\nid: client-a\ntitle: {p}\nvendor: {p}\nhomepage: {}\nrepository: {}\n\
clientInfoNames:\n  - {p}\nplatforms:\n  - {p}\n\
support:\n  transports.sse:\n    status: yes\n    notes: {p}\n    research:\n      - a-note\n\
\x20   version: {p}\n    lastVerified: 2026-11-02\n---\n\n{}",
            js("homepage"),
            js("client-repository"),
            body()
        ),
    );
    site.write(
        "content/capabilities/transports.sse.md",
        &format!(
            "---\nid: transports.sse\ntitle: {p}\ngroup: transports\nspecUrl: {}\n\
introduced: 2025-03-26\naliases:\n  - {p}\n---\n\n{}",
            js("spec-url"),
            body()
        ),
    );
    site.write(
        "content/guides/a-guide.md",
        &format!(
            "---\ntitle: {p}\nsummary: {p}\nlast-updated: 2026-11-02\n---\n\n{}",
            body()
        ),
    );
    site
}

/// Builds the XSS site and returns every executable payload found, as `file: what`.
fn holes(unsafe_html: bool) -> Vec<String> {
    let site = xss_site(unsafe_html);
    let report = site.build();
    assert!(report.written, "{:#?}", report.diagnostics);
    let note = site.output("research/a-note.html");
    assert!(
        note.contains(MARK),
        "the payloads never reached the note page"
    );
    let mut found = Vec::new();
    for entry in walkdir::WalkDir::new(site.out()).sort_by_file_name() {
        let entry = entry.expect("walk");
        if entry.file_type().is_file() {
            let name = entry
                .path()
                .strip_prefix(site.out())
                .expect("under out")
                .display()
                .to_string();
            for hole in scan_file(entry.path()) {
                found.push(format!("{name}: {hole}"));
            }
        }
    }
    found
}

#[test]
fn no_payload_runs_in_any_output() {
    let holes = holes(false);
    assert!(
        holes.is_empty(),
        "executable payloads:\n{}",
        holes.join("\n")
    );
}

#[test]
fn the_detector_finds_raw_html_when_the_site_allows_it() {
    let holes = holes(true);
    assert!(
        holes.iter().any(|h| h.contains("research/a-note.html")),
        "unsafeHtml passes the body's script through, and the scan must see it: {holes:?}"
    );
}

/// The executable payloads in one output file, read as its reader reads it.
fn scan_file(path: &Path) -> Vec<String> {
    let bytes = fs::read(path).expect("read output");
    let text = String::from_utf8_lossy(&bytes);
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    match extension {
        "html" | "htm" | "svg" => scan_html(&text),
        "xml" | "atom" | "rss" => {
            let mut holes = scan_html(&text);
            for html in feed_html(&text) {
                holes.extend(scan_html(&html));
            }
            holes
        }
        "json" => scan_json(&text),
        "js" | "mjs" | "css" if text.contains(MARK) => {
            vec!["content reached a script or style file".to_string()]
        }
        _ => Vec::new(),
    }
}

/// The HTML a feed reader renders: the text of Atom elements with `type="html"` and of RSS
/// `description` and `content:encoded`, entity-decoded (or CDATA taken as it is). Other
/// elements are text, shown as such.
fn feed_html(xml: &str) -> Vec<String> {
    let mut out = Vec::new();
    for tag in tags(xml) {
        let html_type = tag
            .attributes
            .iter()
            .any(|(k, v)| k == "type" && v.eq_ignore_ascii_case("html"));
        if !(html_type || tag.name == "description" || tag.name == "content:encoded") {
            continue;
        }
        let rest = &xml[tag.end..];
        let text = &rest[..rest.find(&format!("</{}", tag.name)).unwrap_or(rest.len())];
        out.push(match text.trim().strip_prefix("<![CDATA[") {
            Some(cdata) => cdata.trim_end().trim_end_matches("]]>").to_string(),
            None => decode_entities(text),
        });
    }
    out
}

fn scan_json(text: &str) -> Vec<String> {
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => return vec![format!("not valid JSON: {e}")],
    };
    let mut holes = Vec::new();
    let mut stack = vec![(String::new(), &value)];
    while let Some((key, value)) = stack.pop() {
        match value {
            serde_json::Value::String(s) if key.to_ascii_lowercase().ends_with("html") => {
                holes.extend(scan_html(s));
            }
            serde_json::Value::Array(items) => {
                stack.extend(items.iter().map(|v| (key.clone(), v)));
            }
            serde_json::Value::Object(map) => {
                stack.extend(map.iter().map(|(k, v)| (k.clone(), v)));
            }
            _ => {}
        }
    }
    holes
}

/// Attributes whose value is a URL a browser may navigate to or load.
const URL_ATTRIBUTES: &[&str] = &[
    "href",
    "src",
    "action",
    "formaction",
    "xlink:href",
    "data",
    "poster",
    "background",
    "cite",
];

/// Executable payloads in HTML: a script element carrying the mark, an event handler
/// carrying it, a script URL, a `srcdoc`, a refresh to a script URL.
fn scan_html(html: &str) -> Vec<String> {
    let mut holes = Vec::new();
    for tag in tags(html) {
        let lowered: Vec<(String, String)> = tag
            .attributes
            .iter()
            .map(|(k, v)| (k.to_ascii_lowercase(), decode_entities(v)))
            .collect();
        for (name, value) in &lowered {
            let runs = (name.starts_with("on") && value.contains(MARK))
                || (name == "srcdoc" && value.contains(MARK))
                || (URL_ATTRIBUTES.contains(&name.as_str()) && is_script_url(value))
                || (name == "style" && value.to_ascii_lowercase().contains("javascript:"))
                || (name == "content"
                    && tag.name == "meta"
                    && value.to_ascii_lowercase().contains("javascript:"));
            if runs {
                holes.push(format!("<{} {name}=\"{value}\">", tag.name));
            }
        }
        if tag.name == "script" && tag.raw_text.contains(MARK) {
            let data = lowered.iter().any(|(k, v)| {
                k == "type" && (v.contains("json") || v == "text/plain" || v == "text/template")
            });
            let breaks_out = tag.raw_text.to_ascii_lowercase().contains("<!--");
            if !data || breaks_out {
                holes.push(format!("<script> with {}", tag.raw_text.trim()));
            }
        }
    }
    holes
}

/// Whether a URL (entity-decoded) runs script: browsers drop ASCII whitespace and control
/// characters and ignore case in the scheme.
fn is_script_url(value: &str) -> bool {
    let cleaned: String = value
        .chars()
        .filter(|c| !c.is_ascii_whitespace() && !c.is_ascii_control())
        .collect::<String>()
        .to_ascii_lowercase();
    ["javascript:", "vbscript:", "data:text/html"]
        .iter()
        .any(|scheme| cleaned.starts_with(scheme))
}

/// One start tag: its name, attributes, and for `script` and `style` the text up to the end
/// tag.
struct Tag {
    name: String,
    attributes: Vec<(String, String)>,
    raw_text: String,
    /// Where the start tag ends (after its `>`).
    end: usize,
}

/// The start tags of an HTML document, read as a browser would: comments skipped, quoted
/// attribute values kept whole, `script`/`style` content read as raw text.
fn tags(html: &str) -> Vec<Tag> {
    let bytes = html.as_bytes();
    let mut tags = Vec::new();
    let mut i = 0;
    while let Some(offset) = html[i..].find('<') {
        i += offset + 1;
        if html[i..].starts_with("!--") {
            i = html[i..].find("-->").map_or(html.len(), |e| i + e + 3);
            continue;
        }
        if !bytes.get(i).is_some_and(u8::is_ascii_alphabetic) {
            continue;
        }
        let name_end = html[i..]
            .find(|c: char| c.is_ascii_whitespace() || c == '>' || c == '/')
            .map_or(html.len(), |e| i + e);
        let name = html[i..name_end].to_ascii_lowercase();
        let (attributes, end) = attributes(html, name_end);
        i = end;
        let tag_end = end;
        let mut raw_text = String::new();
        if name == "script" || name == "style" {
            let close = format!("</{name}");
            let stop = html[i..]
                .to_ascii_lowercase()
                .find(&close)
                .map_or(html.len(), |e| i + e);
            raw_text = html[i..stop].to_string();
            i = stop;
        }
        tags.push(Tag {
            name,
            attributes,
            raw_text,
            end: tag_end,
        });
    }
    tags
}

/// The attributes of a tag from `start` (after its name) to its `>`, and where it ends.
fn attributes(html: &str, start: usize) -> (Vec<(String, String)>, usize) {
    let bytes = html.as_bytes();
    let mut i = start;
    let mut out = Vec::new();
    loop {
        while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] == b'/') {
            i += 1;
        }
        if i >= bytes.len() || bytes[i] == b'>' {
            return (out, (i + 1).min(html.len()));
        }
        let name_end = html[i..]
            .find(|c: char| c.is_ascii_whitespace() || matches!(c, '=' | '>' | '/'))
            .map_or(html.len(), |e| i + e);
        let name = html[i..name_end].to_string();
        i = name_end;
        let mut value = String::new();
        if bytes.get(i) == Some(&b'=') {
            i += 1;
            match bytes.get(i) {
                Some(&q @ (b'"' | b'\'')) => {
                    let end = html[i + 1..]
                        .find(q as char)
                        .map_or(html.len(), |e| i + 1 + e);
                    value = html[i + 1..end].to_string();
                    i = (end + 1).min(html.len());
                }
                _ => {
                    let end = html[i..]
                        .find(|c: char| c.is_ascii_whitespace() || c == '>')
                        .map_or(html.len(), |e| i + e);
                    value = html[i..end].to_string();
                    i = end;
                }
            }
        }
        if name.is_empty() {
            i += 1;
        } else {
            out.push((name, value));
        }
    }
}

/// Decodes the character references a browser decodes in attribute values and text.
fn decode_entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let end = rest[1..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '#'))
            .map_or(rest.len(), |e| e + 1);
        let entity = &rest[1..end];
        let decoded = match entity {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            "Tab" => Some('\t'),
            "NewLine" => Some('\n'),
            "colon" => Some(':'),
            _ => entity.strip_prefix('#').and_then(|n| {
                let code = match n.strip_prefix(['x', 'X']) {
                    Some(hex) => u32::from_str_radix(hex, 16).ok(),
                    None => n.parse().ok(),
                };
                code.and_then(char::from_u32)
            }),
        };
        match decoded {
            Some(c) => {
                out.push(c);
                let skip = if rest[end..].starts_with(';') { 1 } else { 0 };
                rest = &rest[end + skip..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn the_detector_reads_html_as_a_browser_does() {
    let runs = [
        "<img src=x onerror=alert('xss1337')>",
        "<a href=\"jav&#x09;ascript:alert('xss1337')\">x</a>",
        "<a href=' JAVASCRIPT:alert(1)'>x</a>",
        "<script>alert('xss1337')</script>",
        "<iframe srcdoc=\"&lt;script&gt;alert('xss1337')&lt;/script&gt;\"></iframe>",
        "<script type=\"application/json\">{\"a\": \"<!--<script>xss1337\"}</script>",
    ];
    for html in runs {
        assert!(!scan_html(html).is_empty(), "missed {html}");
    }
    let inert = [
        "<p>&lt;script&gt;alert('xss1337')&lt;/script&gt;</p>",
        "<a href=\"https://example.org/xss1337\" title=\"&quot; onerror=alert('xss1337')\">x</a>",
        "<!-- <script>alert('xss1337')</script> -->",
        "<meta name=\"description\" content=\"&lt;img onerror=alert('xss1337')&gt;\">",
        "<script type=\"application/json\">{\"a\": \"\\u003cscript\\u003exss1337\"}</script>",
    ];
    for html in inert {
        assert!(scan_html(html).is_empty(), "false alarm on {html}");
    }
}
