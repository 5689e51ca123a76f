//! Generates a deterministic benchmark site: `N` research notes of 3–6 KB (front matter like
//! the seed's, body links, `related` ids, pinned sources), 25 clients and 40 capabilities.
//!
//! ```text
//! cargo run --release --example gen_corpus -- --notes 10000 /tmp/corpus-10k
//! ```

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

const CLIENTS: usize = 25;
const GROUPS: [&str; 8] = [
    "core",
    "transports",
    "tools",
    "resources",
    "prompts",
    "sampling",
    "roots",
    "elicitation",
];
const CAPABILITIES_PER_GROUP: usize = 5;
const REVISIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
const WORDS: [&str; 24] = [
    "transport",
    "session",
    "server",
    "client",
    "request",
    "stream",
    "header",
    "fallback",
    "config",
    "schema",
    "timeout",
    "retry",
    "endpoint",
    "token",
    "capability",
    "message",
    "initialize",
    "notification",
    "resource",
    "prompt",
    "sampling",
    "elicitation",
    "version",
    "handshake",
];

/// A small deterministic generator (xorshift64*), so every run writes the same corpus.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn word(&mut self) -> &'static str {
        WORDS[self.below(WORDS.len())]
    }
}

fn client_id(i: usize) -> String {
    format!("client-{i:02}")
}

fn capability_id(i: usize) -> String {
    let group = GROUPS[i / CAPABILITIES_PER_GROUP];
    format!("{group}.feature{}", i % CAPABILITIES_PER_GROUP)
}

fn note_id(i: usize) -> String {
    format!("note-{i:05}-client-behaviour")
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut notes = 1000;
    let mut out: Option<PathBuf> = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--notes" => {
                i += 1;
                notes = args
                    .get(i)
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| usage());
            }
            dir => out = Some(PathBuf::from(dir)),
        }
        i += 1;
    }
    let out = out.unwrap_or_else(|| usage());
    write_site(&out, notes).unwrap_or_else(|e| {
        eprintln!("error: writing {}: {e}", out.display());
        std::process::exit(2);
    });
    eprintln!(
        "wrote {notes} notes, {CLIENTS} clients, {} capabilities to {}",
        GROUPS.len() * CAPABILITIES_PER_GROUP,
        out.display()
    );
}

fn usage() -> ! {
    eprintln!("usage: gen_corpus [--notes N] DIR");
    std::process::exit(2);
}

