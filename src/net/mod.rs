//! One connection policy for every local server (`serve`, `mcp --http`, `probe http`, and
//! `lsp` where it applies): what a peer on this machine may hold and for how long.
//!
//! A peer on loopback is not trusted: any local program or any web page the browser opens
//! can reach these servers. So each server takes its numbers from one [`Policy`] here and
//! its guards from the modules below, rather than keeping its own:
//!
//! - [`gate`]: a cap on open connections; when it is reached, the connection that has been
//!   silent longest without a request under way is closed to make room (a flood of silent or
//!   half-sent connections cannot keep an honest client out), and only when none can be is
//!   the new one turned away.
//! - [`origin`]: `Host` and `Origin` must name this machine (DNS rebinding, other web pages).
//! - [`warn`]: warnings at most one line per kind per [`Policy::warn_every`], with a count.
//! - [`io`]: a connection whose reads or writes stall too long is closed (slowloris, a peer
//!   that never reads), and reads are reported to the gate.
//! - [`http1`]: the accept loop and hyper connection setup that `mcp --http` and `probe
//!   http` share: back-off when accepting fails, header timeout, the gate, the guards above.
//! - [`stream`]: an outgoing event stream holds at most [`Policy::stream_bytes`] unread;
//!   past that the stream is cut off, never buffered without end.

pub(crate) mod gate;
pub(crate) mod http1;
pub(crate) mod io;
pub(crate) mod origin;
pub(crate) mod stream;
pub(crate) mod warn;

use std::time::Duration;

/// What a peer may send, hold and take: one set of numbers per server.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Policy {
    /// Connections open at once (event streams included). Lowered at start to what the
    /// process's file-descriptor limit allows ([`gate::Gate::new`]).
    pub connections: usize,
    /// A request's head (request line and header fields), in bytes.
    pub header_bytes: usize,
    /// A request's body, in bytes.
    pub body_bytes: usize,
    /// The time a request's head may take to arrive, counted from when the server starts
    /// waiting for it (so it is also how long an idle connection is kept).
    pub head_time: Duration,
    /// How long a connection may go without sending a byte while a request is under way
    /// (a half-sent body) before it may be closed to make room for a new one.
    pub read_stall: Duration,
    /// Bytes a second a request under way must average, once under way for `read_stall`,
    /// not to be closed to make room (a body trickled a byte at a time).
    pub read_rate: usize,
    /// How long one write may wait for the peer to read; past it the connection is closed.
    pub write_stall: Duration,
    /// Bytes an outgoing event stream may hold that the peer has not read yet.
    pub stream_bytes: usize,
    /// At most one warning line per kind this often.
    pub warn_every: Duration,
}

/// `fieldnotes serve`: pages and one event stream per open tab; no request bodies.
pub(crate) const SERVE: Policy = Policy {
    connections: 256,
    header_bytes: 64 * 1024,
    body_bytes: 0,
    head_time: Duration::from_secs(10),
    read_stall: Duration::from_secs(2),
    read_rate: 1024,
    write_stall: Duration::from_secs(30),
    stream_bytes: 64 * 1024,
    warn_every: Duration::from_secs(10),
};

/// `fieldnotes mcp --http`: JSON-RPC bodies up to 4 MiB, sessions' event streams.
pub(crate) const MCP: Policy = Policy {
    connections: 256,
    header_bytes: 64 * 1024,
    body_bytes: 4 * 1024 * 1024,
    head_time: Duration::from_secs(10),
    read_stall: Duration::from_secs(2),
    read_rate: 1024,
    write_stall: Duration::from_secs(30),
    stream_bytes: 1024 * 1024,
    warn_every: Duration::from_secs(10),
};

/// `fieldnotes probe http`: as `mcp --http`, for a client under observation, with the
/// probe's own cap on one message.
pub(crate) const PROBE: Policy = Policy {
    body_bytes: 1024 * 1024,
    ..MCP
};

/// `fieldnotes probe model`: a client's model requests carry its whole conversation, system
/// prompt and tool list (hundreds of KiB), so bodies up to 16 MiB.
pub(crate) const MODEL: Policy = Policy {
    body_bytes: 16 * 1024 * 1024,
    ..MCP
};

/// `fieldnotes lsp` over standard input: no connections, one message at most this large
/// (a whole file's text, JSON-escaped: files are at most 16 MiB unless `site.yaml` says
/// otherwise).
pub(crate) const LSP_MESSAGE_BYTES: usize = 256 << 20;
