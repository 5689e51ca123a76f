//! Turning a front matter mapping into the typed model, one function per content kind.

use super::fields::Reader;
use crate::model::{Capability, Client, Document, Guide, Note, ObjectKind, SupportCell};

pub fn note(doc: Document, r: &mut Reader<'_>) -> Note {
    Note {
        doc,
        id: r.text("id"),
        title: r.text("title"),
        kind: r.text("kind"),
        summary: r.text("summary"),
        capabilities: r.list("capabilities"),
        clients: r.list("clients"),
        spec_versions: r.list("specVersions"),
        sources: r.sources("sources"),
        status: r.text("status"),
        superseded_by: r.text("supersededBy"),
        last_verified: r.text("lastVerified"),
        related: r.list("related"),
        canonical: r.text("canonical"),
        last_updated: r.text("last-updated"),
    }
}

pub fn client(doc: Document, r: &mut Reader<'_>) -> Client {
    let id = r.text("id");
    let title = r.text("title");
    let vendor = r.text("vendor");
    let homepage = r.text("homepage");
    let repository = r.text("repository");
    let client_info_names = r.list("clientInfoNames");
    let platforms = r.list("platforms");
    let mut support = Vec::new();
    for (capability, map) in r.entries("support") {
        let prefix = format!("support.{}.", capability.value);
        let cell = r.nested(ObjectKind::SupportCell, map, prefix, |c| SupportCell {
            span: c.span(),
            status: c.text("status"),
            notes: c.text("notes"),
            research: c.list("research"),
            sources: c.sources("sources"),
            last_verified: c.text("lastVerified"),
            version: c.text("version"),
            capability,
        });
        support.push(cell);
    }
    Client {
        doc,
        id,
        title,
        vendor,
        homepage,
        repository,
        client_info_names,
        platforms,
        support,
    }
}

pub fn capability(doc: Document, r: &mut Reader<'_>) -> Capability {
    Capability {
        doc,
        id: r.text("id"),
        title: r.text("title"),
        group: r.text("group"),
        spec_url: r.text("specUrl"),
        introduced: r.text("introduced"),
        deprecated: r.text("deprecated"),
        removed: r.text("removed"),
        aliases: r.list("aliases"),
    }
}

pub fn guide(doc: Document, r: &mut Reader<'_>) -> Guide {
    Guide {
        doc,
        title: r.text("title"),
        summary: r.text("summary"),
        last_updated: r.text("last-updated"),
    }
}
