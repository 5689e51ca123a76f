//! Prompts: "verify a claim" (a note's sources, and the steps to check each again) and
//! "research a cell" (a client × capability: what the site knows, and the skeleton of a new
//! note exactly as `fieldnotes new note` writes it).

use super::evidence::{self, Source};
use super::site::Snapshot;
use crate::scaffold::NewFile;
use rmcp::model::{GetPromptResult, Prompt, PromptArgument, PromptMessage, Role};
use std::collections::BTreeMap;
use std::fmt::Write;

pub const VERIFY_CLAIM: &str = "verify-claim";
pub const RESEARCH_CELL: &str = "research-cell";

/// The prompts, listed.
pub fn list() -> Vec<Prompt> {
    let argument = |name: &str, description: &str| {
        PromptArgument::new(name)
            .with_description(description)
            .with_required(true)
    };
    vec![
        Prompt::new(
            VERIFY_CLAIM,
            Some("Re-verify a research note: check each pinned source still shows the claim"),
            Some(vec![argument("note", "The note's id (kebab-case)")]),
        ),
        Prompt::new(
            RESEARCH_CELL,
            Some(
                "Research one cell of the support matrix (a client × a capability) and draft \
                 the note that records it",
            ),
            Some(vec![
                argument("client", "A client id, title or clientInfo name"),
                argument("capability", "A capability id, alias or title"),
            ]),
        ),
    ]
}

/// The prompt `name` with `arguments`; a lint-style message for an unknown prompt, a missing
/// argument or an unknown id.
pub fn get(
    site: &Snapshot,
    name: &str,
    arguments: &BTreeMap<String, String>,
) -> Result<GetPromptResult, String> {
    let argument = |key: &str| {
        arguments
            .get(key)
            .map(|v| v.trim())
            .filter(|v| !v.is_empty())
            .ok_or_else(|| format!("error: the prompt `{name}` needs the argument `{key}`"))
    };
    match name {
        VERIFY_CLAIM => verify_claim(site, site.note(argument("note")?)?),
        RESEARCH_CELL => {
            let client = site.client(argument("client")?)?;
            let capability = site.capability(argument("capability")?)?;
            Ok(research_cell(site, client, capability))
        }
        _ => {
            let help =
                crate::lint::suggest::did_you_mean(name, [VERIFY_CLAIM, RESEARCH_CELL], || {
                    format!("the prompts are `{VERIFY_CLAIM}` and `{RESEARCH_CELL}`")
                });
            Err(format!("error: no prompt `{name}`; {help}"))
        }
    }
}

fn verify_claim(site: &Snapshot, note: usize) -> Result<GetPromptResult, String> {
    let id = site.note_id(note);
    let brief = evidence::note_brief(site, id)
        .ok_or_else(|| format!("error: the note `{id}` is not in the site's data API"))?;
    let mut text = String::new();
    let _ = writeln!(
        text,
        "Re-verify the research note `{id}`: \"{}\" ({}).\n\nIts claim: {}\n\nIt was last \
         verified on {} ({} days before today, {}).\n",
        brief.title,
        brief.url,
        brief.summary,
        brief.last_verified.as_deref().unwrap_or("an unknown day"),
        brief.age_days.map_or("?".to_string(), |d| d.to_string()),
        site.today,
    );
    let _ = writeln!(text, "For each source below:");
    let _ = writeln!(
        text,
        "1. Open it at the pinned commit and read the pinned lines. Do they still show what the \
         note claims? Quote the lines that do."
    );
    let _ = writeln!(
        text,
        "2. Open the same file on the repository's default branch today. Are the lines still \
         there, moved (give the new range), changed, or gone? `fieldnotes sources drift` \
         answers this for every source at once."
    );
    let _ = writeln!(
        text,
        "3. If the claim still holds, pin the source to today's commit and line range and set \
         `lastVerified` (and `last-updated`) to today. If it no longer holds, say so: update \
         the note's claim, or set `status: superseded` with `supersededBy`."
    );
    let _ = writeln!(
        text,
        "4. Run `fieldnotes lint` (or this server's `lint` tool on the edited text) and fix \
         every finding.\n\nSources:"
    );
    for (n, source) in brief.sources.iter().enumerate() {
        let _ = writeln!(text, "{}. {}", n + 1, describe(source));
    }
    if let Some(markdown) = site.text(&format!("research/{id}.md")) {
        let _ = write!(text, "\nThe note as the site shows it:\n\n{markdown}");
    }
    Ok(
        GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
            .with_description(format!("Re-verify the note `{id}`")),
    )
}

/// A source in one line: title, URL, commit, path and a link per line range.
fn describe(source: &Source) -> String {
    let mut line = source.title.clone().unwrap_or_default();
    for (label, value) in [
        ("url", &source.url),
        ("commit", &source.commit),
        ("path", &source.path),
        ("read on", &source.date),
    ] {
        if let Some(value) = value {
            let _ = write!(line, "; {label}: {value}");
        }
    }
    for range in &source.ranges {
        let _ = write!(line, "; {}: {}", range.label, range.href);
    }
    line
}

fn research_cell(site: &Snapshot, client: usize, capability: usize) -> GetPromptResult {
    let cell = evidence::cell(site, client, capability);
    let note_id = format!("{}-{}", cell.client, kebab(&cell.capability));
    let skeleton = NewFile::Note {
        id: note_id.clone(),
        clients: vec![cell.client.clone()],
        capabilities: vec![cell.capability.clone()],
    }
    .text(&site.index.config, site.today);
    let mut text = String::new();
    let _ = writeln!(
        text,
        "Research whether {} ({}) supports {} ({}), and record it as a note.\n\nThe site says \
         now: status `{}`{}{}.",
        cell.client_title,
        cell.client,
        cell.capability_title,
        cell.capability,
        cell.status,
        cell.notes
            .as_deref()
            .map_or(String::new(), |n| format!(" ({n})")),
        cell.last_verified
            .as_deref()
            .map_or(String::new(), |d| format!(", last verified {d}")),
    );
    if !cell.research.is_empty() {
        let _ = writeln!(text, "\nNotes already about both:");
        for note in &cell.research {
            let _ = writeln!(text, "- `{}`: {} ({})", note.id, note.title, note.url);
        }
    }
    let _ = writeln!(
        text,
        "\nSteps:\n1. Find where the client's code handles the capability; read it at a \
         commit, not a branch.\n2. Fill in every `TODO` of the skeleton below: the claim, \
         the summary, each source's URL, commit and `path: file:L-L`.\n3. Save it as \
         `content/research/{note_id}.md` (rename it if the claim suggests a better id), then \
         run this server's `lint` tool on it, or `fieldnotes lint`, until it is clean.\n4. Cite \
         the note from the client's support cell (`research: [{note_id}]`) and set its \
         status.\n\nThe skeleton, as `fieldnotes new note {note_id} --client {} --capability \
         {}` writes it:\n\n{skeleton}",
        cell.client, cell.capability,
    );
    GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
        .with_description(format!("Research {} × {}", cell.client, cell.capability))
}

/// `transports.streamableHttp` → `transports-streamable-http`.
fn kebab(id: &str) -> String {
    let mut out = String::new();
    for c in id.chars() {
        if c.is_ascii_uppercase() {
            if !out.is_empty() && !out.ends_with('-') {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn capability_ids_become_kebab_case() {
        assert_eq!(
            super::kebab("transports.streamableHttp"),
            "transports-streamable-http"
        );
        assert_eq!(super::kebab("elicitation.url"), "elicitation-url");
    }
}
