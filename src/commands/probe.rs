//! `fieldnotes probe stdio|http|model|browser|judge`: record an MCP client's session as an
//! observation, the scripted model and browser that drive a client, and the rules run again
//! over recorded observations.

use crate::cli::ProbeRegistration;
use crate::cli::{ProbeArgs, ProbeCommand, ProbeHttpArgs, ProbeMode, ProbeProtocol};
use crate::error::{Error, Result};
use crate::probe::{
    AuthConfig, Discovery, HttpMode, Listen, ModelOptions, Package, ProbeOptions, Protocol,
    Registration, Settings,
};
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
                    ProbeMode::ExpireSession => HttpMode::ExpireSession,
                },
                auth: auth(&args)?,
            };
            let client = args.client.clone();
            let mut options = options(run, args.common)?;
            options.client = client;
            crate::probe::http(&options, listen)?
        }
        ProbeCommand::Model(args) => {
            let out = match args.out {
                Some(out) => out,
                None => observations_folder(run),
            };
            let arguments = match &args.arguments {
                None => None,
                Some(text) => Some(model_arguments(text)?),
            };
            crate::probe::model(&ModelOptions {
                out,
                port: args.port,
                bodies: args.bodies,
                tool: args.tool,
                arguments,
            })?
        }
        ProbeCommand::Browser(args) => return crate::probe::browser(&args.url, args.max_redirects),
        ProbeCommand::Judge(args) => {
            let paths = match args.paths {
                paths if !paths.is_empty() => paths,
                _ => vec![observations_folder(run)],
            };
            return crate::probe::judge(&paths, args.write);
        }
    }
    Ok(0)
}

/// `--auth oauth` with its `--registration`, `--discovery` and `--token-lifetime`.
fn auth(args: &ProbeHttpArgs) -> Result<Option<AuthConfig>> {
    if args.auth.is_none() {
        return Ok(None);
    }
    let discovery = Discovery::parse(&args.discovery).map_err(|why| Error::Usage {
        message: format!("--discovery {}: {why}", args.discovery),
    })?;
    if !(1..=86_400).contains(&args.token_lifetime) {
        return Err(Error::Usage {
            message: format!(
                "--token-lifetime {} is not between 1 and 86400 seconds",
                args.token_lifetime
            ),
        });
    }
    Ok(Some(AuthConfig {
        registration: match args.registration {
            ProbeRegistration::Dcr => Registration::Dcr,
            ProbeRegistration::Cimd => Registration::Cimd,
            ProbeRegistration::Both => Registration::Both,
        },
        discovery,
        lifetime: Duration::from_secs(args.token_lifetime),
        step_up: args.step_up,
    }))
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
    if !(args.idle_limit.is_finite() && args.idle_limit > 0.0 && args.idle_limit <= 86_400.0) {
        return Err(Error::Usage {
            message: format!(
                "--idle-limit {} is not a number of seconds between 0 and 86400",
                args.idle_limit
            ),
        });
    }
    if args.tool_delay > 600_000 {
        return Err(Error::Usage {
            message: format!(
                "--tool-delay {} is over ten minutes: give 0 to 600000",
                args.tool_delay
            ),
        });
    }
    if args.settle_ms > 60_000 {
        return Err(Error::Usage {
            message: format!(
                "--settle-ms {} is over a minute: give 0 to 60000",
                args.settle_ms
            ),
        });
    }
    let package = match &args.package {
        Some(text) => Some(text.parse::<Package>().map_err(|why| Error::Usage {
            message: format!("--package {text}: {why}"),
        })?),
        None => None,
    };
    let quiet = Duration::from_secs_f64(args.quiet_timeout);
    let settings = Settings {
        protocol: match args.protocol {
            ProbeProtocol::Current => Protocol::Current,
            ProbeProtocol::Next => Protocol::Next,
        },
        timeout: quiet,
        settle: Duration::from_millis(args.settle_ms),
        idle: Duration::from_secs_f64(args.idle_limit),
        tool_delay: Duration::from_millis(args.tool_delay),
    };
    let site = run.root().ok().map(PathBuf::from);
    let out = args.out.unwrap_or_else(|| observations_folder(run));
    Ok(ProbeOptions {
        out,
        command: args.command,
        quiet,
        clients: site,
        package,
        settings,
        client: None,
    })
}

/// The site's `content/observations/`, else `./observations`.
fn observations_folder(run: &Invocation) -> PathBuf {
    match run.root() {
        Ok(root) => PathBuf::from(root).join("content/observations"),
        Err(_) => PathBuf::from("observations"),
    }
}

/// `--arguments`: a JSON object, or a usage error saying where the JSON went wrong.
fn model_arguments(text: &str) -> Result<serde_json::Value> {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(value) if value.is_object() => Ok(value),
        Ok(_) => Err(Error::Usage {
            message: "--arguments must be a JSON object, e.g. '{\"client\": \"cline\"}'".into(),
        }),
        Err(e) => Err(Error::Usage {
            message: format!(
                "--arguments is not JSON: {e} (line {}, column {}); give an object such as \
                 '{{\"client\": \"cline\"}}'",
                e.line(),
                e.column()
            ),
        }),
    }
}
