//! JSON Schema (draft-07) for front matter, built from [`crate::field_table`]'s field tables
//! with the site's vocabularies (kinds, statuses, client and capability ids, spec revisions,
//! groups) as enums, so that editors can complete and check notes as they are written.
//! Capability enums take the aliases too, after the ids: lint accepts them (FN206 asks for the
//! id). Each schema's `$id` is where the site would publish it:
//! `<baseUrl>/schemas/<kind>.schema.json` (`fieldnotes schema --out static/schemas` puts it
//! there).

use crate::field_table::{self, Field, FieldType};
use crate::index::SiteIndex;
use crate::lint::vocab::Vocab;
use crate::model::ObjectKind;
use serde_json::{json, Map, Value};

/// The front matter kinds there are schemas for, with the stem of each schema's file name.
pub const DOCUMENTS: [(ObjectKind, &str); 4] = [
    (ObjectKind::Note, "note"),
    (ObjectKind::Client, "client"),
    (ObjectKind::Capability, "capability"),
    (ObjectKind::Observation, "observation"),
];

/// Nested objects an observation holds, with their names under `definitions`.
const OBSERVATION_PARTS: [(ObjectKind, &str); 4] = [
    (ObjectKind::ClientInfo, "clientInfo"),
    (ObjectKind::Probe, "probe"),
    (ObjectKind::Package, "package"),
    (ObjectKind::ObservedResult, "observedResult"),
];

/// Fields whose values come from a vocabulary.
const VOCABULARIES: &[(ObjectKind, &str, Vocab)] = &[
    (ObjectKind::Note, "kind", Vocab::Kinds),
    (ObjectKind::Note, "status", Vocab::NoteStatuses),
    (ObjectKind::Note, "capabilities", Vocab::Capabilities),
    (ObjectKind::Note, "clients", Vocab::Clients),
    (ObjectKind::Note, "specVersions", Vocab::SpecVersions),
    (ObjectKind::SupportCell, "status", Vocab::SupportStatuses),
    (ObjectKind::SupportCell, "observations", Vocab::Observations),
    (ObjectKind::SupportCell, "reason", Vocab::UnknownReasons),
    (ObjectKind::Client, "unknownReason", Vocab::UnknownReasons),
    (ObjectKind::Observation, "client", Vocab::Clients),
    (ObjectKind::ObservedResult, "status", Vocab::SupportStatuses),
    (ObjectKind::Capability, "group", Vocab::Groups),
    (ObjectKind::Capability, "introduced", Vocab::SpecVersions),
    (ObjectKind::Capability, "deprecated", Vocab::SpecVersions),
    (ObjectKind::Capability, "removed", Vocab::SpecVersions),
];

const KEBAB: &str = "^[a-z0-9]+(-[a-z0-9]+)*$";
const CAPABILITY_ID: &str = "^[a-z0-9]+(-[a-z0-9]+)*\\.[a-z][A-Za-z0-9]*$";
const COMMIT: &str = "^[0-9a-fA-F]{7,40}$";
const DATE: &str = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";

/// The file a schema is written to (`note.schema.json`).
pub fn file_name(stem: &str) -> String {
    format!("{stem}.schema.json")
}

/// The schema of `kind`'s front matter for the site in `index`.
pub fn schema(index: &SiteIndex, kind: ObjectKind) -> Value {
    let builder = Builder { index };
    let mut root = builder.object(kind);
    root.insert(
        "$schema".into(),
        "http://json-schema.org/draft-07/schema#".into(),
    );
    let stem = DOCUMENTS
        .iter()
        .find(|(k, _)| *k == kind)
        .map_or("front-matter", |(_, stem)| stem);
    root.insert("$id".into(), id(&index.config.base_url, stem).into());
    root.insert(
        "title".into(),
        format!("{} front matter", field_table::object_name(kind)).into(),
    );
    root.insert(
        "description".into(),
        format!(
            "Front matter of a {} of {} ({}), made by `fieldnotes schema`.",
            field_table::object_name(kind),
            index.config.title,
            index.config.base_url
        )
        .into(),
    );
    let mut definitions = Map::new();
    definitions.insert(
        "source".into(),
        Value::Object(builder.object(ObjectKind::Source)),
    );
    if kind == ObjectKind::Client {
        definitions.insert(
            "supportCell".into(),
            Value::Object(builder.object(ObjectKind::SupportCell)),
        );
    }
    if kind == ObjectKind::Observation {
        definitions.remove("source");
        for (part, name) in OBSERVATION_PARTS {
            definitions.insert(name.into(), Value::Object(builder.object(part)));
        }
    }
    if kind == ObjectKind::Note {
        root.insert(
            "if".into(),
            json!({ "properties": { "status": { "const": "superseded" } }, "required": ["status"] }),
        );
        root.insert("then".into(), json!({ "required": ["supersededBy"] }));
    }
    if kind != ObjectKind::Capability {
        root.insert("definitions".into(), Value::Object(definitions));
    }
    Value::Object(root)
}

/// A schema's `$id`: where the site publishes it, `<baseUrl>/schemas/<stem>.schema.json`.
pub fn id(base_url: &str, stem: &str) -> String {
    format!(
        "{}/schemas/{}",
        base_url.trim_end_matches('/'),
        file_name(stem)
    )
}

/// What capability fields add to their description when the enum holds aliases.
const ALIASES_NOTE: &str =
    "; a capability's aliases are accepted too (lint's FN206 asks for the id)";

/// A schema as written to a file: pretty JSON and a final newline.
pub fn to_text(schema: &Value) -> String {
    let mut text = serde_json::to_string_pretty(schema).expect("schemas serialize");
    text.push('\n');
    text
}

