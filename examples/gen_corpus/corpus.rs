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

pub fn note_id(i: usize) -> String {
    format!("note-{i:05}-client-behaviour")
}

/// The ids of `items`.
pub fn names(items: &[usize], id: impl Fn(usize) -> String) -> Vec<String> {
    items.iter().map(|&i| id(i)).collect()
}

/// An inclusive range of counts, drawn from evenly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count(pub usize, pub usize);

impl Count {
    /// A count in the range; a range of one value draws nothing (so the seed corpus's
    /// sequence of draws is kept).
    fn draw(self, rng: &mut Rng) -> usize {
        match self.1 > self.0 {
            true => self.0 + rng.below(self.1 - self.0 + 1),
            false => self.0,
        }
    }
}

/// How a note's `related` ids are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Related {
    /// Its neighbours `n ± 1` and `n ± 7` (both ways), and in one note of three a far note
    /// that does not name it back: the first generator's scheme.
    Neighbours,
    /// This many notes anywhere in the corpus, one way unless chance makes them mutual.
    Anywhere(Count),
}

/// What the corpus varies, which real knowledge bases vary too: how many clients and
/// capabilities the site has and a note names, how many sources and related notes a note
/// has, which languages its code is in and how long it is.
#[derive(Clone, Debug)]
pub struct Shape {
    pub clients: usize,
    pub capabilities: usize,
    pub clients_per_note: Count,
    pub capabilities_per_note: Count,
    pub revisions_per_note: Count,
    pub sources_per_note: Count,
    pub related: Related,
    /// The languages of fenced blocks, drawn from evenly.
    pub languages: Vec<&'static str>,
    /// A second fenced block in one note of this many (0: never).
    pub second_block_one_in: usize,
    /// Body bytes aimed at (front matter not counted), drawn from evenly.
    pub body_bytes: Count,
}

impl Shape {
    /// The corpus the project's generator first made (and every figure before issue 33 was
    /// measured on): one client, one capability and one revision per note, two sources,
    /// `related` by [`Related::Neighbours`], six languages, a second block in one note of four.
    /// Draws exactly as that generator did, so the same seed writes the same corpus.
    pub fn seed() -> Shape {
        Shape {
            clients: CLIENTS,
            capabilities: CAPABILITIES,
            clients_per_note: Count(1, 1),
            capabilities_per_note: Count(1, 1),
            revisions_per_note: Count(1, 1),
            sources_per_note: Count(2, 2),
            related: Related::Neighbours,
            languages: crate::code::LANGUAGES.to_vec(),
            second_block_one_in: 4,
            body_bytes: Count(2500, 5499),
        }
    }

    /// What knowledge bases made elsewhere have (issue 33's outside corpus, and the bundled
    /// site's notes): 1–3 clients, capabilities, sources and related ids a note, 1–2
    /// revisions, one block of code a note in JSON, Python, shell or TypeScript, notes of
    /// 3–6 KB.
    pub fn real() -> Shape {
        Shape {
            clients_per_note: Count(1, 3),
            capabilities_per_note: Count(1, 3),
            revisions_per_note: Count(1, 2),
            sources_per_note: Count(1, 3),
            related: Related::Anywhere(Count(1, 3)),
            languages: vec!["json", "python", "sh", "typescript"],
            second_block_one_in: 0,
            body_bytes: Count(2000, 4400),
            ..Shape::seed()
        }
    }

    /// Capabilities are spread over the [`GROUPS`], this many a group.
    fn per_group(&self) -> usize {
        self.capabilities.div_ceil(GROUPS.len()).max(1)
    }

    pub fn capability_id(&self, i: usize) -> String {
        let per = self.per_group();
        format!("{}.feature{}", GROUPS[i / per], i % per)
    }

    pub fn group_of(&self, capability: usize) -> &'static str {
        GROUPS[capability / self.per_group()]
    }
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
    /// The clients and capabilities it is about, the first of each its main one.
    pub clients: Vec<usize>,
    pub capabilities: Vec<usize>,
    pub revisions: Vec<&'static str>,
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

