//! `fieldnotes mcp`: serve the knowledge base to agents over MCP (stdio, or `--http`).

use crate::cli::McpArgs;
use crate::dates;
use crate::error::Result;
use crate::mcp::McpOptions;

use super::Invocation;

pub fn mcp(run: &Invocation, args: McpArgs) -> Result<u8> {
    let options = McpOptions {
        root: run.root()?.to_path_buf(),
        today: dates::today(args.today.as_deref())?,
        http_port: args.http.then_some(args.port),
    };
    crate::mcp::serve(&options)?;
    Ok(0)
}
