//! Background file writers: `put` hands a file to a small pool of threads and returns, so
//! rendering and disk I/O overlap; `finish` waits for every write and reports the first error.
//!
//! The queue is bounded (`QUEUE` files), so a slow disk holds render back instead of
//! letting rendered pages pile up in memory.

use crate::beneath::{Mode, Root};
use crate::error::{Error, Result};
use crate::render::output::Shared;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Files waiting to be written, at most.
const QUEUE: usize = 64;

/// One file to write, at `path` beneath the pool's root.
struct Job {
    path: PathBuf,
    contents: Shared,
}

/// A pool of threads writing files.
pub struct Writers {
    sender: Option<SyncSender<Job>>,
    threads: Vec<JoinHandle<()>>,
    /// The first write that failed; later files are dropped unwritten.
    error: Arc<Mutex<Option<Error>>>,
}

impl Writers {
    /// Starts the pool, writing beneath `root`: one thread per core, at least two, at most
    /// eight.
    pub fn start(root: Root) -> Writers {
        let root = Arc::new(root);
        let count = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 8));
        let (sender, receiver) = sync_channel::<Job>(QUEUE);
        let receiver = Arc::new(Mutex::new(receiver));
        let error = Arc::new(Mutex::new(None));
        let threads = (0..count)
            .map(|_| {
                let receiver = Arc::clone(&receiver);
                let error = Arc::clone(&error);
                let root = Arc::clone(&root);
                std::thread::spawn(move || work(&root, &receiver, &error))
            })
            .collect();
        Writers {
            sender: Some(sender),
            threads,
            error,
        }
    }

    /// Queues `contents` to be written at `path`, relative to the root (its folders are
    /// created). Fails with the first error an earlier write met.
    pub fn write(&self, path: PathBuf, contents: Shared) -> Result<()> {
        if let Some(error) = lock(&self.error).take() {
            return Err(error);
        }
        let stopped =
            |path: &Path| Error::io(path, "write", std::io::Error::other("the writers stopped"));
        let Some(sender) = &self.sender else {
            return Err(stopped(&path));
        };
        sender
            .send(Job { path, contents })
            .map_err(|unsent| stopped(&unsent.0.path))
    }

    /// Waits until every queued file is written; the first error, if one failed.
    pub fn finish(mut self) -> Result<()> {
        self.stop();
        match lock(&self.error).take() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    fn stop(&mut self) {
        self.sender = None;
        for thread in self.threads.drain(..) {
            // A writer thread only panics if the allocator does; its files count as lost.
            if thread.join().is_err() {
                lock(&self.error).get_or_insert_with(|| {
                    Error::io("output", "write", std::io::Error::other("a writer crashed"))
                });
            }
        }
    }
}

impl Drop for Writers {
    /// Never leaves a thread writing into a folder its owner is about to remove.
    fn drop(&mut self) {
        self.stop();
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A writer thread: takes jobs until the queue closes; after an error, drains it unwritten.
fn work(root: &Root, receiver: &Mutex<Receiver<Job>>, error: &Mutex<Option<Error>>) {
    loop {
        let job = match lock(receiver).recv() {
            Ok(job) => job,
            Err(_) => return,
        };
        if lock(error).is_some() {
            continue;
        }
        if let Err(e) = root.write(&job.path, &job.contents, Mode::Truncate) {
            lock(error).get_or_insert(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Root, Writers};
    use std::path::PathBuf;
    use std::sync::Arc;

    #[test]
    fn every_file_is_written_before_finish_returns() {
        let dir = tempfile::tempdir().expect("temp");
        let writers = Writers::start(Root::create(dir.path()).expect("root"));
        for i in 0..500 {
            let path = PathBuf::from(format!("d{}/f{i}.txt", i % 7));
            writers
                .write(path, i.to_string().into_bytes().into())
                .expect("queue");
        }
        writers.finish().expect("written");
        for i in 0..500 {
            let path = dir.path().join(format!("d{}/f{i}.txt", i % 7));
            assert_eq!(std::fs::read_to_string(path).expect("read"), i.to_string());
        }
    }

    #[test]
    fn a_failed_write_is_reported() {
        let dir = tempfile::tempdir().expect("temp");
        std::fs::write(dir.path().join("file"), "").expect("file");
        let writers = Writers::start(Root::create(dir.path()).expect("root"));
        // A folder cannot be made where a file is.
        let bad = PathBuf::from("file/x.html");
        let _ = writers.write(bad, Arc::new(b"x".to_vec()));
        let error = writers.finish().expect_err("the write fails");
        assert!(error.to_string().contains("file"), "{error}");
    }
}
