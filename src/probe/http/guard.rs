//! Who may talk to the HTTP probe: as the MCP specification asks of local servers, a request
//! whose `Host` is not this machine (DNS rebinding) or whose `Origin` is a web page elsewhere
//! gets 403. With `--bind` to another address, that address is allowed too.

use std::net::IpAddr;

/// Why a request is refused, or `Ok` when it may go on.
pub(crate) fn check(host: Option<&str>, origin: Option<&str>, bind: IpAddr) -> Result<(), String> {
    let host = host.ok_or("no Host header")?;
    if !allowed_host(host_name(host), bind) {
        return Err(format!("Host {host} is not this machine"));
    }
    if let Some(origin) = origin {
        let rest = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
            .ok_or_else(|| format!("Origin {origin} is not an http(s) origin"))?;
        if !allowed_host(host_name(rest), bind) {
            return Err(format!("Origin {origin} is not a page of this machine"));
        }
    }
    Ok(())
}

/// `localhost:8080` → `localhost`, `[::1]:80` → `::1`.
fn host_name(authority: &str) -> &str {
    if let Some(rest) = authority.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    authority
        .rsplit_once(':')
        .map_or(authority, |(name, _)| name)
}

fn allowed_host(name: &str, bind: IpAddr) -> bool {
    let name = name.to_ascii_lowercase();
    if name == "localhost" {
        return true;
    }
    match name.parse::<IpAddr>() {
        Ok(ip) => ip.is_loopback() || (ip == bind && !bind.is_unspecified()),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOOPBACK: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

    #[test]
    fn loopback_hosts_and_origins_pass_others_are_refused() {
        assert!(check(Some("127.0.0.1:8080"), None, LOOPBACK).is_ok());
        assert!(check(Some("localhost"), Some("http://localhost:3000"), LOOPBACK).is_ok());
        assert!(check(Some("[::1]:9"), Some("https://[::1]:1"), LOOPBACK).is_ok());
        assert!(check(Some("evil.example:80"), None, LOOPBACK).is_err());
        assert!(check(Some("localhost"), Some("https://evil.example"), LOOPBACK).is_err());
        assert!(check(Some("localhost"), Some("null"), LOOPBACK).is_err());
        assert!(check(None, None, LOOPBACK).is_err());
        let bind: IpAddr = "10.0.0.5".parse().expect("ip");
        assert!(check(Some("10.0.0.5:80"), None, bind).is_ok());
        assert!(check(Some("10.0.0.6:80"), None, bind).is_err());
    }
}
