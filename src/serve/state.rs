//! What the server shares between its threads: the site being served, the last build's
//! status, and the event hub.

use super::events::Hub;
use crate::diagnostic::{Diagnostic, Severity};
use crate::render::output::Shared;
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};
use std::sync::{Arc, Condvar, Mutex, RwLock};
use std::time::Duration;

/// The files of a built site, by output path.
pub type Files = BTreeMap<String, Shared>;

/// The state every request reads.
#[derive(Default)]
pub struct State {
    /// The last good build; `None` until one succeeds.
    site: RwLock<Option<Arc<Files>>>,
    status: RwLock<Arc<Status>>,
    /// `baseUrl`'s path, which links start with and requests may too.
    base_path: RwLock<String>,
    /// Files of the site being served that are out of date until the rebuild catches up
    /// (see [`crate::serve::rebuild::Rebuilder::defer_listings`]): requests for them wait.
    pending: Mutex<HashSet<String>>,
    caught_up: Condvar,
    pub hub: Hub,
}

/// How the last build went: what `/__fieldnotes/status` answers.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Status {
    /// False when the last build failed (and an older one, if any, is served).
    pub ok: bool,
    /// Builds done so far, failed ones included.
    pub build: u64,
    /// One line on how it went.
    pub message: String,
    /// What stopped it, each at its file, line and column where known.
    pub errors: Vec<Problem>,
    pub warnings: usize,
}

/// One problem that broke the build.
#[derive(Debug, Clone, Serialize)]
pub struct Problem {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
}

impl Problem {
    /// A lint finding as a problem.
    pub fn finding(d: &Diagnostic) -> Problem {
        Problem {
            code: Some(d.code),
            file: Some(d.file.clone()),
            line: Some(d.line),
            column: Some(d.column),
            message: d.message.clone(),
            help: d.help.clone(),
        }
    }

    /// An error that stopped the build before lint (a bad `site.yaml`, a broken template).
    pub fn error(e: &crate::Error) -> Problem {
        let (file, line, column) = match e {
            crate::Error::Config {
                path, line, column, ..
            } => (
                Some(crate::text_file::display_path(path)),
                Some(*line),
                Some(*column),
            ),
            crate::Error::Io { path, .. } => {
                (Some(crate::text_file::display_path(path)), None, None)
            }
            crate::Error::Template { name, .. } => (Some(format!("template {name}")), None, None),
            _ => (None, None, None),
        };
        Problem {
            code: None,
            file,
            line,
            column,
            message: e.to_string(),
            help: None,
        }
    }
}

impl Status {
    /// The status after a build with these findings.
    pub fn of(build: u64, diagnostics: &[Diagnostic]) -> Status {
        let errors: Vec<Problem> = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(Problem::finding)
            .collect();
        let warnings = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count();
        let message = match errors.len() {
            0 => "built".to_string(),
            1 => "1 error: showing the last good build".to_string(),
            n => format!("{n} errors: showing the last good build"),
        };
        Status {
            ok: errors.is_empty(),
            build,
            message,
            errors,
            warnings,
        }
    }

    /// The status after a build that could not run.
    pub fn failed(build: u64, error: &crate::Error) -> Status {
        Status {
            ok: false,
            build,
            message: "the build failed: showing the last good build".to_string(),
            errors: vec![Problem::error(error)],
            warnings: 0,
        }
    }
}

impl State {
    /// The site being served.
    pub fn site(&self) -> Option<Arc<Files>> {
        read(&self.site).clone()
    }

    /// Serves `files` from now on; `pending` of them are out of date until the next call.
    pub fn set_site(&self, files: Arc<Files>, pending: HashSet<String>) {
        // Both change under the pending lock: a request that finds a file not pending, then
        // reads the site, gets a site that file is up to date in (see `site_for`).
        let mut current = lock(&self.pending);
        *write(&self.site) = Some(files);
        *current = pending;
        drop(current);
        self.caught_up.notify_all();
    }

