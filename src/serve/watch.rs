//! Watching the site: `content/`, `templates/`, `themes/`, `static/` and `site.yaml`, with
//! changes gathered over a short debounce into one batch of paths.

use super::rebuild::WATCHED;
use crate::error::{Error, Result};
use crate::load::CONTENT_DIR;
use notify_debouncer_full::notify::{EventKind, RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{new_debouncer, DebounceEventResult, Debouncer, RecommendedCache};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;
use std::time::Duration;

/// How long changes are gathered before a rebuild: an editor's save is often several writes.
pub const DEBOUNCE: Duration = Duration::from_millis(20);

/// A running watch; dropping it stops it.
pub struct Watch {
    debouncer: Debouncer<RecommendedWatcher, RecommendedCache>,
    /// The folders watched recursively.
    watched: Vec<PathBuf>,
    /// Each batch of changed paths (absolute).
    pub changes: Receiver<Vec<PathBuf>>,
    /// Batches sent and not yet taken by [`Watch::next`].
    waiting: Arc<AtomicUsize>,
}

impl Watch {
    /// The next batch of changed paths, with the batches that came in meanwhile; `None` once
    /// the watch has stopped.
    pub fn next(&self) -> Option<Vec<PathBuf>> {
        let mut changed = self.changes.recv().ok()?;
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        while let Ok(more) = self.changes.try_recv() {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            changed.extend(more);
        }
        Some(changed)
    }

    /// Whether changes are waiting for [`Watch::next`] (work that can wait gives way to them).
    pub fn waiting(&self) -> bool {
        self.waiting.load(Ordering::SeqCst) > 0
    }

    /// Watches the site's folders that appeared since the watch started (a first
    /// `templates/`, say); a folder that cannot be watched is reported and left out.
    pub fn refresh(&mut self, root: &Path) {
        for name in std::iter::once(CONTENT_DIR).chain(WATCHED) {
            let path = root.join(name);
            if path.is_dir() && !self.watched.contains(&path) {
                match self.debouncer.watch(&path, RecursiveMode::Recursive) {
                    Ok(()) => self.watched.push(path),
                    Err(e) => eprintln!("warning: {}", watch_error(&path, e)),
                }
            }
        }
    }
}

/// Starts watching the site in `root`.
pub fn watch(root: &Path) -> Result<Watch> {
    let (tx, rx) = mpsc::channel();
    let waiting = Arc::new(AtomicUsize::new(0));
    let sent = waiting.clone();
    let mut debouncer = new_debouncer(DEBOUNCE, None, move |result: DebounceEventResult| {
        let paths: Vec<PathBuf> = match result {
            // Reads (a build opening every file) change nothing.
            Ok(events) => events
                .into_iter()
                .filter(|e| !matches!(e.event.kind, EventKind::Access(_)))
                .flat_map(|e| e.event.paths)
                .collect(),
            // The watcher lost track (too many events, a watched folder replaced): rebuild
            // all of it.
            Err(_) => vec![root_marker()],
        };
        if !paths.is_empty() {
            // Counted before it is sent, so the count never falls below what is waiting.
            sent.fetch_add(1, Ordering::SeqCst);
            if tx.send(paths).is_err() {
                sent.fetch_sub(1, Ordering::SeqCst);
            }
        }
    })
    .map_err(|e| watch_error(root, e))?;
    // The root itself, not recursively: `site.yaml`, and folders that appear later.
    debouncer
        .watch(root, RecursiveMode::NonRecursive)
        .map_err(|e| watch_error(root, e))?;
    let mut watched = Vec::new();
    for name in std::iter::once(CONTENT_DIR).chain(WATCHED) {
        let path = root.join(name);
        if path.is_dir() {
            debouncer
                .watch(&path, RecursiveMode::Recursive)
                .map_err(|e| watch_error(&path, e))?;
            watched.push(path);
        }
    }
    Ok(Watch {
        debouncer,
        watched,
        changes: rx,
        waiting,
    })
}

/// The path sent when the watcher reports an error: `site.yaml`, so the whole site is loaded
/// again.
fn root_marker() -> PathBuf {
    PathBuf::from("site.yaml")
}

fn watch_error(path: &Path, e: notify_debouncer_full::notify::Error) -> Error {
    Error::io(path, "watch", std::io::Error::other(e.to_string()))
}