/// The schema of one value of a field that takes no vocabulary.
fn plain(kind: ObjectKind, field: &Field) -> Value {
    match (kind, field.name, field.ty) {
        (ObjectKind::Capability, "id", _) => json!({ "type": "string", "pattern": CAPABILITY_ID }),
        (ObjectKind::Observation, "transport", _) => {
            json!({ "type": "string", "enum": field_table::TRANSPORTS })
        }
        (ObjectKind::Probe, "mode", _) => {
            json!({ "type": "string", "enum": field_table::PROBE_MODES })
        }
        (ObjectKind::Probe, "protocol", _) => {
            json!({ "type": "string", "enum": field_table::PROBE_PROTOCOLS })
        }
        (ObjectKind::Probe, "settleMs" | "idleMs", _) => json!({ "type": "integer", "minimum": 0 }),
        (ObjectKind::Package, "ecosystem", _) => {
            json!({ "type": "string", "enum": field_table::ECOSYSTEMS })
        }
        (ObjectKind::Package, "version", _) => json!({ "type": ["string", "number"] }),
        (ObjectKind::Observation, "outcome", _) => {
            json!({ "type": "string", "enum": field_table::OUTCOMES })
        }
        (ObjectKind::ObservedResult, "basis", _) => {
            json!({ "type": "string", "enum": field_table::BASES })
        }
        (_, "id" | "supersededBy" | "related" | "research" | "observations", _) => {
            json!({ "type": "string", "pattern": KEBAB })
        }
        // A commit of digits only is a number to YAML; the pattern checks the others.
        (_, "commit", _) => json!({ "type": ["string", "number"], "pattern": COMMIT }),
        (_, _, FieldType::Date) => json!({ "type": "string", "pattern": DATE }),
        (_, _, FieldType::Url) => json!({ "type": "string", "format": "uri" }),
        _ => json!({ "type": ["string", "number", "boolean"] }),
    }
}

struct Builder<'a> {
    index: &'a SiteIndex,
}

impl Builder<'_> {
    /// An object schema: its fields as properties, required ones listed, nothing else allowed.
    fn object(&self, kind: ObjectKind) -> Map<String, Value> {
        let fields = field_table::fields(kind);
        let properties: Map<String, Value> = fields
            .iter()
            .map(|f| (f.name.to_string(), self.field(kind, f)))
            .collect();
        let required: Vec<&str> = fields
            .iter()
            .filter(|f| f.required)
            .map(|f| f.name)
            .collect();
        let mut object = Map::new();
        object.insert("type".into(), "object".into());
        object.insert("properties".into(), Value::Object(properties));
        object.insert("required".into(), json!(required));
        object.insert(
            "additionalProperties".into(),
            field_table::is_open(kind).into(),
        );
        object
    }

    fn field(&self, kind: ObjectKind, field: &Field) -> Value {
        let vocab = VOCABULARIES
            .iter()
            .find(|(k, name, _)| *k == kind && *name == field.name)
            .map(|(_, _, vocab)| *vocab);
        let values = vocab.and_then(|vocab| self.index_enum(vocab));
        let single = match values {
            Some(values) => json!({ "type": "string", "enum": values }),
            None => plain(kind, field),
        };
        let mut value = match field.ty {
            FieldType::TextList => json!({ "type": "array", "items": single }),
            FieldType::Sources => {
                json!({ "type": "array", "items": { "$ref": "#/definitions/source" } })
            }
            FieldType::SupportMap => {
                let mut map = json!({
                    "type": "object",
                    "additionalProperties": { "$ref": "#/definitions/supportCell" },
                });
                if let Some(ids) = self.index_enum(Vocab::Capabilities) {
                    map["propertyNames"] = json!({ "enum": ids });
                }
                map
            }
            FieldType::Object(part) => {
                let name = OBSERVATION_PARTS
                    .iter()
                    .find(|(k, _)| *k == part)
                    .map_or("object", |(_, name)| name);
                json!({ "$ref": format!("#/definitions/{name}") })
            }
            FieldType::ResultMap => {
                let mut map = json!({
                    "type": "object",
                    "additionalProperties": { "$ref": "#/definitions/observedResult" },
                });
                if let Some(ids) = self.index_enum(Vocab::Capabilities) {
                    map["propertyNames"] = json!({ "enum": ids });
                }
                map
            }
            FieldType::LineList => {
                json!({ "type": "array", "items": { "type": "integer", "minimum": 1 } })
            }
            FieldType::Text | FieldType::Date | FieldType::Url => single,
        };
        if field.required && matches!(field.ty, FieldType::TextList | FieldType::Sources) {
            value["minItems"] = 1.into();
        }
        let names_capabilities = vocab == Some(Vocab::Capabilities)
            || matches!(field.ty, FieldType::SupportMap | FieldType::ResultMap);
        value["description"] = match names_capabilities && !self.index.ids.aliases.is_empty() {
            true => format!("{}{ALIASES_NOTE}", field.doc).into(),
            false => field.doc.into(),
        };
        value
    }

    /// A vocabulary's ids, or `None` when the site has none (an empty enum allows nothing).
    /// Capabilities: the ids, then the aliases, each sorted.
    fn index_enum(&self, vocab: Vocab) -> Option<Vec<&str>> {
        let mut ids = vocab.ids(self.index);
        if vocab == Vocab::Capabilities {
            let mut aliases: Vec<&str> = (self.index.ids.aliases.keys())
                .map(String::as_str)
                .filter(|alias| !self.index.ids.capabilities.contains_key(*alias))
                .collect();
            aliases.sort_unstable();
            ids.extend(aliases);
        }
        Some(ids).filter(|ids| !ids.is_empty())
    }
}
