//! `fieldnotes mcp` driven by a client this project did not write: the official MCP Python
//! SDK, through `tests/mcp/check_server.py`, over stdio and Streamable HTTP, on a copy of the
//! example site at the repository root. Python 3 and the SDK (`pip install mcp`, as
//! `.ci/run` does) are required: without them this test fails, saying so, rather than skip.

use std::path::Path;
use std::process::Command;

/// The Python that runs the check: `$PYTHON`, else `python3`.
fn python() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string())
}

#[test]
fn the_official_python_sdk_calls_every_tool_reads_resources_and_gets_prompts() {
    let python = python();
    let probe = Command::new(&python)
        .args(["-c", "import mcp.client.streamable_http"])
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "could not run `{python}` ({e}): the MCP tests need Python 3 with the MCP SDK; \
                 install it with `pip install mcp==2.3.0` (or set PYTHON)"
            )
        });
    assert!(
        probe.status.success(),
        "`{python}` has no MCP SDK: install it with `pip install mcp==2.3.0`\n{}",
        String::from_utf8_lossy(&probe.stderr)
    );
    let repository = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new(&python)
        .arg(repository.join("tests/mcp/check_server.py"))
        .arg(env!("CARGO_BIN_EXE_fieldnotes"))
        .arg(repository)
        .output()
        .expect("run tests/mcp/check_server.py");
    assert!(
        output.status.success(),
        "tests/mcp/check_server.py failed\n--- stdout\n{}\n--- stderr\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("streamable http: ok") && stdout.contains("stdio: ok"));
}
