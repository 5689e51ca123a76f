#!/usr/bin/env python3
"""mcp_agent_driver.py: drive mcp-agent's MCP client (PyPI mcp-agent, lastmile-ai) against one
MCP server, through the framework's public API, as an application written with it would.

    python mcp_agent_driver.py [OPTIONS] stdio -- CMD ARGS...   (the server as a child process)
    python mcp_agent_driver.py [OPTIONS] streamable_http URL    (or: sse URL)
    OPTIONS: [--model-url http://127.0.0.1:P/v1] [--steps tools,llm,resources,prompts]
             [--linger SECONDS]

Run it with the Python of a venv holding mcp-agent (`pip install 'mcp-agent[openai]' 'mcp<2'`: mcp-agent
0.2.6 asks for `mcp>=1.20.0` and does not import with mcp 2.x; the `openai` extra for `llm`). It builds an `MCPApp` whose
`Settings` name one server, `probe` (`MCPServerSettings` with the transport given), opens it
with `app.run()` and an `Agent(server_names=["probe"])`, then in order (each step in `--steps`):
  tools      `agent.list_tools()`, then `agent.call_tool(NAME, {"text": "fieldnotes"})` with the
             name it listed the probe's tool under (`probe_probe_echo`);
  llm        (with `--model-url`) `agent.attach_llm(OpenAIAugmentedLLM)` with `OpenAISettings`
             at that base URL (`fieldnotes probe model`, key `x`, model `probe`) and
             `llm.generate_str("Call the probe_echo tool.")`, so the framework offers the tool
             to a model and runs the call the model asks for;
  resources  `agent.list_resources("probe")` and `agent.read_resource(<first uri>, "probe")`;
  prompts    `agent.list_prompts("probe")` and `agent.get_prompt(<first name listed>,
             {"topic": "fieldnotes"})` (listed as `probe_probe_prompt`).
The app's `elicitation_callback` (the framework's hook for the application's answer) accepts a
form request with `{"name": "fieldnotes"}` and a URL-mode request with `accept` (no page is
opened); sampling is left to mcp-agent's own handler, which asks the configured OpenAI model.
The server gets one root, `file:///fieldnotes-root` (`MCPServerSettings.roots`). It prints what
each step returned, as JSON lines, on standard output.
"""
import asyncio
import json

import framework_cli  # the command line the framework drivers share (tools/observe)


def settings(args):
    from mcp_agent.config import Settings

    server = {"name": "probe", "transport": args.transport,
              "roots": [{"uri": "file:///fieldnotes-root", "name": "fieldnotes"}]}
    if args.transport == "stdio":
        server |= {"command": args.target[0], "args": args.target[1:]}
    else:
        server |= {"url": args.target[0]}
    extra = {}
    if args.model_url:
        extra["openai"] = {"base_url": args.model_url, "api_key": "x", "default_model": "probe"}
    return Settings(
        execution_engine="asyncio",
        logger={"type": "console", "level": "warning"},
        mcp={"servers": {"probe": server}},
        **extra,
    )


async def answer(request):
    """The application's answer to an elicitation: a form gets a name, a URL request accept."""
    from mcp.types import ElicitResult

    if getattr(request, "mode", None) == "url" or getattr(request, "url", None):
        return ElicitResult(action="accept")
    return ElicitResult(action="accept", content={"name": "fieldnotes"})


def say(step, value):
    print(json.dumps({"step": step, "value": value}, default=str), flush=True)


async def main(args):
    from mcp_agent.agents.agent import Agent
    from mcp_agent.app import MCPApp

    steps = args.steps.split(",")
    app = MCPApp(name="fieldnotes_probe_driver", settings=settings(args),
                 elicitation_callback=answer)
    async with app.run():
        agent = Agent(name="probe_driver", instruction="You call the tools you are asked to.",
                      server_names=["probe"])
        async with agent:
            if "tools" in steps:
                tools = await agent.list_tools()
                names = [t.name for t in tools.tools]
                say("list_tools", names)
                # The agent lists a tool as `<server>_<tool>` and calls it by that name.
                name = next((n for n in names if n.endswith("probe_echo")), "probe_probe_echo")
                result = await agent.call_tool(name, {"text": "fieldnotes"})
                say("call_tool", result.model_dump(mode="json"))
            if "llm" in steps and args.model_url:
                from mcp_agent.workflows.llm.augmented_llm_openai import OpenAIAugmentedLLM

                llm = await agent.attach_llm(OpenAIAugmentedLLM)
                say("generate_str", await llm.generate_str("Call the probe_echo tool."))
            if "resources" in steps:
                resources = await agent.list_resources("probe")
                say("list_resources", [str(r.uri) for r in resources.resources])
                if resources.resources:
                    read = await agent.read_resource(str(resources.resources[0].uri), "probe")
                    say("read_resource", read.model_dump(mode="json"))
            if "prompts" in steps:
                prompts = await agent.list_prompts("probe")
                say("list_prompts", [p.name for p in prompts.prompts])
                if prompts.prompts:
                    # Listed as `<server>_<prompt>`, and got by that name.
                    got = await agent.get_prompt(prompts.prompts[0].name, {"topic": "fieldnotes"})
                    say("get_prompt", got.model_dump(mode="json"))
            await asyncio.sleep(args.linger)


if __name__ == "__main__":
    framework_cli.run(main, __doc__, ["stdio", "streamable_http", "sse"],
                      "tools,llm,resources,prompts", 1.0)
