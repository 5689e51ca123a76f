//! A session written as an observation: `DIR/<id>.jsonl` (the transcript, [`scrub`]bed of
//! machine folders) and `DIR/<id>.md` (front matter in the shape lint reads, results from
//! [`rules`]), each written to a new temporary file and renamed into place; temporary files
//! a killed probe left behind are removed.
//!
//! [`rules`]: super::rules
//! [`scrub`]: super::scrub

use super::package::Package;
use super::rules;
use super::scrub;
use super::session::Session;
use crate::error::{Error, Result};
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Mutex;

/// The longest observation id.
const MAX_ID_BYTES: usize = 100;

/// The site's clients by the `clientInfo.name`s they claim: most names one client, but an
/// SDK's default (the Python SDK's `mcp`) can be claimed by every client that leaves it.
#[derive(Debug, Default, Clone)]
pub(crate) struct ClientNames(BTreeMap<String, Vec<String>>);

impl ClientNames {
    /// The names of the site in `root` (its clients' `clientInfoNames`); none when the site
    /// cannot be read (said on standard error: the probe still records).
    pub fn of_site(root: &Path) -> ClientNames {
        match crate::open(root) {
            Ok(index) => ClientNames::of_pairs(index.content.clients.iter().flat_map(|c| {
                let id = c.id.as_ref().map(|id| id.value.clone());
                (c.client_info_names.iter())
                    .filter_map(move |n| Some((n.value.clone(), id.clone()?)))
            })),
            Err(error) => {
                eprintln!(
                    "warning: {}; clients are named by their clientInfo.name",
                    error.terminal_line()
                );
                ClientNames::default()
            }
        }
    }

    fn of_pairs(pairs: impl Iterator<Item = (String, String)>) -> ClientNames {
        let mut names: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (name, id) in pairs {
            names.entry(name).or_default().push(id);
        }
        names.values_mut().for_each(|ids| ids.sort());
        ClientNames(names)
    }

    #[cfg(test)]
    pub fn of(pairs: &[(&str, &str)]) -> ClientNames {
        ClientNames::of_pairs(pairs.iter().map(|(n, id)| (n.to_string(), id.to_string())))
    }

    /// The client id for `name`: the site's client claiming it, or claiming the proxy a name
    /// like `host (via mcp-remote 0.15.1)` names (a proxy forwards its host's clientInfo with
    /// its own name added), else its kebab-case. Of several clients claiming it, the one
    /// `--client` names, else the one the package that ran is named for (its name, or the
    /// longest id its name holds); failing both, the first, and standard error says so.
    fn client_id(&self, name: &str, client: Option<&str>, package: Option<&str>) -> String {
        let proxy = crate::model::proxy_name(name);
        let claimants = self.0.get(name).or_else(|| self.0.get(proxy?));
        let Some(claimants) = claimants else {
            return match kebab(name) {
                k if k.is_empty() => "unknown".to_string(),
                k => k,
            };
        };
        if let [only] = claimants.as_slice() {
            return only.clone();
        }
        let given = client
            .map(kebab)
            .and_then(|c| claimants.iter().find(|id| **id == c));
        let base = package.map(|p| p.rsplit('/').next().unwrap_or(p));
        let named = base.and_then(|base| {
            (claimants.iter())
                .filter(|id| base.contains(id.as_str()))
                .max_by_key(|id| (base == id.as_str(), id.len()))
        });
        given.or(named).cloned().unwrap_or_else(|| {
            eprintln!(
                "warning: clientInfo.name `{name}` is claimed by {}: filed under {}; name the \
                 package that ran (--package) or the client (--client)",
                claimants.join(", "),
                claimants[0]
            );
            claimants[0].clone()
        })
    }
}