fn write_site(out: &Path, notes: usize) -> std::io::Result<()> {
    for dir in ["research", "clients", "capabilities"] {
        fs::create_dir_all(out.join("content").join(dir))?;
    }
    fs::write(out.join("site.yaml"), site_yaml())?;
    let capabilities = GROUPS.len() * CAPABILITIES_PER_GROUP;
    for c in 0..capabilities {
        let id = capability_id(c);
        let text = format!(
            "---\nid: {id}\ntitle: Feature {c}\ngroup: {}\nspecUrl: https://spec.example.org/{id}\nintroduced: {}\n---\n\nCapability {c} of the generated corpus.\n",
            GROUPS[c / CAPABILITIES_PER_GROUP],
            REVISIONS[c % REVISIONS.len()],
        );
        fs::write(out.join(format!("content/capabilities/{id}.md")), text)?;
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for c in 0..CLIENTS {
        fs::write(
            out.join(format!("content/clients/{}.md", client_id(c))),
            client(c, notes, &mut rng),
        )?;
    }
    for n in 0..notes {
        fs::write(
            out.join(format!("content/research/{}.md", note_id(n))),
            note(n, notes, &mut rng),
        )?;
    }
    Ok(())
}

fn site_yaml() -> String {
    let mut s = String::from("title: Generated corpus\nbaseUrl: https://corpus.example.org\ndescription: A generated benchmark site.\nspecVersions:\n");
    for r in REVISIONS {
        let _ = writeln!(s, "  - id: {r}\n    date: {r}");
    }
    s.push_str("capabilityGroups:\n");
    for g in GROUPS {
        let _ = writeln!(s, "  - id: {g}\n    title: {g}");
    }
    s.push_str(
        "kinds:\n  - id: idiosyncrasy\n  - id: compliance\nlint:\n  staleAfterDays: 100000\n",
    );
    s
}

fn client(c: usize, notes: usize, rng: &mut Rng) -> String {
    let id = client_id(c);
    let mut s = format!("---\nid: {id}\ntitle: Client {c}\nvendor: Vendor {c}\nhomepage: https://{id}.example.org\nrepository: https://github.com/example/{id}\nclientInfoNames:\n  - {id}\nplatforms:\n  - cli\nsupport:\n");
    for cap in 0..GROUPS.len() * CAPABILITIES_PER_GROUP {
        if rng.below(4) == 0 {
            continue;
        }
        let status = ["yes", "partial", "no"][rng.below(3)];
        let _ = write!(
            s,
            "  {}:\n    status: {status}\n    notes: Generated cell.\n    sources:\n      - url: https://github.com/example/{id}\n        commit: {:012x}\n        path: src/mcp.ts:{}-{}\n    lastVerified: 2026-10-01\n",
            capability_id(cap),
            rng.next() >> 16,
            10 + cap,
            20 + cap
        );
        if notes > 0 && rng.below(3) == 0 {
            let _ = writeln!(s, "    research:\n      - {}", note_id(rng.below(notes)));
        }
    }
    s.push_str("---\n\nA generated client.\n");
    s
}

fn note(n: usize, notes: usize, rng: &mut Rng) -> String {
    let id = note_id(n);
    let client = rng.below(CLIENTS);
    let capability = rng.below(GROUPS.len() * CAPABILITIES_PER_GROUP);
    let revision = REVISIONS[rng.below(REVISIONS.len())];
    let related: Vec<usize> = [n + 1, n + 7].into_iter().filter(|&r| r < notes).collect();
    let back: Vec<usize> = [n.checked_sub(1), n.checked_sub(7)]
        .into_iter()
        .flatten()
        .collect();
    let title = format!("Client {client} handles {} {} {n}", rng.word(), rng.word());
    let mut s = format!(
        "---\nid: {id}\ntitle: {title}\nkind: idiosyncrasy\nsummary: Generated note {n} about client {client} and {cap}.\ncapabilities:\n  - {cap}\nclients:\n  - {cid}\nspecVersions:\n  - {revision}\nsources:\n",
        cap = capability_id(capability),
        cid = client_id(client),
    );
    for k in 0..2 {
        let _ = write!(
            s,
            "  - url: https://github.com/example/{cid}\n    title: src/file{k}.ts\n    commit: {:010x}\n    path: src/file{k}.ts:{}-{},{}-{}\n    date: 2026-09-0{}\n",
            rng.next() >> 24,
            10 + k,
            40 + k,
            60 + k,
            90 + k,
            k + 1,
            cid = client_id(client)
        );
    }
    s.push_str("status: current\nlastVerified: 2026-10-01\nrelated:\n");
    for r in related.iter().chain(&back) {
        let _ = writeln!(s, "  - {}", note_id(*r));
    }
    let _ = write!(
        s,
        "canonical: https://corpus.example.org/research/{id}\nlast-updated: 2026-10-02\n---\n\n# {title}\n\n"
    );
    let target = 3000 + rng.below(3000);
    let mut section = 0;
    while s.len() < target {
        let _ = write!(s, "## Section {section}\n\n");
        section += 1;
        for _ in 0..3 {
            for _ in 0..40 {
                s.push_str(rng.word());
                s.push(' ');
            }
            let _ = write!(
                s,
                "see [{c}](/clients/{c}.md) and [the capability](/capabilities/{cap}.md).\n\n",
                c = client_id(rng.below(CLIENTS)),
                cap = capability_id(rng.below(GROUPS.len() * CAPABILITIES_PER_GROUP))
            );
        }
        s.push_str("```python\nif config.get(\"transport\") == \"sse\":\n    return sse_client(url)\n```\n\n");
    }
    s.push_str("## Related notes\n\n");
    for r in related.iter().chain(&back) {
        let _ = writeln!(s, "- [{0}](/research/{0}.md)", note_id(*r));
    }
    s
}
