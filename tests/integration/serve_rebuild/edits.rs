//! Random edits to the basic fixture, for comparing incremental rebuilds to full builds: front
//! matter fields a page shows, body links and headings, notes added first or last (shifting
//! every note's place, or none), clients, capabilities, the guide and the settings.

use super::{read, ALPHA, BETA};
use crate::support::TestSite;

/// A small deterministic generator (xorshift64*): a failing run replays from its seed.
pub struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    /// A random subset of `items`, in their order; at least `min` of them.
    fn some<'a>(&mut self, items: &[&'a str], min: usize) -> Vec<&'a str> {
        loop {
            let chosen: Vec<&str> = items
                .iter()
                .copied()
                .filter(|_| self.below(2) == 0)
                .collect();
            if chosen.len() >= min {
                return chosen;
            }
        }
    }
}

const GAMMA: &str = "content/research/gamma-calls-tools-in-order.md";
const NOTE_IDS: [&str; 3] = [
    "alpha-defaults-to-sse",
    "beta-tries-streamable-http-first",
    "gamma-calls-tools-in-order",
];
/// Notes that come and go: one sorts first (every other note moves one place), one last.
const EXTRA: [&str; 2] = ["aardvark-comes-first", "zeta-comes-and-goes"];
const CLIENTS: [&str; 3] = ["client-a", "client-b", "client-c"];
const CAPABILITIES: [&str; 3] = ["transports.sse", "transports.streamableHttp", "tools.call"];
const GUIDE: &str = "content/guides/choosing-a-transport.md";

/// Edits that keep the site free of errors, mostly (an error is fine: the rebuild must then
/// report the same findings as a full lint and serve no new site).
pub struct Edits<'s> {
    random: Random,
    site: &'s TestSite,
    step: usize,
    /// Whether each of [`EXTRA`] exists.
    extra: [bool; 2],
}

impl<'s> Edits<'s> {
    pub fn new(site: &'s TestSite, seed: u64) -> Edits<'s> {
        Edits {
            random: Random(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15)),
            site,
            step: 0,
            extra: [false; 2],
        }
    }

    /// Makes one edit: what it was, and the paths it changed.
    pub fn next(&mut self) -> (String, Vec<String>) {
        self.step += 1;
        let n = self.step;
        let mut notes = vec![ALPHA.to_string(), BETA.to_string(), GAMMA.to_string()];
        notes.extend((0..2).filter(|&e| self.extra[e]).map(extra_path));
        let note = notes[self.random.below(notes.len())].clone();
        let other = self.random.pick(&NOTE_IDS);
        let text = || read(self.site, &note);
        let (what, text) = match self.random.below(18) {
            0 => ("title", set(text(), "title", &format!("Note {n} title"))),
            1 => {
                // Summary links are not checked: one may name a note that comes and goes.
                let target = match self.random.below(3) {
                    0 => format!("A summary, take {n}."),
                    1 => format!("Compare [{other}]({other}.md), take {n}."),
                    _ => format!("Compare [zeta]({}.md), take {n}.", EXTRA[1]),
                };
                ("summary", set(text(), "summary", &target))
            }
            2 => {
                let status = self.random.pick(&["current", "draft", "retracted"]);
                ("status", set(text(), "status", status))
            }
            3 => {
                let day = format!("2026-11-{}", 20 + self.random.below(10));
                ("lastVerified", set(text(), "lastVerified", &day))
            }
            4 => {
                let kind = self.random.pick(&["default-behaviour", "idiosyncrasy"]);
                ("kind", set(text(), "kind", kind))
            }
            5 => {
                let related = self.random.some(&NOTE_IDS, 0);
                ("related", set_list(text(), "related", &related))
            }
            6 => {
                let clients = self.random.some(&CLIENTS, 1);
                ("clients", set_list(text(), "clients", &clients))
            }
            7 => {
                let capabilities = self.random.some(&CAPABILITIES, 1);
                (
                    "capabilities",
                    set_list(text(), "capabilities", &capabilities),
                )
            }
            8 => {
                let anchor = if other == NOTE_IDS[1] {
                    "#fallback"
                } else {
                    ""
                };
                let line = format!("\nSee [note {n}](/research/{other}.md{anchor}).\n");
                ("body link", text() + &line)
            }
            9 => (
                "heading",
                text() + &format!("\n## Heading {n}\n\nText under it.\n"),
            ),
            10 => {
                let fixture = crate::support::fixtures().join("basic").join(&note);
                let text = match std::fs::read_to_string(fixture) {
                    Ok(original) => original,
                    Err(_) => self.extra_text(&note, n),
                };
                ("reset", text)
            }
            11 => {
                let client = format!("content/clients/{}.md", self.random.pick(&CLIENTS));
                let title = format!("{} Client {n}", self.random.pick(&["Able", "Omega"]));
                let text = set(read(self.site, &client), "title", &title);
                return self.write("client title", client, text);
            }
            12 => {
                let client = "content/clients/client-a.md";
                let status = self.random.pick(&["yes", "partial", "no"]);
                let text = read(self.site, client);
                let at = text.find("    status: ").expect("a cell");
                let end = at + text[at..].find('\n').expect("line end");
                let text = format!("{}    status: {status}{}", &text[..at], &text[end..]);
                return self.write("cell status", client.to_string(), text);
            }
            13 => {
                let path = format!(
                    "content/capabilities/{}.md",
                    self.random.pick(&CAPABILITIES)
                );
                let text = set(read(self.site, &path), "title", &format!("Capability {n}"));
                return self.write("capability title", path, text);
            }
            14 => {
                let text = set(read(self.site, GUIDE), "title", &format!("Guide {n}"));
                let text = text + &format!("\nSee [note {n}](/research/{other}.md).\n");
                return self.write("guide", GUIDE.to_string(), text);
            }
            15 => {
                let settings = set(read(self.site, "site.yaml"), "title", &format!("Site {n}"));
                return self.write("settings", "site.yaml".to_string(), settings);
            }
            extra => return self.toggle(extra % 2, n),
        };
        self.write(what, note, text)
    }

