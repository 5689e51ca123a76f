//! `/api/matrix.csv`: one row per capability × client cell (client, capability, status,
//! evidence, lastVerified, version, url), RFC 4180 quoting, for spreadsheets and scripts.

use super::api::{capability_id, client_id, matrix_capabilities};
use super::views::Ctx;
use crate::index::routes::Page;
use crate::model::text;

/// Where the table goes.
pub(super) const PATH: &str = "api/matrix.csv";

/// The header row, in column order.
const HEADER: [&str; 7] = [
    "client",
    "capability",
    "status",
    "evidence",
    "lastVerified",
    "version",
    "url",
];

/// The whole table, header first, clients in matrix order and each one's capabilities in
/// matrix order, lines ended by CRLF as RFC 4180 says.
pub(super) fn matrix_csv(ctx: &Ctx<'_>) -> String {
    let matrix = ctx.matrix();
    let capabilities: Vec<usize> = matrix_capabilities(ctx).collect();
    let mut out = String::new();
    row(&mut out, HEADER);
    for &client in &matrix.clients {
        let client_id = client_id(ctx, client);
        let page = ctx.canonical_url(Page::Client(client));
        for &capability in &capabilities {
            let capability_id = capability_id(ctx, capability);
            let evidence = ctx.evidence(client, capability);
            let last_verified = ctx
                .cell(client, capability)
                .map_or("", |cell| text(&cell.last_verified));
            let url = format!("{page}#{}", super::support::row_anchor(capability_id));
            row(
                &mut out,
                [
                    client_id,
                    capability_id,
                    ctx.status(client, capability),
                    evidence.method.as_str(),
                    last_verified,
                    evidence.version.as_deref().unwrap_or(""),
                    &url,
                ],
            );
        }
    }
    out
}

/// Appends one row.
fn row<const N: usize>(out: &mut String, fields: [&str; N]) {
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        field_into(out, field);
    }
    out.push_str("\r\n");
}

/// Appends `field`, quoted when it holds a comma, a quote or a line break, each control
/// character (a NUL, a line break) as U+FFFD. A field a
/// spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab or carriage return first: a
/// version or a date is contributors' text) gets a leading `'`, as OWASP advises.
fn field_into(out: &mut String, field: &str) {
    let formula = field.starts_with(['=', '+', '-', '@', '\t', '\r']);
    let quote = formula || field.contains([',', '"', '\n', '\r']);
    if quote {
        out.push('"');
    }
    if formula {
        out.push('\'');
    }
    // Outside text (a client's version) is made inert first, as in every format.
    for c in super::escape::visible_controls(field).chars() {
        match c {
            '"' => out.push_str("\"\""),
            // No NUL or control character reaches a spreadsheet: the fields are one line.
            c if c.is_control() => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    if quote {
        out.push('"');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(field: &str) -> String {
        let mut out = String::new();
        field_into(&mut out, field);
        out
    }

    #[test]
    fn fields_are_quoted_only_when_they_must_be() {
        assert_eq!(one("yes"), "yes");
        assert_eq!(one("a,b"), "\"a,b\"");
        assert_eq!(one("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(one("two\nlines\0"), "\"two\u{fffd}lines\u{fffd}\"");
    }

    #[test]
    fn a_formula_is_defused() {
        assert_eq!(one("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(one("@cmd"), "\"'@cmd\"");
        assert_eq!(one("-1"), "\"'-1\"");
    }

    #[test]
    fn outside_text_is_made_inert() {
        assert_eq!(one("1.0\u{202e}\u{200b}"), "1.0<U+202E><U+200B>");
        assert_eq!(one("1.0\u{2028}x"), "1.0<U+2028>x");
    }

    #[test]
    fn a_row_ends_with_crlf() {
        let mut out = String::new();
        row(&mut out, ["a", "b,c"]);
        assert_eq!(out, "a,\"b,c\"\r\n");
    }
}
