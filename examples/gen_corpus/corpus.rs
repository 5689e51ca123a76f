//! The generated corpus as data: clients, capabilities and notes, the same for every writer.

use crate::code;
use std::fmt::Write as _;

pub const CLIENTS: usize = 25;
pub const GROUPS: [&str; 8] = [
    "core",
    "transports",
    "tools",
    "resources",
    "prompts",
    "sampling",
    "roots",
    "elicitation",
];
pub const CAPABILITIES_PER_GROUP: usize = 5;
pub const CAPABILITIES: usize = GROUPS.len() * CAPABILITIES_PER_GROUP;
pub const REVISIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
const WORDS: [&str; 64] = [
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
    "the",
    "a",
    "when",
    "after",
    "before",
    "never",
    "always",
    "sends",
    "reads",
    "drops",
    "keeps",
    "answers",
    "cursor",
    "page",
    "list",
    "tool",
    "argument",
    "result",
    "error",
    "progress",
    "cancel",
    "root",
    "reconnect",
    "redirect",
    "proxy",
    "cache",
    "wrapper",
    "field",
    "value",
    "default",
    "option",
    "path",
    "user",
    "approval",
    "form",
    "url",
    "log",
    "level",
    "batch",
    "queue",
];

/// A small deterministic generator (xorshift64*), so every run writes the same corpus.
pub struct Rng(u64);

impl Rng {
    pub fn new() -> Rng {
        Rng(0x9e37_79b9_7f4a_7c15)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn word(&mut self) -> &'static str {
        WORDS[self.below(WORDS.len())]
    }
}

pub fn client_id(i: usize) -> String {
    format!("client-{i:02}")
}

pub fn capability_id(i: usize) -> String {
    let group = GROUPS[i / CAPABILITIES_PER_GROUP];
    format!("{group}.feature{}", i % CAPABILITIES_PER_GROUP)
}

pub fn group_of(capability: usize) -> &'static str {
    GROUPS[capability / CAPABILITIES_PER_GROUP]
}

pub fn note_id(i: usize) -> String {
    format!("note-{i:05}-client-behaviour")
}

/// A pinned source of a note.
pub struct Source {
    pub file: String,
    pub commit: String,
    pub ranges: String,
    pub date: String,
}

/// One generated research note.
pub struct Note {
    pub id: String,
    pub title: String,
    pub summary: String,
    pub client: usize,
    pub capability: usize,
    pub revision: &'static str,
    pub sources: Vec<Source>,
    pub related: Vec<usize>,
    /// `lastVerified`: about one note in five is older than the site's `staleAfterDays`.
    pub last_verified: String,
    /// Markdown body with site links (`/clients/<id>.md`, …).
    pub body: String,
}

/// One support cell of a generated client.
pub struct Cell {
    pub capability: usize,
    pub status: &'static str,
    pub commit: String,
    pub research: Option<usize>,
}

/// Generates note `n` of `notes`.
pub fn note(n: usize, notes: usize, rng: &mut Rng) -> Note {
    let client = rng.below(CLIENTS);
    let capability = rng.below(CAPABILITIES);
    let revision = REVISIONS[rng.below(REVISIONS.len())];
    let forward = [n + 1, n + 7].into_iter().filter(|&r| r < notes);
    let back = [n.checked_sub(1), n.checked_sub(7)].into_iter().flatten();
    let mut related: Vec<usize> = forward.chain(back).collect();
    // One note in three also names a far note that does not name it back (FN504), as authors do.
    if notes > 20 && rng.below(3) == 0 {
        let far = (n + 10 + rng.below(notes - 20)) % notes;
        if !related.contains(&far) && far != n && far.abs_diff(n) != 1 && far.abs_diff(n) != 7 {
            related.push(far);
        }
    }
    let last_verified = if rng.below(5) == 0 {
        format!("2025-{:02}-{:02}", 1 + rng.below(12), 1 + rng.below(28))
    } else {
        format!("2026-10-{:02}", 1 + rng.below(28))
    };
    let title = format!("Client {client} handles {} {} {n}", rng.word(), rng.word());
    let sources = (0..2)
        .map(|k| Source {
            file: format!("src/file{k}.ts"),
            commit: format!("{:010x}", rng.next() >> 24),
            ranges: format!("{}-{},{}-{}", 10 + k, 40 + k, 60 + k, 90 + k),
            date: format!("2024-12-0{}", k + 1),
        })
        .collect();
    let mut body = format!("# {title}\n\n");
    let target = 2500 + rng.below(3000);
    // One fenced block of unique code per note, a second one in one note of four.
    let blocks = 1 + usize::from(rng.below(4) == 0);
    let mut section = 0;
    while body.len() < target || section < blocks {
        let _ = write!(body, "## {} {}\n\n", capitalized(rng.word()), rng.word());
        section += 1;
        for _ in 0..1 + rng.below(3) {
            paragraph(&mut body, rng);
        }
        if rng.below(3) == 0 {
            for _ in 0..2 + rng.below(4) {
                let _ = writeln!(body, "- `{}` {} {}", rng.word(), rng.word(), rng.word());
            }
            body.push('\n');
        }
        if section <= blocks {
            let lang = code::LANGUAGES[rng.below(code::LANGUAGES.len())];
            body.push_str(&code::block(lang, n * 2 + section, rng));
        }
    }
    body.push_str("## Related notes\n\n");
    for r in &related {
        let _ = writeln!(body, "- [{0}](/research/{0}.md)", note_id(*r));
    }
    Note {
        id: note_id(n),
        summary: format!(
            "Generated note {n} about client {client} and {}.",
            capability_id(capability)
        ),
        title,
        client,
        capability,
        revision,
        sources,
        related,
        last_verified,
        body,
    }
}

/// A paragraph of 20–70 words with the odd emphasis, inline code and site links.
fn paragraph(body: &mut String, rng: &mut Rng) {
    for i in 0..20 + rng.below(50) {
        match rng.below(12) {
            0 => {
                let _ = write!(body, "**{}** ", rng.word());
            }
            1 => {
                let _ = write!(body, "`{}_{}` ", rng.word(), rng.below(1000));
            }
            2 if i > 0 => body.push_str(". "),
            _ => {
                body.push_str(rng.word());
                body.push(' ');
            }
        }
    }
    let _ = write!(
        body,
        "see [{c}](/clients/{c}.md) and [the capability](/capabilities/{cap}.md).\n\n",
        c = client_id(rng.below(CLIENTS)),
        cap = capability_id(rng.below(CAPABILITIES))
    );
}

fn capitalized(word: &str) -> String {
    word[..1].to_uppercase() + &word[1..]
}

/// Generates the support map of client `c`.
pub fn cells(notes: usize, rng: &mut Rng) -> Vec<Cell> {
    let mut cells = Vec::new();
    for capability in 0..CAPABILITIES {
        if rng.below(4) == 0 {
            continue;
        }
        let status = ["yes", "partial", "no"][rng.below(3)];
        let commit = format!("{:012x}", rng.next() >> 16);
        let research = (notes > 0 && rng.below(3) == 0).then(|| rng.below(notes));
        cells.push(Cell {
            capability,
            status,
            commit,
            research,
        });
    }
    cells
}
