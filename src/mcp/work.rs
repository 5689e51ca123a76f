//! Tool work that may take long (a `lint` of a pathological draft), run on tokio's blocking
//! pool so that other sessions are answered meanwhile, with a deadline, and at most
//! [`AT_ONCE`] at a time so that such calls cannot take every thread.

use std::sync::LazyLock;
use std::time::Duration;
use tokio::sync::Semaphore;

/// The most tool calls worked on at once; others wait for one to finish.
pub(crate) const AT_ONCE: usize = 2;

/// A tool call not answered within this is a tool error (the work goes on until it ends,
/// holding its place among the [`AT_ONCE`]).
pub(crate) const DEADLINE: Duration = Duration::from_secs(60);

static WORKERS: LazyLock<std::sync::Arc<Semaphore>> =
    LazyLock::new(|| std::sync::Arc::new(Semaphore::new(AT_ONCE)));

/// Runs `work` for the tool `tool` off the async executor; its answer, or a tool error past
/// the deadline.
pub(super) async fn off_executor<T: Send + 'static>(
    tool: &str,
    work: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, String> {
    let late = || {
        format!(
            "error: `{tool}` did not finish within {} s; try a smaller input",
            DEADLINE.as_secs()
        )
    };
    let started = async {
        let permit = WORKERS
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| e.to_string())?;
        tokio::task::spawn_blocking(move || {
            let answer = work();
            drop(permit);
            answer
        })
        .await
        .map_err(|e| format!("error: `{tool}` failed: {e}"))?
    };
    tokio::time::timeout(DEADLINE, started)
        .await
        .unwrap_or_else(|_| Err(late()))
}
