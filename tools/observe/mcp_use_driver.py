#!/usr/bin/env python3
"""mcp_use_driver.py: drive mcp-use's MCP client (PyPI mcp-use, the Python library) against one
MCP server, through its public API, as an application written with it would.

    python mcp_use_driver.py [OPTIONS] stdio -- CMD ARGS...   (the server as a child process)
    python mcp_use_driver.py [OPTIONS] http URL               (Streamable HTTP, falling back to SSE)
    OPTIONS: [--model-url http://127.0.0.1:P/v1] [--steps tools,agent,resources,prompts,roots]
             [--no-auth] [--linger SECONDS]

Run it with the Python of a venv holding mcp-use (`pip install mcp-use langchain-openai`; the
`langchain-openai` package for the `agent` step). It builds an `MCPClient` from a config dict
naming one server, `probe` (`command`/`args`, or `url`; with `--no-auth` also `"auth": null`, so
it skips the OAuth discovery GETs it makes first by default, one of them a GET of the URL that
a legacy SSE endpoint answers with its never-ending stream), with `roots=[file:///fieldnotes-root]`,
an `elicitation_callback` and a `sampling_callback`, opens it with
`client.create_session("probe")`, then in order (each step in `--steps`):
  tools      `session.list_tools()`, then `session.call_tool("probe_echo", {"text": "fieldnotes"})`;
  agent      (with `--model-url`) an `MCPAgent(llm=ChatOpenAI(...), client=client)` with
             `ChatOpenAI` at that base URL (`fieldnotes probe model`, key `x`, model `probe`) and
             `agent.run("Call the probe_echo tool.")`, so the library offers the tool to a model
             and runs the call the model asks for;
  resources  `session.list_resources()` and `session.read_resource(<first uri>)`;
  prompts    `session.list_prompts()` and `session.get_prompt(<first name>, {"topic": "fieldnotes"})`;
  roots      `session.connector.set_roots([...])` with a second root (the library's documented
             way to change roots, which notifies the server).
The `elicitation_callback` (the library's hook for the application's answer) accepts a form
request with `{"name": "fieldnotes"}` and a URL-mode request with `accept` (no page is opened);
the `sampling_callback` answers with the text "fieldnotes sample" (no model is asked). It prints
what each step returned, as JSON lines, on standard output.
"""
import asyncio
import json

import framework_cli  # the command line the framework drivers share (tools/observe)


def config(args):
    if args.transport == "stdio":
        server = {"command": args.target[0], "args": args.target[1:]}
    else:
        server = {"url": args.target[0]}
        if args.no_auth:
            # `"auth": null`: no OAuth discovery before connecting (by default an HTTP server's
            # config gets `auth: {}`, and mcp-use first GETs the URL and the well-known documents)
            server["auth"] = None
    return {"mcpServers": {"probe": server}}


async def elicit(context, params):
    """The application's answer to an elicitation: a form gets a name, a URL request accept."""
    from mcp.types import ElicitResult

    if getattr(params, "mode", None) == "url" or getattr(params, "url", None):
        return ElicitResult(action="accept")
    return ElicitResult(action="accept", content={"name": "fieldnotes"})


async def sample(context, params):
    """The application's answer to a sampling request: a fixed text, no model asked."""
    from mcp.types import CreateMessageResult, TextContent

    return CreateMessageResult(role="assistant", model="fieldnotes-driver",
                               content=TextContent(type="text", text="fieldnotes sample"),
                               stopReason="endTurn")


def say(step, value):
    print(json.dumps({"step": step, "value": value}, default=str), flush=True)


async def main(args):
    from mcp.types import Root
    from mcp_use import MCPClient

    steps = args.steps.split(",")
    client = MCPClient(config=config(args),
                       roots=[Root(uri="file:///fieldnotes-root", name="fieldnotes")],
                       elicitation_callback=elicit, sampling_callback=sample)
    try:
        session = await client.create_session("probe")
        say("transport", getattr(session.connector, "transport_type", args.transport))
        if "tools" in steps:
            tools = await session.list_tools()
            say("list_tools", [t.name for t in tools])
            result = await session.call_tool("probe_echo", {"text": "fieldnotes"})
            say("call_tool", result.model_dump(mode="json"))
        if "agent" in steps and args.model_url:
            from langchain_openai import ChatOpenAI
            from mcp_use import MCPAgent

            llm = ChatOpenAI(model="probe", base_url=args.model_url, api_key="x")
            agent = MCPAgent(llm=llm, client=client, max_steps=4)
            say("agent_run", await agent.run("Call the probe_echo tool."))
        if "resources" in steps:
            resources = await session.list_resources()
            say("list_resources", [str(r.uri) for r in resources])
            if resources:
                read = await session.read_resource(resources[0].uri)
                say("read_resource", read.model_dump(mode="json"))
        if "prompts" in steps:
            prompts = await session.list_prompts()
            say("list_prompts", [p.name for p in prompts])
            if prompts:
                got = await session.get_prompt(prompts[0].name, {"topic": "fieldnotes"})
                say("get_prompt", got.model_dump(mode="json"))
        if "roots" in steps:
            await session.connector.set_roots([
                Root(uri="file:///fieldnotes-root", name="fieldnotes"),
                Root(uri="file:///fieldnotes-root-2", name="fieldnotes 2"),
            ])
            say("set_roots", 2)
        await asyncio.sleep(args.linger)
    finally:
        await client.close_all_sessions()


if __name__ == "__main__":
    framework_cli.run(
        main, __doc__, ["stdio", "http"], "tools,agent,resources,prompts,roots", 2.0,
        lambda p: p.add_argument("--no-auth", action="store_true",
                                 help='give the server "auth": null (no OAuth discovery GETs first)'),
    )
