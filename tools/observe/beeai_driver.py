#!/usr/bin/env python3
"""beeai_driver.py: drive BeeAI Framework's MCP client (PyPI beeai-framework, i-am-bee) against
one MCP server, through the framework's public API, as an application written with it would.

    python beeai_driver.py [OPTIONS] stdio -- CMD ARGS...   (the server as a child process)
    python beeai_driver.py [OPTIONS] streamable_http URL    (or: sse URL)
    OPTIONS: [--model-url http://127.0.0.1:P/v1] [--steps tools,llm] [--linger SECONDS]

Run it with the Python of a venv holding `beeai-framework[mcp]` (the `mcp` extra brings the MCP
Python SDK). BeeAI's MCP integration is `beeai_framework.tools.mcp.MCPTool.from_client(client)`,
where `client` is one of the MCP SDK's transport context managers (`stdio_client(
StdioServerParameters(...))`, `streamablehttp_client(url)`, `sse_client(url)`); the framework
opens a `ClientSession` on it (with no sampling, elicitation or roots callbacks: it offers no
hook for them), initializes it, lists the tools and wraps each as a BeeAI `Tool`. Then, in
order (each step in `--steps`):
  tools      `tool.run({"text": "fieldnotes"})` on the `probe_echo` tool it listed;
  llm        (with `--model-url`) a `RequirementAgent` with those tools and an
             `OpenAIChatModel("probe")` at that base URL (`fieldnotes probe model`, key `x`),
             `agent.run("Call the probe_echo tool.")` (the model given `tool_choice_support`
             with "required", which OpenAIChatModel drops for a custom base URL), so the framework offers the tool to a
             model and runs the call the model asks for.
BeeAI has no API for an MCP server's resources or prompts, so none is called. It prints what
each step returned, as JSON lines, on standard output.
"""
import asyncio
import json

import framework_cli  # the command line the framework drivers share (tools/observe)


def client(args):
    if args.transport == "stdio":
        from mcp import StdioServerParameters
        from mcp.client.stdio import stdio_client

        return stdio_client(StdioServerParameters(command=args.target[0], args=args.target[1:]))
    if args.transport == "sse":
        from mcp.client.sse import sse_client

        return sse_client(args.target[0])
    from mcp.client.streamable_http import streamablehttp_client

    return streamablehttp_client(args.target[0])


def say(step, value):
    print(json.dumps({"step": step, "value": value}, default=str), flush=True)


async def main(args):
    from beeai_framework.tools.mcp import MCPTool

    steps = args.steps.split(",")
    tools = await MCPTool.from_client(client(args))
    say("from_client", [t.name for t in tools])
    if "tools" in steps:
        tool = next((t for t in tools if t.name == "probe_echo"), tools[0] if tools else None)
        if tool is not None:
            try:
                out = await tool.run({"text": "fieldnotes"})
                say("tool.run", out.get_text_content())
            except Exception as e:  # what the framework raised, as the application sees it
                say("tool.run error", repr(e))
    if "llm" in steps and args.model_url:
        from beeai_framework.adapters.openai import OpenAIChatModel
        from beeai_framework.agents.requirement import RequirementAgent

        # With a base_url, OpenAIChatModel drops tool_choice "required" from what it assumes the
        # endpoint supports, and the agent then asks for its tool call through a response format
        # (no tools offered); naming the endpoint's tool-choice support offers the tools natively.
        llm = OpenAIChatModel("probe", api_key="x", base_url=args.model_url,
                              tool_choice_support={"required", "none", "single", "auto"})
        agent = RequirementAgent(llm=llm, tools=tools)
        try:
            out = await agent.run("Call the probe_echo tool.")
            say("agent.run", out.last_message.text if getattr(out, "last_message", None) else str(out))
        except Exception as e:
            say("agent.run error", repr(e))
    await asyncio.sleep(args.linger)


if __name__ == "__main__":
    # BeeAI keeps the session open until its tools are garbage-collected; at interpreter exit the
    # stdio server may be ended before it writes anything, so stay longer than the probe's
    # --quiet-timeout (5 in beeai.sh) and let it write the session after a quiet spell.
    framework_cli.run(main, __doc__, ["stdio", "streamable_http", "sse"], "tools,llm", 7.0)