    /// Adds extra note `e` if it is missing, else removes it.
    fn toggle(&mut self, e: usize, n: usize) -> (String, Vec<String>) {
        let path = extra_path(e);
        self.extra[e] = !self.extra[e];
        match self.extra[e] {
            true => {
                let text = self.extra_text(&path, n);
                self.write("added", path, text)
            }
            false => {
                self.site.remove(&path);
                (format!("removed {path}"), vec![path])
            }
        }
    }

    fn write(&self, what: &str, path: String, text: String) -> (String, Vec<String>) {
        self.site.write(&path, &text);
        (format!("{what} {path}"), vec![path])
    }

    /// An extra note at `path`: gamma's front matter under its id, a body linking to alpha.
    fn extra_text(&self, path: &str, n: usize) -> String {
        let id = path
            .trim_start_matches("content/research/")
            .trim_end_matches(".md");
        let gamma = read(self.site, GAMMA);
        let front = &gamma[..gamma.find("\n---\n").expect("front matter") + 5];
        let front = front.replace(NOTE_IDS[2], id);
        let front = set(front, "title", &format!("Extra {id} {n}"));
        let front = set_list(front, "related", &[]);
        format!(
            "{front}\n# Extra\n\nIt [follows alpha](/research/{}.md).\n",
            NOTE_IDS[0]
        )
    }
}

fn extra_path(e: usize) -> String {
    format!("content/research/{}.md", EXTRA[e])
}

/// `text` with the front matter field `key` set to `value` (a line `key: …`).
fn set(text: String, key: &str, value: &str) -> String {
    let start = match text.starts_with(&format!("{key}:")) {
        true => 0,
        false => text.find(&format!("\n{key}:")).expect("the field") + 1,
    };
    let end = start + text[start..].find('\n').expect("line end");
    format!("{}{key}: {value}{}", &text[..start], &text[end..])
}

/// `text` with the front matter list `key` set to `items`.
fn set_list(text: String, key: &str, items: &[&str]) -> String {
    let start = text.find(&format!("\n{key}:")).expect("the list") + 1;
    let mut end = start + text[start..].find('\n').expect("line end") + 1;
    while text[end..].starts_with("  - ") {
        end += text[end..].find('\n').expect("line end") + 1;
    }
    let list = match items {
        [] => format!("{key}: []\n"),
        _ => items.iter().fold(format!("{key}:\n"), |list, item| {
            list + "  - " + item + "\n"
        }),
    };
    format!("{}{list}{}", &text[..start], &text[end..])
}