/// `count` distinct values below `n`, the first `first`.
fn distinct(first: usize, count: usize, n: usize, rng: &mut Rng) -> Vec<usize> {
    let mut out = vec![first];
    while out.len() < count.min(n) {
        let v = rng.below(n);
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// Generates note `n` of `notes`.
pub fn note(n: usize, notes: usize, shape: &Shape, rng: &mut Rng) -> Note {
    let client = rng.below(shape.clients);
    let capability = rng.below(shape.capabilities);
    let revision = REVISIONS[rng.below(REVISIONS.len())];
    let related = match shape.related {
        Related::Neighbours => neighbours(n, notes, rng),
        Related::Anywhere(count) => {
            let want = count.draw(rng);
            let mut related = Vec::new();
            for _ in 0..want * 4 {
                let r = rng.below(notes.max(1));
                if related.len() < want && r != n && !related.contains(&r) {
                    related.push(r);
                }
            }
            related
        }
    };
    let clients = distinct(client, shape.clients_per_note.draw(rng), shape.clients, rng);
    let capabilities = distinct(
        capability,
        shape.capabilities_per_note.draw(rng),
        shape.capabilities,
        rng,
    );
    let revision_count = shape.revisions_per_note.draw(rng);
    let mut revisions: Vec<&'static str> = distinct(
        REVISIONS.iter().position(|r| *r == revision).unwrap_or(0),
        revision_count,
        REVISIONS.len(),
        rng,
    )
    .into_iter()
    .map(|r| REVISIONS[r])
    .collect();
    revisions.sort_unstable();
    let last_verified = if rng.below(5) == 0 {
        format!("2025-{:02}-{:02}", 1 + rng.below(12), 1 + rng.below(28))
    } else {
        format!("2026-10-{:02}", 1 + rng.below(28))
    };
    let title = format!("Client {client} handles {} {} {n}", rng.word(), rng.word());
    let sources = (0..shape.sources_per_note.draw(rng))
        .map(|k| Source {
            file: format!("src/file{k}.ts"),
            commit: format!("{:010x}", rng.next() >> 24),
            ranges: format!("{}-{},{}-{}", 10 + k, 40 + k, 60 + k, 90 + k),
            date: format!("2024-12-0{}", k + 1),
        })
        .collect();
    let mut body = format!("# {title}\n\n");
    let target = shape.body_bytes.draw(rng);
    // One fenced block of unique code per note, a second one in some.
    let second = shape.second_block_one_in > 0 && rng.below(shape.second_block_one_in) == 0;
    let blocks = 1 + usize::from(second);
    let mut section = 0;
    while body.len() < target || section < blocks {
        let _ = write!(body, "## {} {}\n\n", capitalized(rng.word()), rng.word());
        section += 1;
        for _ in 0..1 + rng.below(3) {
            paragraph(&mut body, shape, rng);
        }
        if rng.below(3) == 0 {
            for _ in 0..2 + rng.below(4) {
                let _ = writeln!(body, "- `{}` {} {}", rng.word(), rng.word(), rng.word());
            }
            body.push('\n');
        }
        if section <= blocks {
            let lang = shape.languages[rng.below(shape.languages.len())];
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
            shape.capability_id(capability)
        ),
        title,
        clients,
        capabilities,
        revisions,
        sources,
        related,
        last_verified,
        body,
    }
}

/// [`Related::Neighbours`]: `n ± 1`, `n ± 7`, and in one note of three a far note.
fn neighbours(n: usize, notes: usize, rng: &mut Rng) -> Vec<usize> {
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
    related
}

/// A paragraph of 20–70 words with the odd emphasis, inline code and site links.
fn paragraph(body: &mut String, shape: &Shape, rng: &mut Rng) {
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
        c = client_id(rng.below(shape.clients)),
        cap = shape.capability_id(rng.below(shape.capabilities))
    );
}

fn capitalized(word: &str) -> String {
    word[..1].to_uppercase() + &word[1..]
}

/// Generates the support map of client `c`.
pub fn cells(notes: usize, shape: &Shape, rng: &mut Rng) -> Vec<Cell> {
    let mut cells = Vec::new();
    for capability in 0..shape.capabilities {
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
