//! Writes the corpus as a fieldnotes site: `site.yaml` and `content/`.

use crate::corpus::{self, Cell, Note, Shape};
use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::Path;

pub fn write(out: &Path, shape: &Shape, notes: &[Note], cells: &[Vec<Cell>]) -> io::Result<()> {
    for dir in ["research", "clients", "capabilities"] {
        fs::create_dir_all(out.join("content").join(dir))?;
    }
    fs::write(out.join("site.yaml"), site_yaml())?;
    for c in 0..shape.capabilities {
        let id = shape.capability_id(c);
        let text = format!(
            "---\nid: {id}\ntitle: Feature {c}\ngroup: {}\nspecUrl: https://spec.example.org/{id}\nintroduced: {}\n---\n\nCapability {c} of the generated corpus.\n",
            shape.group_of(c),
            corpus::REVISIONS[c % corpus::REVISIONS.len()],
        );
        fs::write(out.join(format!("content/capabilities/{id}.md")), text)?;
    }
    for (c, cells) in cells.iter().enumerate() {
        let path = out.join(format!("content/clients/{}.md", corpus::client_id(c)));
        fs::write(path, client(shape, c, cells))?;
    }
    for note in notes {
        let path = out.join(format!("content/research/{}.md", note.id));
        fs::write(path, note_file(shape, note))?;
    }
    Ok(())
}

fn site_yaml() -> String {
    let mut s = String::from("title: Generated corpus\nbaseUrl: https://corpus.example.org\ndescription: A generated benchmark site.\nspecVersions:\n");
    for r in corpus::REVISIONS {
        let _ = writeln!(s, "  - id: {r}\n    date: {r}");
    }
    s.push_str("capabilityGroups:\n");
    for g in corpus::GROUPS {
        let _ = writeln!(s, "  - id: {g}\n    title: {g}");
    }
    s.push_str("kinds:\n  - id: idiosyncrasy\n  - id: compliance\nlint:\n  staleAfterDays: 180\n");
    s
}

fn client(shape: &Shape, c: usize, cells: &[Cell]) -> String {
    let id = corpus::client_id(c);
    let mut s = format!("---\nid: {id}\ntitle: Client {c}\nvendor: Vendor {c}\nhomepage: https://{id}.example.org\nrepository: https://github.com/example/{id}\nclientInfoNames:\n  - {id}\nplatforms:\n  - cli\nsupport:\n");
    for cell in cells {
        let cap = cell.capability;
        let _ = write!(
            s,
            "  {}:\n    status: {}\n    notes: Generated cell.\n    sources:\n      - url: https://github.com/example/{id}\n        commit: {}\n        path: src/mcp.ts:{}-{}\n    lastVerified: 2026-10-01\n",
            shape.capability_id(cap),
            cell.status,
            cell.commit,
            10 + cap,
            20 + cap
        );
        if let Some(research) = cell.research {
            let _ = writeln!(s, "    research:\n      - {}", corpus::note_id(research));
        }
    }
    s.push_str("---\n\nA generated client.\n");
    s
}

fn note_file(shape: &Shape, note: &Note) -> String {
    let mut s = format!(
        "---\nid: {}\ntitle: {}\nkind: idiosyncrasy\nsummary: {}\ncapabilities:\n",
        note.id, note.title, note.summary,
    );
    for &c in &note.capabilities {
        let _ = writeln!(s, "  - {}", shape.capability_id(c));
    }
    s.push_str("clients:\n");
    for &c in &note.clients {
        let _ = writeln!(s, "  - {}", corpus::client_id(c));
    }
    s.push_str("specVersions:\n");
    for r in &note.revisions {
        let _ = writeln!(s, "  - {r}");
    }
    s.push_str("sources:\n");
    for source in &note.sources {
        let _ = write!(
            s,
            "  - url: https://github.com/example/{}\n    title: {}\n    commit: {}\n    path: {}:{}\n    date: {}\n",
            corpus::client_id(note.clients[0]),
            source.file,
            source.commit,
            source.file,
            source.ranges,
            source.date,
        );
    }
    let _ = write!(
        s,
        "status: current\nlastVerified: {}\nrelated:\n",
        note.last_verified
    );
    for r in &note.related {
        let _ = writeln!(s, "  - {}", corpus::note_id(*r));
    }
    let _ = write!(
        s,
        "canonical: https://corpus.example.org/research/{}\nlast-updated: 2026-10-02\n---\n\n{}",
        note.id, note.body
    );
    s
}
