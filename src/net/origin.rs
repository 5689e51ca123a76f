//! Who may be answered: as the MCP specification asks of local servers, a request whose
//! `Host` is not this machine (DNS rebinding: a web page whose name now points here) or whose
//! `Origin` is a web page elsewhere is refused (403). This machine is `localhost`, a loopback
//! address, or the address the server was bound to (any address when bound to all of them);
//! anything else, and anything that is not a plain `host[:port]` (a user part, a path, a
//! trailing dot, two `Host` fields), is refused.

use std::net::IpAddr;

/// Why a request is refused, or `Ok` when it may go on. `hosts` are the values of every
/// `Host` field sent (exactly one is allowed), `authority` that of an absolute-form request
/// target (`GET http://host/path`), which must name this machine too.
pub(crate) fn check(
    hosts: &[&str],
    authority: Option<&str>,
    origin: Option<&str>,
    bind: IpAddr,
) -> Result<(), String> {
    let host = match hosts {
        [host] => *host,
        [] => return Err("no Host header".to_string()),
        _ => return Err("more than one Host header".to_string()),
    };
    if !is_this_machine(host, bind) {
        return Err(format!("Host {host:?} is not this machine"));
    }
    if let Some(authority) = authority {
        if !is_this_machine(authority, bind) {
            return Err(format!(
                "the request target's host {authority:?} is not this machine"
            ));
        }
    }
    if let Some(origin) = origin {
        let rest = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
            .ok_or_else(|| format!("Origin {origin:?} is not an http(s) origin"))?;
        if !is_this_machine(rest, bind) {
            return Err(format!("Origin {origin:?} is not a page of this machine"));
        }
    }
    Ok(())
}

/// Whether `authority` (`name[:port]`, `[v6][:port]`) names this machine.
fn is_this_machine(authority: &str, bind: IpAddr) -> bool {
    let Some(name) = host_name(authority) else {
        return false;
    };
    if name.eq_ignore_ascii_case("localhost") {
        return true;
    }
    match name.parse::<IpAddr>() {
        // Bound to every address (`0.0.0.0`), any address may be this machine's; an address
        // is never a rebound name, so only names other than `localhost` are refused then.
        Ok(ip) => ip.is_loopback() || ip == bind || bind.is_unspecified(),
        Err(_) => false,
    }
}

/// `localhost:8080` → `localhost`, `[::1]:80` → `::1`; `None` when the port is not digits or
/// anything else follows (`localhost:80@evil.example`, `[::1]x`).
fn host_name(authority: &str) -> Option<&str> {
    let (name, port) = match authority.strip_prefix('[') {
        Some(rest) => {
            let (name, after) = rest.split_once(']')?;
            let port = match after {
                "" => "",
                after => after.strip_prefix(':')?,
            };
            (name, port)
        }
        None => match authority.split_once(':') {
            Some((name, port)) => (name, port),
            None => (authority, ""),
        },
    };
    let digits = port.len() <= 5 && port.bytes().all(|b| b.is_ascii_digit());
    (digits && !name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOOPBACK: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

    fn host(h: &str) -> bool {
        check(&[h], None, None, LOOPBACK).is_ok()
    }

    #[test]
    fn loopback_hosts_and_origins_pass_others_are_refused() {
        assert!(host("127.0.0.1:8080"));
        assert!(check(
            &["localhost"],
            None,
            Some("http://localhost:3000"),
            LOOPBACK
        )
        .is_ok());
        assert!(check(&["[::1]:9"], None, Some("https://[::1]:1"), LOOPBACK).is_ok());
        assert!(!host("evil.example:80"));
        assert!(check(&["localhost"], None, Some("https://evil.example"), LOOPBACK).is_err());
        assert!(check(&["localhost"], None, Some("null"), LOOPBACK).is_err());
        assert!(check(&[], None, None, LOOPBACK).is_err());
        let bind: IpAddr = "10.0.0.5".parse().expect("ip");
        assert!(check(&["10.0.0.5:80"], None, None, bind).is_ok());
        assert!(check(&["10.0.0.6:80"], None, None, bind).is_err());
        let all: IpAddr = "0.0.0.0".parse().expect("ip");
        assert!(check(&["10.0.0.6:80"], None, None, all).is_ok());
        assert!(check(&["evil.example:80"], None, None, all).is_err());
    }

    #[test]
    fn hostile_spellings_are_refused() {
        assert!(host("LOCALHOST:1"));
        assert!(host("[0:0:0:0:0:0:0:1]:1"));
        assert!(host("127.0.0.2"));
        for bad in [
            "localhost.",
            "localhost.:80",
            "localhost:80@evil.example",
            "localhost:evil",
            "localhost.evil.example",
            "[::1]evil",
            "::1",
            "[::ffff:127.0.0.1]",
            "127.1",
            "0x7f000001",
            "0.0.0.0",
            "",
            ":80",
        ] {
            assert!(!host(bad), "{bad:?} passed");
        }
        assert!(check(&["localhost", "localhost"], None, None, LOOPBACK).is_err());
        assert!(check(&["localhost"], Some("evil.example"), None, LOOPBACK).is_err());
        assert!(check(&["localhost"], None, Some("http://localhost/x"), LOOPBACK).is_err());
        assert!(check(&["localhost"], None, Some("file://"), LOOPBACK).is_err());
    }
}
