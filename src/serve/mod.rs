//! `fieldnotes serve`: build the site in memory, serve it, rebuild what an edit changed and
//! tell open pages to reload.
//!
//! [`rebuild`] builds incrementally (each page rendered again only when an input it read
//! while it rendered changed; [`fingerprint`] says what each input is now), [`watch`] reports
//! changed files, [`wire`] reads requests within fixed limits, [`http`] answers them
//! ([`paths`] refuses traversal and maps routes to files), [`events`] streams reloads to open
//! pages, and
//! [`state`] holds the site being served and the last build's status. An edit that breaks the
//! site leaves the last good build served, and its errors are printed and shown on the page.
//! After an edit the note pages are served first and the listings, feeds and data API right
//! after; a request for one of those in between waits for it.

pub(crate) mod events;
pub(crate) mod findings;
pub(crate) mod fingerprint;
pub(crate) mod http;
pub(crate) mod paths;
pub mod rebuild;
pub(crate) mod state;
pub mod watch;
pub(crate) mod wire;

use crate::error::{Error, Result};
use rebuild::{Rebuilder, Rebuilt};
use state::{Files, State, Status};
use std::collections::HashSet;
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// What `serve` is asked to do.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    pub root: PathBuf,
    /// The address to listen on (loopback by default).
    pub bind: String,
    /// The port; 0 picks a free one.
    pub port: u16,
    /// Open the site in a browser once it is served.
    pub open: bool,
    /// The day lint measures "future" and "stale" from.
    pub today: chrono::NaiveDate,
    /// Colour in printed findings.
    pub color: bool,
    /// `-q`: errors and warnings only, no status line after each rebuild.
    pub quiet: bool,
}

/// Serves the site until the process is stopped.
pub fn serve(options: &ServeOptions) -> Result<()> {
    let listener =
        TcpListener::bind((options.bind.as_str(), options.port)).map_err(|e| Error::Usage {
            message: format!(
                "could not listen on {}:{}: {e}; choose another --port or --bind",
                options.bind, options.port
            ),
        })?;
    let port = listener.local_addr().map_or(options.port, |a| a.port());
    let host = match options.bind.contains(':') {
        true => format!("[{}]", options.bind),
        false => options.bind.clone(),
    };
    let url = format!("http://{host}:{port}/");
    let watch = watch::watch(&options.root)?;
    let state = Arc::new(State::default());
    // Links are root-relative (under `baseUrl`'s path): the site's own `baseUrl` stays, so
    // canonical URLs lint as they do in `build`.
    let mut rebuilder = Rebuilder::new(&options.root, None, options.today);
    rebuilder.defer_listings(true);
    let mut server_side = Serving {
        state: state.clone(),
        options,
        builds: 0,
        findings: findings::Findings::default(),
        search_stale: false,
        failing: false,
    };
    let started = Instant::now();
    let first = rebuilder.build();
    server_side.publish(&mut rebuilder, first, started);
    server_side.search(&rebuilder, &|| false);
    let hosts = Arc::new(http::Hosts::new(&options.bind));
    let accept_state = state.clone();
    std::thread::spawn(move || {
        wire::accept(listener, wire::LIMITS, move |request| {
            http::handle(request, &accept_state, &hosts)
        });
    });
    eprintln!("serving {url} (Ctrl-C stops)");
    if options.open {
        open_browser(&url);
    }
    let mut watch = watch;
    // Changes that came in meanwhile go into the same rebuild.
    while let Some(changed) = watch.next() {
        watch.refresh(&options.root);
        if rebuilder.affects(&changed) {
            let started = Instant::now();
            let result = rebuilder.update(&changed);
            server_side.publish(&mut rebuilder, result, started);
            server_side.catch_up(&mut rebuilder, started);
        }
        // Last, and given up when another save comes in: that save is served first, then
        // the search index of both.
        server_side.search(&rebuilder, &|| watch.waiting());
    }
    Ok(())
}

/// Publishes builds: swaps the served site, sets the status, prints, tells pages.
struct Serving<'o> {
    state: Arc<State>,
    options: &'o ServeOptions,
    builds: u64,
    /// The last rebuild's findings, to print only what changed.
    findings: findings::Findings,
    /// Whether the served search index is older than the served pages.
    search_stale: bool,
    /// Whether the last rebuild failed or found errors (the last good build is served, and
    /// its search index is not made from the broken one).
    failing: bool,
}