/// Writes sessions' observations into one folder.
#[derive(Debug)]
pub(crate) struct Writer {
    pub dir: PathBuf,
    /// How the client was driven, as `--command` said.
    pub command: String,
    /// The probe's mode: `stdio`, `streamable`, `sse`, `legacy-only-404`, `legacy-only-405`,
    /// `expire-session`.
    pub mode: &'static str,
    pub clients: ClientNames,
    /// The package that ran, when `--package` named it.
    pub package: Option<Package>,
    /// `--auth oauth`: what the probe offered (`probe.auth`), and the id's part for it.
    pub auth: Option<(String, String)>,
    /// `--client`: the client id of a session that sent no clientInfo, or sent a name
    /// several clients claim.
    pub client: Option<String>,
    /// Ids picked by this process.
    taken: Mutex<BTreeSet<String>>,
    /// Whether temporary files left by killed probes were looked for.
    swept: std::sync::atomic::AtomicBool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FrontMatter<'a> {
    id: &'a str,
    client: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    client_info: Option<Value>,
    observed: String,
    transport: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    protocol_version: Option<&'a str>,
    probe: ProbeInfo,
    #[serde(skip_serializing_if = "Option::is_none")]
    package: Option<&'a Package>,
    outcome: &'static str,
    command: &'a str,
    transcript: String,
}

/// The last field of the front matter, on its own: [`results_yaml`] writes it.
#[derive(Serialize)]
struct ResultsBlock<'a> {
    results: &'a BTreeMap<&'static str, rules::Finding>,
}

