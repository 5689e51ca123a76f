//! Turning a front matter mapping into the typed model, one function per content kind.

use super::fields::Reader;
use crate::model::{
    Capability, Client, ClientInfo, Document, Guide, Note, ObjectKind, Observation, ObservedResult,
    PackageInfo, ProbeInfo, SupportCell,
};

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
    let unknown_reason = r.text("unknownReason");
    let release_tags = r.text("releaseTags");
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
            observations: c.list("observations"),
            reason: c.text("reason"),
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
        release_tags,
        support,
        unknown_reason,
    }
}

pub fn capability(doc: Document, r: &mut Reader<'_>) -> Capability {
    Capability {
        doc,
        id: r.text("id"),
        title: r.text("title"),
        group: r.text("group"),
        spec_url: r.text("specUrl"),
        extension: r.text("extension"),
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

pub fn observation(doc: Document, r: &mut Reader<'_>) -> Observation {
    let id = r.text("id");
    let client = r.text("client");
    let client_info = r.object("clientInfo", ObjectKind::ClientInfo, |c| {
        let fields = c.values();
        ClientInfo {
            span: c.span(),
            name: c.text("name"),
            version: c.text("version"),
            fields,
        }
    });
    let observed = r.text("observed");
    let transport = r.text("transport");
    let protocol_version = r.text("protocolVersion");
    let probe = r
        .object("probe", ObjectKind::Probe, |p| ProbeInfo {
            span: p.span(),
            version: p.text("version"),
            mode: p.text("mode"),
            protocol: p.text("protocol"),
            settle_ms: p.text("settleMs"),
            idle_ms: p.text("idleMs"),
        })
        .map(Box::new);
    let package = r
        .object("package", ObjectKind::Package, |p| PackageInfo {
            span: p.span(),
            ecosystem: p.text("ecosystem"),
            name: p.text("name"),
            version: p.text("version"),
        })
        .map(Box::new);
    let outcome = r.text("outcome");
    let command = r.text("command");
    let transcript = r.text("transcript");
    let mut results = Vec::new();
    for (capability, map) in r.entries("results") {
        let prefix = format!("results.{}.", capability.value);
        let result = r.nested(ObjectKind::ObservedResult, map, prefix, |c| {
            ObservedResult {
                span: c.span(),
                status: c.text("status"),
                basis: c.text("basis"),
                why: c.text("why"),
                messages: c.lines("messages"),
                capability,
            }
        });
        results.push(result);
    }
    Observation {
        doc,
        id,
        client,
        client_info,
        observed,
        transport,
        protocol_version,
        probe,
        package,
        outcome,
        command,
        transcript,
        results,
    }
}