    /// The site to answer a request from: after waiting (at most `limit`) while the file
    /// `name_of` finds for it is out of date, the site as it is then. Read again whether it
    /// waited or not: the rebuild may have caught up between the first read and the check,
    /// and only a site read after the check is sure to have the file up to date.
    pub fn site_for(
        &self,
        name_of: impl Fn(&Files) -> Option<String>,
        limit: Duration,
    ) -> Option<Arc<Files>> {
        let files = self.site()?;
        let Some(name) = name_of(&files) else {
            return Some(files);
        };
        self.wait_while_pending(&name, limit);
        self.site()
    }

    /// Forgets which files were out of date (when catching up failed): requests stop waiting.
    pub fn clear_pending(&self) {
        lock(&self.pending).clear();
        self.caught_up.notify_all();
    }

    /// Waits, at most `limit`, while the file `name` is out of date; whether it waited.
    pub fn wait_while_pending(&self, name: &str, limit: Duration) -> bool {
        let pending = lock(&self.pending);
        if !pending.contains(name) {
            return false;
        }
        let waited = self
            .caught_up
            .wait_timeout_while(pending, limit, |p| p.contains(name));
        drop(waited);
        true
    }

    /// A cleaned request path without `baseUrl`'s path (`docs/research/x` → `research/x`
    /// when `baseUrl` is `https://x.io/docs`).
    pub fn strip_base<'p>(&self, path: &'p str) -> &'p str {
        let base = read(&self.base_path);
        let base = base.trim_start_matches('/');
        if base.is_empty() {
            return path;
        }
        match path.strip_prefix(base) {
            Some("") => "",
            Some(rest) if rest.starts_with('/') => &rest[1..],
            _ => path,
        }
    }

    pub fn set_base_path(&self, base_path: String) {
        *write(&self.base_path) = base_path;
    }

    pub fn status(&self) -> Arc<Status> {
        read(&self.status).clone()
    }

    pub fn set_status(&self, status: Status) {
        *write(&self.status) = Arc::new(status);
    }
}

/// A lock's value for reading. A thread that panicked while holding it left a whole value
/// behind (each is replaced in one assignment), so it is still good to read.
fn read<T>(lock: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A mutex's value (see [`read`]).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A lock's value for replacing (see [`read`]).
fn write<T>(lock: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_base_path_is_taken_off_requests() {
        let state = State::default();
        assert_eq!(state.strip_base("research/x"), "research/x");
        state.set_base_path("/docs".to_string());
        assert_eq!(state.strip_base("docs/research/x"), "research/x");
        assert_eq!(state.strip_base("docs"), "");
        assert_eq!(state.strip_base("docsx/y"), "docsx/y");
        assert_eq!(state.strip_base("research/x"), "research/x");
    }

    /// The rebuild catches up between a request's first read of the site and its check of
    /// what is pending: the request must still get the caught-up site.
    #[test]
    fn a_request_gets_the_caught_up_site_when_it_catches_up_in_between() {
        let state = State::default();
        let site = |text: &str| {
            let bytes: Shared = Arc::new(text.as_bytes().to_vec());
            Arc::new(Files::from([("research.html".to_string(), bytes)]))
        };
        let pending = HashSet::from(["research.html".to_string()]);
        state.set_site(site("old"), pending);
        let name_of = |_: &Files| {
            state.set_site(site("new"), HashSet::new());
            Some("research.html".to_string())
        };
        let files = state
            .site_for(name_of, Duration::from_secs(5))
            .expect("a site");
        assert_eq!(files["research.html"].as_slice(), b"new");
    }

    #[test]
    fn a_request_for_a_pending_file_waits_until_the_site_catches_up() {
        let state = Arc::new(State::default());
        let pending = HashSet::from(["research.html".to_string()]);
        state.set_site(Arc::new(Files::new()), pending);
        assert!(!state.wait_while_pending("research/x.html", Duration::from_secs(5)));
        let waiter = {
            let state = state.clone();
            std::thread::spawn(move || {
                let started = std::time::Instant::now();
                let waited = state.wait_while_pending("research.html", Duration::from_secs(30));
                (waited, started.elapsed())
            })
        };
        std::thread::sleep(Duration::from_millis(50));
        state.set_site(Arc::new(Files::new()), HashSet::new());
        let (waited, took) = waiter.join().expect("the waiting thread");
        assert!(waited);
        assert!(took >= Duration::from_millis(40) && took < Duration::from_secs(30));
    }
}
