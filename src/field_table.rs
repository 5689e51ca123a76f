//! The fields each kind of front matter object takes: one table that the parser's type checks,
//! the linter's unknown/missing field rules and `fieldnotes schema` all read.

use crate::model::ObjectKind;

/// The YAML shape a field takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType {
    /// Any scalar, read as a string (YAML 1.2: `yes` and `2025-03-26` are strings).
    Text,
    /// A `YYYY-MM-DD` date, written as a plain scalar.
    Date,
    /// A URL.
    Url,
    /// A list of strings.
    TextList,
    /// A list of source objects.
    Sources,
    /// A map from capability id to support cell.
    SupportMap,
    /// A nested object of the given kind (an observation's `clientInfo`, `probe`).
    Object(ObjectKind),
    /// A map from capability id to an observation's result.
    ResultMap,
    /// A list of 1-based line numbers (of an observation's transcript).
    LineList,
}

/// One field of one object kind.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    pub name: &'static str,
    pub required: bool,
    pub ty: FieldType,
    pub doc: &'static str,
}

const fn field(name: &'static str, required: bool, ty: FieldType, doc: &'static str) -> Field {
    Field {
        name,
        required,
        ty,
        doc,
    }
}

use FieldType::*;

const NOTE: &[Field] = &[
    field("id", true, Text, "kebab-case id, equal to the file name"),
    field("title", true, Text, "the claim, as a sentence"),
    field("kind", true, Text, "one of site.yaml's kinds"),
    field(
        "summary",
        true,
        Text,
        "the finding in at most 300 characters",
    ),
    field(
        "capabilities",
        true,
        TextList,
        "capability ids the note is about",
    ),
    field("clients", true, TextList, "client ids the note is about"),
    field(
        "specVersions",
        true,
        TextList,
        "spec revisions the note applies to",
    ),
    field("sources", true, Sources, "pinned sources"),
    field(
        "status",
        true,
        Text,
        "current, superseded, retracted or draft",
    ),
    field(
        "supersededBy",
        false,
        Text,
        "the note that replaces this one",
    ),
    field(
        "lastVerified",
        true,
        Date,
        "when the sources were last read",
    ),
    field("related", false, TextList, "ids of related notes"),
    field(
        "canonical",
        false,
        Url,
        "the note's URL; must equal the computed one",
    ),
    field("last-updated", false, Date, "when the note was last edited"),
];

const SOURCE: &[Field] = &[
    field("url", true, Url, "the repository or page"),
    field("title", false, Text, "what the source shows"),
    field(
        "commit",
        false,
        Text,
        "7 to 40 hex digits pinning the repository",
    ),
    field(
        "path",
        false,
        Text,
        "file, file:L, file:L-L or file:L-L,L-L",
    ),
    field("date", false, Date, "the date of the commit or page"),
    field(
        "quote",
        false,
        Text,
        "a page without a commit: the sentence relied on, verbatim",
    ),
    field(
        "retrieved",
        false,
        Date,
        "a page without a commit: the day it was read",
    ),
    field(
        "pin",
        false,
        Text,
        "fixed: the commit is the point (sources bump leaves it; drift does not queue it)",
    ),
];

const CLIENT: &[Field] = &[
    field("id", true, Text, "kebab-case id, equal to the file name"),
    field("title", true, Text, "the client's name"),
    field("vendor", false, Text, "who makes it"),
    field("homepage", false, Url, "its home page"),
    field("repository", false, Url, "its source repository"),
    field(
        "clientInfoNames",
        false,
        TextList,
        "clientInfo.name values it announces",
    ),
    field("platforms", false, TextList, "where it runs"),
    field(
        "releaseTags",
        false,
        Text,
        "its repository's release tags, `*` for the version (v*)",
    ),
    field(
        "support",
        false,
        SupportMap,
        "capability id to support cell",
    ),
    field(
        "unknownReason",
        false,
        Text,
        "why its unknown cells are unknown, unless a cell says (site.yaml's unknownReasons)",
    ),
];

const SUPPORT_CELL: &[Field] = &[
    field("status", true, Text, "yes, partial, no or unknown"),
    field("notes", false, Text, "how, in a sentence"),
    field(
        "research",
        false,
        TextList,
        "ids of notes that give the evidence",
    ),
    field("sources", false, Sources, "sources that give the evidence"),
    field(
        "lastVerified",
        false,
        Date,
        "when the evidence was last read",
    ),
    field(
        "version",
        false,
        Text,
        "the client release its evidence shows (the release a pinned commit is first in)",
    ),
    field(
        "observations",
        false,
        TextList,
        "ids of observations that show it",
    ),
    field(
        "reason",
        false,
        Text,
        "an unknown cell: why (one of site.yaml's unknownReasons)",
    ),
];

const CAPABILITY: &[Field] = &[
    field(
        "id",
        true,
        Text,
        "dotted id group.name, equal to the file name",
    ),
    field("title", true, Text, "the capability's name"),
    field("group", true, Text, "one of site.yaml's capabilityGroups"),
    field("specUrl", false, Url, "where the specification defines it"),
    field(
        "extension",
        false,
        Text,
        "the official extension's identifier, when it is one",
    ),
    field(
        "introduced",
        false,
        Text,
        "the spec revision that introduced it",
    ),
    field(
        "deprecated",
        false,
        Text,
        "the spec revision that deprecated it",
    ),
    field("removed", false, Text, "the spec revision that removed it"),
    field(
        "aliases",
        false,
        TextList,
        "other spellings seen in the wild",
    ),
];

