//! Unique code blocks for the generated notes: TypeScript, JSON, YAML, TOML, shell and Python,
//! each with identifiers, literals and structure drawn from the seeded generator, so no two
//! notes share a snippet (as in real notes) and a highlight cache cannot answer for them.

use crate::corpus::Rng;
use std::fmt::Write as _;

/// The languages of generated code blocks, as written after the fence.
pub const LANGUAGES: [&str; 6] = ["typescript", "json", "yaml", "toml", "sh", "python"];

const NOUNS: [&str; 20] = [
    "transport",
    "session",
    "server",
    "client",
    "request",
    "stream",
    "header",
    "config",
    "schema",
    "timeout",
    "retry",
    "endpoint",
    "token",
    "message",
    "resource",
    "prompt",
    "handler",
    "cursor",
    "payload",
    "capability",
];
const VERBS: [&str; 12] = [
    "open", "close", "send", "parse", "resolve", "fetch", "load", "build", "check", "connect",
    "refresh", "list",
];

/// A fenced block (fence and language included) of `lang` with `unique` mixed into its names.
pub fn block(lang: &str, unique: usize, rng: &mut Rng) -> String {
    let mut g = Gen { rng, unique };
    let code = match lang {
        "typescript" => g.typescript(),
        "json" => g.json(),
        "yaml" => g.yaml(),
        "toml" => g.toml(),
        "sh" => g.shell(),
        _ => g.python(),
    };
    format!("```{lang}\n{code}```\n\n")
}

struct Gen<'a> {
    rng: &'a mut Rng,
    unique: usize,
}