impl Serving<'_> {
    /// A status line after a rebuild, unless `-q`.
    fn status(&self, line: &str) {
        if !self.options.quiet {
            eprintln!("{line}");
        }
    }

    fn publish(&mut self, rebuilder: &mut Rebuilder, result: Result<Rebuilt>, started: Instant) {
        self.builds += 1;
        let build = self.builds;
        let rebuilt = match result {
            Ok(rebuilt) => rebuilt,
            Err(error) => return self.fail(build, &error),
        };
        self.state.set_base_path(rebuilder.base_path());
        self.state
            .set_status(Status::of(build, &rebuilt.diagnostics));
        let Some(site) = rebuilt.site else {
            self.failing = true;
            self.print_findings(rebuilder, &rebuilt.diagnostics);
            eprintln!("error: the site has errors; still serving the last good build");
            self.state.hub.send("status", &build.to_string());
            return;
        };
        let pending = rebuilt.pending.len();
        self.swap(site.files, rebuilt.pending.into_iter().collect());
        self.failing = false;
        // A save that changed no page (an editor writing the same file twice, the second
        // event of one save) reloads nothing; the status still goes out for the overlay.
        let event = match rebuilt.rendered + pending {
            0 => "status",
            _ => "reload",
        };
        self.state.hub.send(event, &build.to_string());
        // Printed once the page is served: printing never delays it.
        self.print_findings(rebuilder, &rebuilt.diagnostics);
        self.status(&format!(
            "built {} of {} pages in {:.0?}{}",
            rebuilt.rendered,
            rebuilt.pages,
            started.elapsed(),
            match pending {
                0 => String::new(),
                n => format!("; {n} listing files follow"),
            }
        ));
        // With listings pending, after them (see `catch_up`).
        self.search_stale |= pending == 0;
    }

    /// Renders what the last rebuild left for later (pages listing notes, feeds, the data
    /// API) and serves it; requests for those files wait until then.
    fn catch_up(&mut self, rebuilder: &mut Rebuilder, started: Instant) {
        match rebuilder.catch_up() {
            Ok(Some(Rebuilt {
                site: Some(site),
                rendered,
                ..
            })) => {
                self.swap(site.files, HashSet::new());
                self.status(&format!(
                    "  and {rendered} listing pages, feeds, sitemap and data API: all in {:.0?}",
                    started.elapsed()
                ));
                self.search_stale = true;
            }
            Ok(_) => {}
            Err(error) => {
                self.state.clear_pending();
                self.fail(self.builds, &error);
            }
        }
    }

    /// Reports a build that could not run: printed, and shown on open pages.
    fn fail(&mut self, build: u64, error: &Error) {
        self.failing = true;
        eprintln!("{}", error.terminal_line());
        self.state.set_status(Status::failed(build, error));
        self.state.hub.send("status", &build.to_string());
    }

    /// Serves `files` (with the previous search index until the new one is made), `pending`
    /// of them out of date.
    fn swap(&self, mut files: Files, pending: HashSet<String>) {
        if let Some(previous) = self.state.site() {
            for (path, bytes) in previous.range(search_prefix()..) {
                if !path.starts_with(&search_prefix()) {
                    break;
                }
                files.entry(path.clone()).or_insert_with(|| bytes.clone());
            }
        }
        self.state.set_site(Arc::new(files), pending);
    }

    /// Makes the search index of the last build, when the one served is older, and serves it
    /// beside the served files; gives up when `stop` says so (it stays stale, to be made after
    /// the next rebuild).
    fn search(&mut self, rebuilder: &Rebuilder, stop: &dyn Fn() -> bool) {
        let wanted = self.search_stale && !self.failing;
        let Some(served) = self.state.site().filter(|_| wanted) else {
            return;
        };
        match rebuilder.search_unless(stop) {
            Ok(None) => {}
            Ok(Some(search)) => {
                self.search_stale = false;
                let mut files = (*served).clone();
                files.retain(|path, _| !path.starts_with(&search_prefix()));
                for (path, bytes) in search {
                    files.insert(path, Arc::from(bytes));
                }
                self.state.set_site(Arc::new(files), HashSet::new());
            }
            Err(error) => {
                self.search_stale = false;
                eprintln!("warning: the search index was not rebuilt: {error}");
            }
        }
    }

    /// Prints the findings that changed since the last rebuild ([`findings`]).
    fn print_findings(&mut self, rebuilder: &Rebuilder, diagnostics: &[crate::Diagnostic]) {
        let text = self
            .findings
            .report(diagnostics, rebuilder.files(), self.options.color);
        eprint!("{text}");
    }
}

/// The folder the search index is served from, with a trailing `/`.
fn search_prefix() -> String {
    format!("{}/", crate::render::SEARCH_DIR)
}

/// Opens `url` in the desktop's browser; failing is only a warning.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    let spawned = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    match spawned {
        // Waited for in the background, so it leaves no zombie behind.
        Ok(mut child) => drop(std::thread::spawn(move || child.wait())),
        Err(e) => {
            eprintln!("warning: could not open a browser ({opener}): {e}; open {url} yourself")
        }
    }
}
