//! How a probe session behaves, the same for every transport: which protocol era it speaks
//! (`--protocol`), how long it waits before asking (`--settle`), how long a client may take to
//! answer (`--quiet-timeout`) and how long a silent client is kept (`--idle-limit`).

use std::time::Duration;

/// Which servers the probe behaves like.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Protocol {
    /// A 2025-11-25 server, as deployed today: `server/discover` is refused (a JSON-RPC
    /// `-32601` on stdio; over HTTP, a 400 without a session, as the TypeScript SDK's stateful
    /// server answers), so a client that speaks both eras shows its `initialize` path; the
    /// probe's questions go out on their own after the handshake.
    #[default]
    Current,
    /// A 2026-07-28 server: `server/discover` and per-request `_meta` are answered, and the
    /// probe's questions are asked only while a client request (`tools/call`,
    /// `resources/read`, `prompts/get`) is in flight, its answer held until they are
    /// answered or time out.
    Next,
}

impl Protocol {
    pub fn id(self) -> &'static str {
        match self {
            Protocol::Current => "current",
            Protocol::Next => "2026-07-28",
        }
    }
}

/// The timing and protocol of every session of one probe.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    pub protocol: Protocol,
    /// How long a server → client request may go unanswered.
    pub timeout: Duration,
    /// How long after `notifications/initialized` the probe asks its questions, and after a
    /// `tools/list` answer went out before it says the tools changed.
    pub settle: Duration,
    /// How long a client may stay silent before the probe ends its session.
    pub idle: Duration,
    /// How long the probe's tool takes at least before it answers (`--tool-delay`), so a
    /// client's cancellation shows.
    pub tool_delay: Duration,
}

impl Settings {
    /// The defaults: current protocol, 3 s to answer, 300 ms settle, 60 s idle.
    #[cfg(test)]
    pub fn test(timeout: Duration) -> Settings {
        Settings {
            protocol: Protocol::Current,
            timeout,
            settle: Duration::ZERO,
            idle: Duration::from_secs(60),
            tool_delay: Duration::ZERO,
        }
    }
}