/// The `results:` block of an observation's front matter, as [`Writer::write`] writes it
/// after the other fields (YAML lines, each ending in a newline; machine folders not yet
/// scrubbed). `fieldnotes probe judge` writes a block again with it.
pub(crate) fn results_yaml(
    results: &BTreeMap<&'static str, rules::Finding>,
) -> std::result::Result<String, serde_yaml::Error> {
    serde_yaml::to_string(&ResultsBlock { results })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ProbeInfo {
    version: &'static str,
    mode: &'static str,
    protocol: &'static str,
    settle_ms: u128,
    idle_ms: u128,
    #[serde(skip_serializing_if = "Option::is_none")]
    auth: Option<String>,
}

impl Writer {
    pub fn new(dir: PathBuf, command: String, mode: &'static str, clients: ClientNames) -> Writer {
        Writer {
            dir,
            command,
            mode,
            clients,
            package: None,
            auth: None,
            client: None,
            taken: Mutex::new(BTreeSet::new()),
            swept: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Removes what was written of `session` (a refused attempt a session then took over).
    pub fn remove(&self, session: &mut Session) {
        if let Some(id) = session.observation_id.take() {
            for name in [format!("{id}.md"), format!("{id}.jsonl")] {
                let _ = std::fs::remove_file(self.dir.join(name));
            }
        }
    }

    /// Removes the temporary files and id claims of probes no longer running (killed
    /// mid-write): a `.tmp` holding a full transcript must not stay beside an older snapshot,
    /// nor a claim keep an id from use.
    fn sweep(&self) {
        if self.swept.swap(true, Ordering::Relaxed) {
            return;
        }
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            let Some(pid) = temporary_pid(name).or_else(|| super::claim::holder(&entry.path()))
            else {
                continue;
            };
            let alive = pid == std::process::id()
                || Path::new(&format!("/proc/{pid}")).exists()
                || !Path::new("/proc/self").exists();
            if !alive {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }

    /// Writes (or writes again) `session`'s observation; returns the `.md` path. A session
    /// with nothing recorded writes nothing.
    pub fn write(&self, session: &mut Session) -> Result<Option<PathBuf>> {
        if session.transcript.is_empty() {
            return Ok(None);
        }
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| Error::io(&self.dir, "create the observations folder", e))?;
        self.sweep();
        let name = session
            .client_info
            .as_ref()
            .and_then(|i| i.get("name"))
            .and_then(Value::as_str);
        let client = match (name, &self.client) {
            (None, Some(given)) if !kebab(given).is_empty() => kebab(given),
            _ => {
                let package = self.package.as_ref().map(|p| p.name.as_str());
                (self.clients).client_id(name.unwrap_or(""), self.client.as_deref(), package)
            }
        };
        let id = match &session.observation_id {
            Some(id) => id.clone(),
            None => {
                let id = self.pick_id(session, &client);
                session.observation_id = Some(id.clone());
                id
            }
        };
        // The scripted model's lines of the session's time, and its mark, join its transcript.
        let from = super::transcript::stamp(session.started);
        let model = super::model::lines_between(&self.dir, &from, &super::transcript::now());
        let model = super::session_mark::own_lines(model, &session.mark);
        // The probe's lines in time order to the millisecond (ties keep the order they were
        // written in: a request's HTTP line before its message, an answer after the request
        // it answers); then the model's lines merged in by their full stamps.
        let mut records = session.transcript.records().to_vec();
        records.sort_by(|a, b| to_the_millisecond(&a.t).cmp(to_the_millisecond(&b.t)));
        let records = super::session_mark::merge(&records, model);
        let front = FrontMatter {
            id: &id,
            client,
            client_info: session.client_info.clone(),
            observed: session.started.format("%Y-%m-%d").to_string(),
            transport: session.transport.id(),
            protocol_version: session.protocol_version.as_deref(),
            probe: ProbeInfo {
                version: env!("CARGO_PKG_VERSION"),
                mode: self.mode,
                protocol: session.settings.protocol.id(),
                settle_ms: session.settings.settle.as_millis(),
                idle_ms: session.settings.idle.as_millis(),
                auth: self.auth.as_ref().map(|(described, _)| described.clone()),
            },
            package: self.package.as_ref(),
            outcome: if session.handshake {
                "session"
            } else {
                "no-session"
            },
            command: &self.command,
            transcript: format!("{id}.jsonl"),
        };
        let results = rules::results(
            &rules::Seen {
                transport: session.transport,
                mode: self.mode,
                handshake: session.handshake,
            },
            &records,
        );
        let yaml = serde_yaml::to_string(&front)
            .and_then(|front| Ok(front + &results_yaml(&results)?))
            .map_err(|e| Error::Usage {
                message: format!("could not write the observation {id}: {e}"),
            })?;
        let markdown = scrub::folders(&format!(
            "---\n{yaml}---\nObserved by `fieldnotes probe`. Add what a person saw below.\n"
        ));
        self.replace(
            &format!("{id}.jsonl"),
            scrub::folders(&super::transcript::to_jsonl(&records)).as_bytes(),
        )?;
        let md = self.replace(&format!("{id}.md"), markdown.as_bytes())?;
        super::claim::release(&self.dir, &id);
        session.dirty = false;
        Ok(Some(md))
    }

    /// A new id: `<client>-<version>-<transport>[-<mode>][-2026-07-28][-no-session]-<yyyymmdd>-<hhmmss>`,
    /// made unique (among this process's ids, the files there, and other probes' claims);
    /// the version is the package's when `--package` named it.
    fn pick_id(&self, session: &Session, client: &str) -> String {
        let sent = session
            .client_info
            .as_ref()
            .and_then(|i| i.get("version"))
            .and_then(Value::as_str);
        let version = (self.package.as_ref().map(|p| p.version.as_str()))
            .or(sent)
            .map(kebab)
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| "unknown".to_string());
        let transport = kebab(
            &session
                .transport
                .id()
                .replace("streamableHttp", "streamable-http"),
        );
        let mut mode = if self.mode.starts_with("legacy-only") || self.mode == "expire-session" {
            format!("-{}", self.mode)
        } else {
            String::new()
        };
        if session.settings.protocol == super::settings::Protocol::Next {
            mode.push_str("-2026-07-28");
        }
        if let Some((_, tag)) = &self.auth {
            mode.push('-');
            mode.push_str(tag);
        }
        if !session.handshake {
            mode.push_str("-no-session");
        }
        let stamp = session.started.format("%Y%m%d-%H%M%S");
        let tail = format!("-{transport}{mode}-{stamp}");
        let room = MAX_ID_BYTES - tail.len() - 3;
        let version = cut(&version, 24);
        let client = cut(client, room.saturating_sub(version.len() + 1).max(1));
        let base = format!("{client}-{version}{tail}");
        let mut taken = self.taken.lock().unwrap_or_else(|e| e.into_inner());
        let mut id = base.clone();
        let mut n = 2;
        while taken.contains(&id)
            || self.dir.join(format!("{id}.md")).exists()
            || !super::claim::claim(&self.dir, &id)
        {
            id = format!("{base}-{n}");
            n += 1;
        }
        taken.insert(id.clone());
        id
    }

    /// Writes `name` in the folder by way of a new temporary file renamed over it, through
    /// the one write layer (a symlinked `content/observations` is refused, not written into).
    fn replace(&self, name: &str, bytes: &[u8]) -> Result<PathBuf> {
        let folder = crate::beneath::Root::in_site(&self.dir)?;
        folder.replace(std::path::Path::new(name), bytes)?;
        Ok(self.dir.join(name))
    }
}

/// The process id in a temporary file's name `.<name>.<pid>.<n>.tmp`.
fn temporary_pid(name: &str) -> Option<u32> {
    let inner = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let mut parts = inner.rsplitn(3, '.');
    let _n: usize = parts.next()?.parse().ok()?;
    parts.next()?.parse().ok()
}

/// `Claude Code 2.1` → `claude-code-2-1`.
pub(crate) fn kebab(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// At most `bytes` of a kebab-case string, without a trailing dash.
fn cut(text: &str, bytes: usize) -> String {
    text[..text.len().min(bytes)]
        .trim_end_matches('-')
        .to_string()
}

/// A stamp cut to the millisecond (`2026-12-01T23:15:00.123`): the probe's own lines are
/// ordered at that grain, as they were before stamps had microseconds.
fn to_the_millisecond(t: &str) -> &str {
    t.get(..23).unwrap_or(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe::session::Transport;
    use crate::probe::settings::Settings;
    use serde_json::json;
    use std::time::Duration;

    #[test]
    fn a_name_several_clients_claim_goes_to_the_client_or_package_that_ran() {
        let clients = ClientNames::of(&[
            ("mcp", "mcp-agent"),
            ("mcp", "hermes-agent"),
            ("mcp", "gptme"),
            ("goose", "goose"),
        ]);
        let id = |client, package| clients.client_id("mcp", client, package);
        assert_eq!(id(None, Some("hermes-agent")), "hermes-agent");
        assert_eq!(id(None, Some("gptme")), "gptme");
        // The longest id the package's name holds: not `gptme` for a package named for both.
        assert_eq!(id(None, Some("@x/mcp-agent-gptme-bridge")), "mcp-agent");
        assert_eq!(id(Some("gptme"), Some("hermes-agent")), "gptme");
        // Nothing to choose by: the first, by id.
        assert_eq!(id(None, None), "gptme");
        assert_eq!(id(None, Some("other")), "gptme");
        assert_eq!(
            clients.client_id("goose", None, Some("hermes-agent")),
            "goose"
        );
    }

    #[test]
    fn an_observation_is_written_with_the_site_client_and_a_unique_id() {
        let dir = tempfile::tempdir().expect("temp");
        let clients =
            ClientNames::of(&[("claude-code", "claude-code"), ("mcp-remote", "mcp-remote")]);
        assert_eq!(
            clients.client_id("host (via mcp-remote 0.15.1)", None, None),
            "mcp-remote"
        );
        assert_eq!(
            clients.client_id("host (via other 1.0)", None, None),
            "host-via-other-1-0"
        );
        let writer = Writer::new(dir.path().into(), String::new(), "stdio", clients);
        let mut first = Session::new(Transport::Stdio, Settings::test(Duration::from_secs(1)));
        first.receive(
            json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{
            "protocolVersion":"2025-06-18","capabilities":{},
            "clientInfo":{"name":"claude-code","version":"2.1.328"}}}),
        );
        let mut second = Session::new(Transport::Stdio, Settings::test(Duration::from_secs(1)));
        second.started = first.started;
        second.receive(
            json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{
            "clientInfo":{"name":"Some Client!","version":"0.1"}}}),
        );
        let md = writer.write(&mut first).expect("written").expect("a file");
        let text = std::fs::read_to_string(&md).expect("read");
        let id = first.observation_id.clone().expect("an id");
        assert!(id.starts_with("claude-code-2-1-328-stdio-"), "{id}");
        assert!(text.contains("client: claude-code\n"), "{text}");
        assert!(text.contains("core.initialization:"), "{text}");
        assert!(dir.path().join(format!("{id}.jsonl")).is_file());
        writer.write(&mut second).expect("written");
        assert!(second
            .observation_id
            .expect("id")
            .starts_with("some-client-0-1-stdio-"));
        // Written again, the same files are replaced; no temporary file is left.
        writer.write(&mut first).expect("rewritten");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("list")
            .flatten()
            .collect();
        assert_eq!(names.len(), 4);
    }

    #[test]
    fn a_temporary_file_a_killed_probe_left_is_removed_and_a_live_ones_kept() {
        let dir = tempfile::tempdir().expect("temp");
        let dead = dir.path().join(".x-stdio.jsonl.4000000000.0.tmp");
        let live = dir
            .path()
            .join(format!(".y.md.{}.7.tmp", std::process::id()));
        std::fs::write(&dead, "the full transcript of a probe killed mid-write").expect("write");
        std::fs::write(&live, "being written").expect("write");
        let dead_claim = dir.path().join(".z-1-stdio-20261207-000000.claim");
        std::fs::write(&dead_claim, "4000000000").expect("write");
        let writer = Writer::new(
            dir.path().into(),
            String::new(),
            "stdio",
            ClientNames::default(),
        );
        let mut session = Session::new(Transport::Stdio, Settings::test(Duration::from_secs(1)));
        session.receive(
            json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{
            "clientInfo":{"name":"c","version":"1"}}}),
        );
        writer.write(&mut session).expect("written");
        assert!(!dead.exists(), "a dead probe's temporary file is removed");
        assert!(live.exists(), "this probe's own is not");
        assert!(!dead_claim.exists(), "a dead probe's claim is removed");
        assert_eq!(temporary_pid(".a.b.md.12.3.tmp"), Some(12));
        assert_eq!(temporary_pid("a.md"), None);
    }

    #[test]
    fn machine_folders_never_reach_the_files() {
        let dir = tempfile::tempdir().expect("temp");
        let writer = Writer::new(
            dir.path().into(),
            "cd /tmp/scratch-x && run".into(),
            "stdio",
            ClientNames::default(),
        );
        let mut session = Session::new(Transport::Stdio, Settings::test(Duration::from_secs(1)));
        session.receive(
            json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{
            "clientInfo":{"name":"c","version":"1","cwd":"/home/alice/project"}}}),
        );
        let md = writer
            .write(&mut session)
            .expect("written")
            .expect("a file");
        let text = std::fs::read_to_string(&md).expect("read");
        let jsonl = std::fs::read_to_string(md.with_extension("jsonl")).expect("read");
        for written in [&text, &jsonl] {
            assert!(
                !written.contains("/tmp/scratch-x") && !written.contains("alice"),
                "{written}"
            );
        }
        assert!(jsonl.contains("<home>/project"), "{jsonl}");
    }

    #[test]
    fn ids_stay_within_100_bytes() {
        let writer = Writer::new(
            "/nonexistent".into(),
            String::new(),
            "legacy-only-404",
            ClientNames::default(),
        );
        let mut session = Session::new(Transport::Sse, Settings::test(Duration::from_secs(1)));
        session.client_info = Some(json!({"name": "x".repeat(300), "version": "1".repeat(80)}));
        let id = writer.pick_id(&session, &"x".repeat(300));
        assert!(
            id.len() <= MAX_ID_BYTES && id.contains("-sse-legacy-only-404-"),
            "{id}"
        );
    }
}
