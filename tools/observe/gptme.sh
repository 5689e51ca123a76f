#!/bin/bash
# gptme.sh: one headless run of gptme (PyPI gptme) driven by `fieldnotes probe model` to call the
# probe's tool, its MCP server given in ~/.config/gptme/config.toml ([[mcp.servers]]).
#
#   GPTME=BIN OUT=DIR FIELDNOTES=BIN ROOT=SITE [MPORT=P] gptme.sh RUN stdio [probe flags…]
#   GPTME=BIN [MPORT=P] gptme.sh RUN URL       (a `fieldnotes probe http` already running)
#
# The scripted model must be told gptme's name for the tool: gptme lists it as
# `probe.probe_echo` and offers it to a model as `probe_probe_echo_` + the first 12 hex digits
# of sha256("probe.probe_echo:0") (tools/native_names.py), which the model's suffix match does
# not take, so start it with `--tool probe_probe_echo_f284aabf9156 --arguments
# '{"text": "fieldnotes"}'`. gptme sends the MCP SDK's default clientInfo (`mcp`), which
# content/clients/hermes-agent.md claims too: give the probe a ROOT whose clients leave `mcp`
# to gptme alone (a copy of the site without hermes-agent.md) so it files the session under
# gptme. QUIET sets the probe's --quiet-timeout (default 3): gptme's MCP event loop runs only
# while one of its own requests is in flight, so the probe's questions wait for its next one.
#
# GPTME is the venv's `gptme` (pip install 'gptme==VERSION'; 0.35.1 has no `mcp` extra, the MCP
# SDK is a plain dependency); the venv's gptme version names the observation's package. Start
# the scripted model first: `fieldnotes probe model --port P --out OUT`. RUN names the scratch
# folder (SCRATCH, default ./gptme-RUN: its own HOME and working folder). The model is gptme's
# `local` provider (OPENAI_BASE_URL at the scripted model) with `--tool-format tool`, so MCP
# tools are offered as functions. gptme runs `gptme -n ASK [- PROMPT…]`: ASK (default: one
# prompt asking for the tool), then PROMPTS, one a line, chained with `-`, such as gptme's own
# `/mcp resources list probe` command lines. For a URL the script prints the `--command` text
# the running probe should have been given.
# Every process left running with the scratch HOME is ended by its process id.
set -u
R=$1; TARGET=$2; shift 2
GPTME=${GPTME:?set GPTME to the gptme binary of a venv}
P=${MPORT:-18767}
S=${SCRATCH:-$PWD/gptme-$R}; rm -rf "$S"; mkdir -p "$S/home/.config/gptme" "$S/work"
V=$("$(dirname "$GPTME")/python" -c 'import importlib.metadata as m; print(m.version("gptme"))')
ASK=${ASK:-Call the probe_echo tool.}
# PROMPTS: extra prompts after the ask, one a line, chained with gptme's `-` separator.
EXTRA=()
if [ -n "${PROMPTS:-}" ]; then mapfile -t EXTRA <<< "$PROMPTS"; fi
ARGS=("$ASK"); SHOWN="'$ASK'"
for x in "${EXTRA[@]}"; do ARGS+=(- "$x"); SHOWN="$SHOWN - '$x'"; done
CMD="gptme -n -m local/probe --tool-format tool $SHOWN (config.toml: [mcp] enabled, [[mcp.servers]] probe"
C=$S/home/.config/gptme/config.toml
q() { python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$1"; }
cat > "$C" <<T
[env]
OPENAI_BASE_URL = "http://127.0.0.1:$P/v1"
OPENAI_API_KEY = "x"

[mcp]
enabled = true
auto_start = true

[[mcp.servers]]
name = "probe"
enabled = true
T
if [ "$TARGET" = stdio ]; then
  FN=${FIELDNOTES:?set FIELDNOTES to the fieldnotes binary}
  CMD="$CMD command)"
  PROBE=("$FN" probe stdio --root "${ROOT:?set ROOT to the site}" --out "${OUT:?set OUT}"
         --package "pypi:gptme@$V" --quiet-timeout "${QUIET:-3}" --idle-limit 600 --command "$CMD" "$@")
  PJ=$(python3 -c 'import json,sys; print(json.dumps(sys.argv[1:]))' "${PROBE[@]:1}")
  printf 'command = %s\nargs = %s\n' "$(q "${PROBE[0]}")" "$PJ" >> "$C"
else
  printf 'url = %s\n' "$(q "$TARGET")" >> "$C"
  echo "command (give it to probe http as --command): $CMD url)"
fi
cd "$S/work" || exit 1
HOME=$S/home OPENAI_BASE_URL=http://127.0.0.1:$P/v1 OPENAI_API_KEY=x \
  timeout 180 "$GPTME" -n -m local/probe --tool-format tool "${ARGS[@]}" \
  > "$S/client.out" 2> "$S/client.err" < /dev/null
echo "exit $?"
for p in $(grep -l -a "HOME=$S/home" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3); do [ "$p" != "$$" ] && kill "$p" 2>/dev/null; done; true