impl Gen<'_> {
    fn noun(&mut self) -> &'static str {
        NOUNS[self.rng.below(NOUNS.len())]
    }
    fn verb(&mut self) -> &'static str {
        VERBS[self.rng.below(VERBS.len())]
    }
    fn int(&mut self) -> usize {
        self.rng.below(100_000)
    }
    /// `sendSession42`: camel case with a number that differs from note to note.
    fn camel(&mut self) -> String {
        let (v, n) = (self.verb(), self.noun());
        let mut s = String::from(v);
        s.push_str(&n[..1].to_uppercase());
        s.push_str(&n[1..]);
        let _ = write!(s, "{}", self.unique % 97 + self.rng.below(50));
        s
    }
    /// `session_timeout_7`
    fn snake(&mut self) -> String {
        let (a, b) = (self.noun(), self.noun());
        format!("{a}_{b}_{}", self.rng.below(100))
    }
    fn string(&mut self) -> String {
        match self.rng.below(4) {
            0 => format!(
                "https://{}.example.org/{}/{}",
                self.noun(),
                self.noun(),
                self.int()
            ),
            1 => format!(
                "{}-{}-{:x}",
                self.noun(),
                self.verb(),
                self.rng.next() >> 40
            ),
            2 => format!(
                "2025-{:02}-{:02}",
                1 + self.rng.below(12),
                1 + self.rng.below(28)
            ),
            _ => format!("{} {} {}", self.verb(), self.noun(), self.unique),
        }
    }
    fn count(&mut self, low: usize, high: usize) -> usize {
        low + self.rng.below(high - low + 1)
    }

    fn typescript(&mut self) -> String {
        let mut s = String::new();
        let iface = format!("{}Options{}", self.noun().to_uppercase(), self.unique);
        let _ = writeln!(s, "interface {iface} {{");
        for _ in 0..self.count(2, 5) {
            let ty = ["string", "number", "boolean", "string[]"][self.rng.below(4)];
            let _ = writeln!(s, "  {}?: {ty};", self.snake());
        }
        s.push_str("}\n\n");
        for _ in 0..self.count(1, 3) {
            let f = self.camel();
            let _ = writeln!(
                s,
                "export async function {f}(opts: {iface}, retries = {}): Promise<void> {{",
                self.count(1, 9)
            );
            for _ in 0..self.count(2, 5) {
                match self.rng.below(4) {
                    0 => {
                        let _ = writeln!(
                            s,
                            "  const {} = await fetch(\"{}\");",
                            self.snake(),
                            self.string()
                        );
                    }
                    1 => {
                        let _ = writeln!(
                            s,
                            "  if (retries > {}) {{ throw new Error(`{}: ${{retries}}`); }}",
                            self.count(1, 20),
                            self.string()
                        );
                    }
                    2 => {
                        let _ = writeln!(
                            s,
                            "  for (const item of opts.{} ?? []) {{ console.log(item, {}); }}",
                            self.snake(),
                            self.int()
                        );
                    }
                    _ => {
                        let _ = writeln!(
                            s,
                            "  // {} the {} before {}",
                            self.verb(),
                            self.noun(),
                            self.verb()
                        );
                    }
                }
            }
            s.push_str("}\n\n");
        }
        s.pop();
        s
    }

    fn json(&mut self) -> String {
        let mut s = String::from("{\n");
        let id = self.unique;
        let _ = write!(
            s,
            "  \"jsonrpc\": \"2.0\",\n  \"id\": {},\n  \"method\": \"{}/{}\",\n  \"params\": {{\n",
            id,
            self.noun(),
            self.verb()
        );
        let fields = self.count(2, 6);
        for i in 0..fields {
            let key = self.camel();
            let value = match self.rng.below(4) {
                0 => format!("\"{}\"", self.string()),
                1 => self.int().to_string(),
                2 => ["true", "false", "null"][self.rng.below(3)].to_string(),
                _ => format!("[{}, {}]", self.int(), self.int()),
            };
            let comma = if i + 1 < fields { "," } else { "" };
            let _ = writeln!(s, "    \"{key}\": {value}{comma}");
        }
        s.push_str("  }\n}\n");
        s
    }

    fn yaml(&mut self) -> String {
        let mut s = format!(
            "# {} for note {}\nmcpServers:\n",
            self.string(),
            self.unique
        );
        for _ in 0..self.count(1, 3) {
            let _ = writeln!(s, "  {}:", self.snake());
            match self.rng.below(2) {
                0 => {
                    let _ = writeln!(s, "    url: {}\n    timeout: {}", self.string(), self.int());
                }
                _ => {
                    let _ = writeln!(
                        s,
                        "    command: npx\n    args:\n      - -y\n      - \"@example/{}-{}\"",
                        self.noun(),
                        self.unique
                    );
                }
            }
            let _ = writeln!(s, "    enabled: {}", self.rng.below(2) == 0);
        }
        s
    }

    fn toml(&mut self) -> String {
        let mut s = String::new();
        for _ in 0..self.count(1, 3) {
            let _ = writeln!(s, "[mcp_servers.{}]", self.snake());
            let _ = writeln!(s, "command = \"{}\"", self.string());
            let _ = writeln!(s, "args = [\"--{}\", \"{}\"]", self.noun(), self.int());
            let _ = writeln!(
                s,
                "startup_timeout_sec = {}.{}",
                self.count(1, 60),
                self.rng.below(10)
            );
            let _ = writeln!(s, "# {} {}\n", self.verb(), self.unique);
        }
        s.pop();
        s
    }

    fn shell(&mut self) -> String {
        let mut s = String::from("#!/usr/bin/env bash\nset -euo pipefail\n");
        let var = self.snake().to_uppercase();
        let _ = writeln!(s, "{var}=\"${{1:-{}}}\"", self.string());
        for _ in 0..self.count(2, 5) {
            match self.rng.below(3) {
                0 => {
                    let _ = writeln!(
                        s,
                        "curl -sS -H 'Mcp-Session-Id: {:x}' \"${var}/{}\" | jq '.{}'",
                        self.rng.next() >> 32,
                        self.noun(),
                        self.noun()
                    );
                }
                1 => {
                    let _ = writeln!(
                        s,
                        "if [ \"$#\" -gt {} ]; then echo \"{}\" >&2; exit {}; fi",
                        self.count(1, 5),
                        self.string(),
                        self.count(1, 9)
                    );
                }
                _ => {
                    let _ = writeln!(
                        s,
                        "for f in {}/*.json; do grep -c {} \"$f\"; done",
                        self.noun(),
                        self.snake()
                    );
                }
            }
        }
        s
    }

    fn python(&mut self) -> String {
        let mut s = String::from("import json\n\n");
        for _ in 0..self.count(1, 3) {
            let f = self.snake();
            let _ = writeln!(s, "def {f}(config, retries={}):", self.count(1, 9));
            let _ = writeln!(
                s,
                "    \"\"\"{} the {} ({})\"\"\"",
                self.verb(),
                self.noun(),
                self.unique
            );
            for _ in 0..self.count(2, 4) {
                match self.rng.below(3) {
                    0 => {
                        let _ = writeln!(
                            s,
                            "    if config.get(\"{}\") == \"{}\":\n        return {}",
                            self.noun(),
                            self.string(),
                            self.int()
                        );
                    }
                    1 => {
                        let _ = writeln!(
                            s,
                            "    {} = json.loads('{{\"{}\": {}}}')",
                            self.snake(),
                            self.noun(),
                            self.int()
                        );
                    }
                    _ => {
                        let _ = writeln!(
                            s,
                            "    for item in config[\"{}\"]:\n        print(item, {})",
                            self.noun(),
                            self.int()
                        );
                    }
                }
            }
            s.push_str("    return None\n\n");
        }
        s.pop();
        s
    }
}
