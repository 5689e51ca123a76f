//! Observations (`content/observations/<id>.md`): what a shipped client was seen doing against
//! `fieldnotes probe`, and the `.jsonl` transcript beside each.

use super::{text, Document, Spanned};
use crate::text_file::Span;
use std::path::PathBuf;

/// One client session recorded by `fieldnotes probe` (front matter as in
/// OBSERVATION_FORMAT.md).
#[derive(Debug, Clone)]
pub struct Observation {
    pub doc: Document,
    pub id: Option<Spanned<String>>,
    /// The site's client id whose `clientInfoNames` holds `clientInfo.name`.
    pub client: Option<Spanned<String>>,
    pub client_info: Option<ClientInfo>,
    /// The day of the session (UTC).
    pub observed: Option<Spanned<String>>,
    /// `stdio`, `streamableHttp` or `sse`.
    pub transport: Option<Spanned<String>>,
    pub protocol_version: Option<Spanned<String>>,
    pub probe: Option<Box<ProbeInfo>>,
    /// The package that ran, when the observation names it.
    pub package: Option<Box<PackageInfo>>,
    /// `session`, or `no-session` (the client was refused and began none); absent: a session.
    pub outcome: Option<Spanned<String>>,
    /// How the client was driven.
    pub command: Option<Spanned<String>>,
    /// The transcript's file name, beside the observation.
    pub transcript: Option<Spanned<String>>,
    pub results: Vec<ObservedResult>,
}

/// The proxy a forwarded `clientInfo.name` names: `host (via mcp-remote 0.15.1)` →
/// `mcp-remote` (a proxy forwards its host's clientInfo with its own name and version added).
pub fn proxy_name(name: &str) -> Option<&str> {
    let via = name.strip_suffix(')')?.rsplit_once(" (via ")?.1;
    Some(via.rsplit_once(' ').map_or(via, |(proxy, _)| proxy))
}

/// `clientInfo` as the client sent it.
#[derive(Debug, Clone)]
pub struct ClientInfo {
    pub span: Span,
    pub name: Option<Spanned<String>>,
    pub version: Option<Spanned<String>>,
    /// Every field, in order, its value as text (a nested value as compact JSON).
    pub fields: Vec<(Spanned<String>, String)>,
}

/// `probe`: what recorded the session.
#[derive(Debug, Clone)]
pub struct ProbeInfo {
    pub span: Span,
    pub version: Option<Spanned<String>>,
    pub mode: Option<Spanned<String>>,
    /// `current` or `2026-07-28`: whether the probe answered `server/discover`.
    pub protocol: Option<Spanned<String>>,
    /// How long the probe waited after the handshake or a `tools/list` answer (ms).
    pub settle_ms: Option<Spanned<String>>,
    /// How long a silent client was kept (ms).
    pub idle_ms: Option<Spanned<String>>,
}

/// `package`: the package installed and run (`npm`, `@continuedev/cli`, `1.5.47`).
#[derive(Debug, Clone)]
pub struct PackageInfo {
    pub span: Span,
    pub ecosystem: Option<Spanned<String>>,
    pub name: Option<Spanned<String>>,
    pub version: Option<Spanned<String>>,
}

/// One entry of `results`: what the session showed of one capability.
#[derive(Debug, Clone)]
pub struct ObservedResult {
    /// The capability id as written (an alias is resolved by the index).
    pub capability: Spanned<String>,
    pub span: Span,
    pub status: Option<Spanned<String>>,
    /// What the status rests on: `declared`, `did`, `refused` or `absent`.
    pub basis: Option<Spanned<String>>,
    pub why: Option<Spanned<String>>,
    /// 1-based line numbers in the transcript.
    pub messages: Vec<Spanned<usize>>,
}

impl Observation {
    /// `clientInfo.version` as the client sent it, if written.
    pub fn client_info_version(&self) -> Option<&str> {
        self.client_info.as_ref().map(|i| text(&i.version))
    }

    /// The version that ran: `package.version` when the observation names its package, else
    /// `clientInfo.version` (which some clients hard-code).
    pub fn client_version(&self) -> Option<&str> {
        self.package_version()
            .or_else(|| self.client_info_version())
    }

    /// `package.version`, if written and not empty.
    pub fn package_version(&self) -> Option<&str> {
        let version = self.package.as_ref().map(|p| text(&p.version))?;
        (!version.is_empty()).then_some(version)
    }

    /// `clientInfo.version` when it differs from the package version that ran.
    pub fn differing_client_info_version(&self) -> Option<&str> {
        let sent = self.client_info_version().filter(|v| !v.is_empty())?;
        (self.package_version().is_some_and(|p| p != sent)).then_some(sent)
    }

    /// Whether the client was refused and began no session.
    pub fn is_no_session(&self) -> bool {
        text(&self.outcome) == "no-session"
    }

    /// The result for capability `id` as written, if any.
    pub fn result(&self, id: &str) -> Option<&ObservedResult> {
        self.results.iter().find(|r| r.capability.value == id)
    }
}

/// A `.jsonl` transcript in `content/observations/`, read within `limits.maxFileBytes`.
#[derive(Debug, Clone)]
pub struct Transcript {
    /// Relative to the site root, `/`-separated.
    pub path: PathBuf,
    /// The file name (what an observation's `transcript` names).
    pub name: String,
    /// The text (empty when it could not be read).
    pub text: String,
    /// Byte offset where each line starts (a final newline starts no line).
    line_starts: Vec<usize>,
    /// Why it could not be read, if it could not.
    pub problem: Option<String>,
}

impl Transcript {
    /// A transcript with its text (`problem`: why it could not be read, then `text` is empty).
    pub fn new(path: PathBuf, text: String, problem: Option<String>) -> Transcript {
        let name = path
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        let mut line_starts = Vec::new();
        if !text.is_empty() {
            line_starts.push(0);
            line_starts.extend(
                text.match_indices('\n')
                    .map(|(i, _)| i + 1)
                    .filter(|&i| i < text.len()),
            );
        }
        Transcript {
            path,
            name,
            text,
            line_starts,
            problem,
        }
    }

    /// How many lines it has.
    pub fn lines(&self) -> usize {
        self.line_starts.len()
    }

    /// Line `n` (1-based), without its line ending.
    pub fn line(&self, n: usize) -> Option<&str> {
        let start = *self.line_starts.get(n.checked_sub(1)?)?;
        let end = self.line_starts.get(n).map_or(self.text.len(), |&e| e);
        Some(self.text[start..end].trim_end_matches(['\n', '\r']))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_counted_from_one_without_a_final_empty_line() {
        let t = Transcript::new("a.jsonl".into(), "{\"a\":1}\r\n{}\n".into(), None);
        assert_eq!((t.lines(), t.name.as_str()), (2, "a.jsonl"));
        assert_eq!(
            (t.line(1), t.line(2), t.line(3)),
            (Some("{\"a\":1}"), Some("{}"), None)
        );
        assert_eq!(t.line(0), None);
        let unterminated = Transcript::new("b.jsonl".into(), "x\ny".into(), None);
        assert_eq!((unterminated.lines(), unterminated.line(2)), (2, Some("y")));
        assert_eq!(Transcript::new("c".into(), String::new(), None).lines(), 0);
    }
}