const GUIDE: &[Field] = &[
    field("title", true, Text, "the guide's title"),
    field("summary", false, Text, "one sentence"),
    field(
        "last-updated",
        false,
        Date,
        "when the guide was last edited",
    ),
];

const OBSERVATION: &[Field] = &[
    field("id", true, Text, "kebab-case id, equal to the file name"),
    field(
        "client",
        true,
        Text,
        "the client id whose clientInfoNames holds clientInfo.name",
    ),
    field(
        "clientInfo",
        false,
        Object(ObjectKind::ClientInfo),
        "clientInfo as the client sent it (left out when it sent none: no MCP request)",
    ),
    field("observed", true, Date, "the day of the session (UTC)"),
    field("transport", true, Text, "stdio, streamableHttp or sse"),
    field(
        "protocolVersion",
        false,
        Text,
        "the revision the client offered",
    ),
    field(
        "probe",
        true,
        Object(ObjectKind::Probe),
        "the fieldnotes version and mode that recorded it",
    ),
    field(
        "package",
        false,
        Object(ObjectKind::Package),
        "the package that ran: ecosystem, name, version",
    ),
    field(
        "outcome",
        false,
        Text,
        "session, or no-session (requests were refused and no session began)",
    ),
    field("command", true, Text, "how the client was driven"),
    field(
        "transcript",
        true,
        Text,
        "the .jsonl transcript's file name, beside this file",
    ),
    field(
        "results",
        false,
        ResultMap,
        "capability id to what the session showed",
    ),
];

const CLIENT_INFO: &[Field] = &[
    field("name", true, Text, "the name the client announced"),
    field("version", true, Text, "the version it announced"),
];

const PROBE: &[Field] = &[
    field("version", true, Text, "the fieldnotes version"),
    field(
        "mode",
        true,
        Text,
        "stdio, streamable, sse, legacy-only-404, legacy-only-405 or expire-session",
    ),
    field(
        "protocol",
        false,
        Text,
        "current (server/discover refused) or 2026-07-28",
    ),
    field(
        "settleMs",
        false,
        Text,
        "how long after the handshake, or a tools/list answer, the probe waited",
    ),
    field(
        "idleMs",
        false,
        Text,
        "how long a silent client was kept before the session ended",
    ),
    field(
        "auth",
        false,
        Text,
        "what `--auth oauth` offered: registration, discovery, token lifetime",
    ),
];

const PACKAGE: &[Field] = &[
    field("ecosystem", true, Text, "npm or pypi"),
    field("name", true, Text, "the package's name in its registry"),
    field("version", true, Text, "the version installed and run"),
];

const OBSERVED_RESULT: &[Field] = &[
    field("status", true, Text, "yes, partial, no or unknown"),
    field(
        "basis",
        false,
        Text,
        "declared, did, refused or absent: what the status rests on",
    ),
    field("why", false, Text, "one line: what showed it"),
    field(
        "messages",
        false,
        LineList,
        "1-based line numbers in the transcript",
    ),
];

/// Transports an observation may name.
pub const TRANSPORTS: [&str; 3] = ["stdio", "streamableHttp", "sse"];

/// What an observed result rests on.
pub const BASES: [&str; 4] = ["declared", "did", "refused", "absent"];

/// How a probe session ended up.
pub const OUTCOMES: [&str; 2] = ["session", "no-session"];

/// The protocol modes the probe runs in.
pub const PROBE_PROTOCOLS: [&str; 2] = ["current", "2026-07-28"];

/// Package ecosystems an observation may name.
pub const ECOSYSTEMS: [&str; 2] = ["npm", "pypi"];

/// Modes the probe runs in.
pub const PROBE_MODES: [&str; 6] = [
    "stdio",
    "streamable",
    "sse",
    "legacy-only-404",
    "legacy-only-405",
    "expire-session",
];

/// Whether an object kind takes fields beyond its table (`clientInfo` keeps whatever the
/// client sent).
pub fn is_open(kind: ObjectKind) -> bool {
    kind == ObjectKind::ClientInfo
}

/// The fields an object kind takes, in the order authors write them.
pub fn fields(kind: ObjectKind) -> &'static [Field] {
    match kind {
        ObjectKind::Note => NOTE,
        ObjectKind::Source => SOURCE,
        ObjectKind::Client => CLIENT,
        ObjectKind::SupportCell => SUPPORT_CELL,
        ObjectKind::Capability => CAPABILITY,
        ObjectKind::Guide => GUIDE,
        ObjectKind::Observation => OBSERVATION,
        ObjectKind::ClientInfo => CLIENT_INFO,
        ObjectKind::Probe => PROBE,
        ObjectKind::Package => PACKAGE,
        ObjectKind::ObservedResult => OBSERVED_RESULT,
    }
}

/// The field of `kind` called `name`, if there is one.
pub fn find(kind: ObjectKind, name: &str) -> Option<&'static Field> {
    fields(kind).iter().find(|f| f.name == name)
}

/// What an object kind is called in messages.
pub fn object_name(kind: ObjectKind) -> &'static str {
    match kind {
        ObjectKind::Note => "research note",
        ObjectKind::Source => "source",
        ObjectKind::Client => "client",
        ObjectKind::SupportCell => "support cell",
        ObjectKind::Capability => "capability",
        ObjectKind::Guide => "guide",
        ObjectKind::Observation => "observation",
        ObjectKind::ClientInfo => "clientInfo",
        ObjectKind::Probe => "probe",
        ObjectKind::Package => "package",
        ObjectKind::ObservedResult => "observation result",
    }
}
