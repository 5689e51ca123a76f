//! `fieldnotes probe stdio|http`: record an MCP client's session as an observation.

use crate::cli::{ProbeArgs, ProbeCommand, ProbeMode};
use crate::error::{Error, Result};
use crate::probe::{HttpMode, Listen, ProbeOptions};
use std::path::PathBuf;
use std::time::Duration;

use super::Invocation;

pub fn probe(run: &Invocation, what: ProbeCommand) -> Result<u8> {
    match what {
        ProbeCommand::Stdio(args) => crate::probe::stdio(&options(run, args)?)?,
        ProbeCommand::Http(args) => {
            let listen = Listen {
                bind: args.bind,
                port: args.port,
                mode: match args.mode {
                    ProbeMode::Streamable => HttpMode::Streamable,
                    ProbeMode::Sse => HttpMode::Sse,
                    ProbeMode::LegacyOnly404 => HttpMode::LegacyOnly404,
                    ProbeMode::LegacyOnly405 => HttpMode::LegacyOnly405,
                },
            };
            crate::probe::http(&options(run, args.common)?, listen)?
        }
    }
    Ok(0)
}

/// The flags resolved: observations go to `--out`, else the site's `content/observations/`,
/// else `./observations`.
fn options(run: &Invocation, args: ProbeArgs) -> Result<ProbeOptions> {
    if !(args.quiet_timeout.is_finite() && args.quiet_timeout > 0.0 && args.quiet_timeout <= 3600.0)
    {
        return Err(Error::Usage {
            message: format!(
                "--quiet-timeout {} is not a number of seconds between 0 and 3600",
                args.quiet_timeout
            ),
        });
    }
    let site = run.root().ok().map(PathBuf::from);
    let out = match (args.out, &site) {
        (Some(out), _) => out,
        (None, Some(root)) => root.join("content/observations"),
        (None, None) => PathBuf::from("observations"),
    };
    Ok(ProbeOptions {
        out,
        command: args.command,
        quiet: Duration::from_secs_f64(args.quiet_timeout),
        clients: site,
    })
}
