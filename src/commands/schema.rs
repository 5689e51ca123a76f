//! `fieldnotes schema`: JSON Schema for front matter, with the site's vocabularies as enums.

use crate::cli::{SchemaArgs, SchemaKind};
use crate::error::{Error, Result};
use crate::front_matter_schema::{self, DOCUMENTS};
use crate::model::ObjectKind;
use serde_json::{Map, Value};
use std::io::Write;

use super::Invocation;

pub fn schema(run: &Invocation, args: SchemaArgs) -> Result<u8> {
    let root = run.root()?;
    let index = crate::open(root)?;
    let wanted = args.kind.map(|k| match k {
        SchemaKind::Note => ObjectKind::Note,
        SchemaKind::Client => ObjectKind::Client,
        SchemaKind::Capability => ObjectKind::Capability,
    });
    let chosen = DOCUMENTS
        .iter()
        .filter(|(kind, _)| wanted.is_none_or(|w| w == *kind));
    match &args.out {
        Some(out) => {
            let dir = if out.is_absolute() {
                out.clone()
            } else {
                root.join(out)
            };
            std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, "create", e))?;
            for (kind, stem) in chosen {
                let path = dir.join(front_matter_schema::file_name(stem));
                let text =
                    front_matter_schema::to_text(&front_matter_schema::schema(&index, *kind));
                std::fs::write(&path, text).map_err(|e| Error::io(&path, "write", e))?;
                run.say(&format!("wrote {}", path.display()));
            }
        }
        None => {
            let mut schemas: Vec<(&str, Value)> = chosen
                .map(|(kind, stem)| (*stem, front_matter_schema::schema(&index, *kind)))
                .collect();
            let value = if schemas.len() == 1 {
                schemas.remove(0).1
            } else {
                let map: Map<String, Value> = schemas
                    .into_iter()
                    .map(|(stem, schema)| (stem.to_string(), schema))
                    .collect();
                Value::Object(map)
            };
            let _ = std::io::stdout().write_all(front_matter_schema::to_text(&value).as_bytes());
        }
    }
    Ok(0)
}
