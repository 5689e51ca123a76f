//! SVG status badges for server READMEs: `/badges/<client>/<capability>.svg` shows one
//! support cell's status, `/badges/<client>.svg` a client's tally. Flat, shields-style, text
//! with a `<title>` and an `aria-label`, colour never the only sign.

use super::api::{capability_id, client_id, matrix_capabilities};
use super::escape;
use super::views::{tally, Ctx};
use std::fmt::Write as _;

/// The folder the badges go in.
pub(crate) const FOLDER: &str = "badges";

/// The background of a status's half of a cell badge; white text on each passes WCAG AA.
fn status_colour(status: &str) -> &'static str {
    match status {
        "yes" => "#2f7d32",
        "partial" => "#8a5a00",
        "no" => "#b42318",
        _ => "#5f6873",
    }
}

/// What a cell badge says for a status: the word a reader of a README understands.
fn status_message(status: &str) -> &'static str {
    match status {
        "yes" => "yes",
        "partial" => "partial",
        "no" => "no",
        _ => "not checked",
    }
}

/// Every badge: `(path under the output, SVG)`, the clients' first, in matrix order.
pub(crate) fn badges(ctx: &Ctx<'_>) -> Vec<(String, String)> {
    let matrix = ctx.matrix();
    let capabilities: Vec<usize> = matrix_capabilities(ctx).collect();
    let mut out = Vec::with_capacity(matrix.clients.len() * (capabilities.len() + 1));
    for &client in &matrix.clients {
        let c = ctx.client(client);
        let client_id = client_id(ctx, client);
        let t = tally(matrix.tallies.get(client));
        let checked = t.yes + t.partial + t.no;
        let message = format!(
            "{} yes · {} partial · {} no of {}",
            t.yes,
            t.partial,
            t.no,
            checked + t.unknown
        );
        // The protocol after the client's name (`Helix · LSP`), when the site names one.
        let label = match ctx.config().vocabulary.protocol.as_str() {
            "" => c.display_title().to_string(),
            protocol => format!("{} · {protocol}", c.display_title()),
        };
        out.push((
            format!("{FOLDER}/{client_id}.svg"),
            svg(&label, &message, "#1f5fa8"),
        ));
        for &capability in &capabilities {
            let cap = ctx.capability(capability);
            let status = ctx.status(client, capability);
            let label = format!("{} · {}", c.display_title(), cap.display_title());
            out.push((
                format!(
                    "{FOLDER}/{client_id}/{}.svg",
                    capability_id(ctx, capability)
                ),
                svg(&label, status_message(status), status_colour(status)),
            ));
        }
    }
    out
}

/// Horizontal padding on each side of a half's text, in pixels.
const PAD: f32 = 6.0;

/// The width of `text` in 11 px Verdana, near enough: the SVG stretches the text to it
/// (`textLength`), so a wrong guess changes spacing, never overflows.
fn text_width(text: &str) -> f32 {
    text.chars()
        .map(|c| match c {
            'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '!' | '|' | '\'' => 3.5,
            ' ' | 'f' | 't' | 'r' | 'I' | '(' | ')' | '-' | '/' => 4.6,
            'm' | 'w' | 'M' | 'W' => 10.0,
            'A'..='Z' => 7.5,
            '0'..='9' => 7.0,
            'a'..='z' => 6.5,
            _ => 7.0,
        })
        .sum()
}

/// A two-part flat badge: `label` on grey, `message` on `colour`.
fn svg(label: &str, message: &str, colour: &str) -> String {
    let label_text = text_width(label).ceil();
    // A message as short as `no` still gets a half wide enough to see its colour.
    let message_text = text_width(message).ceil().max(16.0);
    let left = label_text + 2.0 * PAD;
    let right = message_text + 2.0 * PAD;
    let width = left + right;
    let mut title = String::new();
    escape::html(&format!("{label}: {message}"), &mut title);
    let mut label_xml = String::new();
    escape::html(label, &mut label_xml);
    let mut message_xml = String::new();
    escape::html(message, &mut message_xml);
    let mut s = String::with_capacity(1024);
    let _ = write!(
        s,
        concat!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="20" role="img" aria-label="{t}">"##,
            r##"<title>{t}</title>"##,
            r##"<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>"##,
            r##"<clipPath id="r"><rect width="{w}" height="20" rx="3" fill="#fff"/></clipPath>"##,
            r##"<g clip-path="url(#r)"><rect width="{l}" height="20" fill="#555"/><rect x="{l}" width="{r}" height="20" fill="{c}"/><rect width="{w}" height="20" fill="url(#s)"/></g>"##,
            r##"<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">"##,
            r##"<text x="{lx}" y="14" textLength="{lt}" lengthAdjust="spacingAndGlyphs">{label}</text>"##,
            r##"<text x="{mx}" y="14" textLength="{mt}" lengthAdjust="spacingAndGlyphs">{message}</text>"##,
            "</g></svg>\n"
        ),
        w = width,
        t = title,
        l = left,
        r = right,
        c = colour,
        lx = left / 2.0,
        lt = label_text,
        mx = left + right / 2.0,
        mt = message_text,
        label = label_xml,
        message = message_xml,
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_badge_escapes_its_text_and_says_it_in_words() {
        let badge = svg("A <b> & \"c\"", "not checked", status_colour("unknown"));
        assert!(badge.contains("A &lt;b&gt; &amp; &quot;c&quot;"), "{badge}");
        assert!(!badge.contains("<b>"), "{badge}");
        assert!(badge.contains(r#"aria-label="A &lt;b&gt; &amp; &quot;c&quot;: not checked""#));
        assert!(badge.contains("<title>"), "{badge}");
    }

    #[test]
    fn a_longer_text_makes_a_wider_badge() {
        let width = |s: &str| {
            let start = s.find("width=\"").unwrap() + 7;
            let end = s[start..].find('"').unwrap() + start;
            s[start..end].parse::<f32>().unwrap()
        };
        let short = svg("Cline · SSE", "yes", status_colour("yes"));
        let long = svg(
            "Claude Code · Streamable HTTP",
            "partial",
            status_colour("partial"),
        );
        assert!(width(&long) > width(&short) + 50.0);
    }

    #[test]
    fn every_status_has_its_own_colour_and_word() {
        let statuses = crate::model::SUPPORT_STATUSES;
        let colours: std::collections::BTreeSet<_> =
            statuses.iter().map(|s| status_colour(s)).collect();
        assert_eq!(colours.len(), statuses.len());
        assert_eq!(status_message("unknown"), "not checked");
    }
}
