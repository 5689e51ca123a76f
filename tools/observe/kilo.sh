#!/bin/bash
# kilo.sh: one headless run of Kilo CLI (npm @kilocode/cli, the `kilo` binary the Kilo Code
# VS Code extension bundles and runs as its backend) against the probe, its model a provider
# `@ai-sdk/openai-compatible` at `fieldnotes probe model`, its MCP server given in ./kilo.json.
#
#   KILO=BIN OUT=DIR FIELDNOTES=BIN ROOT=SITE [MPORT=P] kilo.sh RUN stdio [probe flags…]
#   KILO=BIN [MPORT=P] kilo.sh RUN URL     (a `fieldnotes probe http` already running, e.g.
#                                          http://127.0.0.1:P/mcp; give that probe
#                                          --package/--command: the script prints CMD)
#
# KILO is the `kilo` of an npm prefix (npm i @kilocode/cli@VERSION, which brings the
# platform package with the binary); the installed @kilocode/cli version names the
# observation's package. Start the scripted model first, into the same OUT:
# `fieldnotes probe model --port $MPORT --out $OUT` (with `--tool NAME --arguments JSON` for
# one of kilo's own MCP tools, and TOOL=NAME here so the prompt asks for it). RUN names the
# scratch folder (SCRATCH, default ./kilo-RUN: its own HOME and working folder). What runs:
#   default        kilo run --format json 'Call the $TOOL tool.' (TOOL default probe_echo)
#   SLASH=NAME     kilo run --format json --command NAME $WORDS (an MCP prompt is
#                  server:prompt, e.g. probe:probe_prompt; WORDS default fieldnotes)
#   LIST=1         kilo mcp list (connects, lists tools, no model)
#   CANCEL=1       the server entry gets "timeout": 2000 (give the probe --tool-delay 10000)
#   AUTH=1         (a URL only; set FIELDNOTES) first `kilo mcp auth probe` in a pseudo-
#                  terminal (`script`), `fieldnotes probe browser` as xdg-open and $BROWSER,
#                  for a probe run with `--auth oauth`; then, WAIT seconds later (default
#                  1), the run above
# Output goes to the scratch folder's client.out and client.err. Every process left running
# with the scratch HOME is ended by its process id.
set -u
R=$1; TARGET=$2; shift 2
KILO=${KILO:?set KILO to the kilo binary of an npm prefix}
P=${MPORT:-19150}
S=${SCRATCH:-$PWD/kilo-$R}; rm -rf "$S"; mkdir -p "$S/home" "$S/work"
V=$(node -e "console.log(require(require('path').join('$(dirname "$KILO")', '..', '@kilocode/cli/package.json')).version)")
export HOME=$S/home
cd "$S/work" || exit 1
TOOL=${TOOL:-probe_echo}
T2=${CANCEL:+2}
if [ -n "${LIST:-}" ]; then
  RUNARGS=(mcp list)
elif [ -n "${SLASH:-}" ]; then
  RUNARGS=(run --format json --command "$SLASH" ${WORDS:-fieldnotes})
else
  RUNARGS=(run --format json "Call the $TOOL tool.")
fi
SHOWN=$(python3 -c 'import shlex,sys; print(shlex.join(sys.argv[1:]))' kilo "${RUNARGS[@]}")
if [ "$TARGET" = stdio ]; then ENTRY=local; else ENTRY=remote; fi
CMD="$SHOWN (./kilo.json: mcp.probe type $ENTRY${T2:+ with timeout 2000}"
[ -z "${LIST:-}" ] && CMD="$CMD, provider @ai-sdk/openai-compatible at the scripted model, permission allow"
CMD="$CMD)"
if [ "$TARGET" = stdio ]; then
  FN=${FIELDNOTES:?set FIELDNOTES to the fieldnotes binary}
  SERVER=("$FN" probe stdio --root "${ROOT:?set ROOT to the site}" --out "${OUT:?set OUT}"
          --package "npm:@kilocode/cli@$V" --quiet-timeout 3 --idle-limit 600 --command "$CMD" "$@")
  MCP=$(python3 -c 'import json,sys; print(json.dumps({"type": "local", "command": sys.argv[2:], **({"timeout": 2000} if sys.argv[1] else {})}))' "$T2" "${SERVER[@]}")
else
  echo "CMD: $CMD"
  MCP=$(python3 -c 'import json,sys; print(json.dumps({"type": "remote", "url": sys.argv[2], **({"timeout": 2000} if sys.argv[1] else {})}))' "$T2" "$TARGET")
fi
cat > kilo.json <<T
{"\$schema": "https://app.kilo.ai/config.json",
 "provider": {"scripted": {"npm": "@ai-sdk/openai-compatible", "name": "scripted",
   "options": {"baseURL": "http://127.0.0.1:$P/v1", "apiKey": "x"}, "models": {"probe": {"name": "probe"}}}},
 "model": "scripted/probe",
 "permission": {"*": "allow"},
 "mcp": {"probe": $MCP}}
T
if [ -n "${AUTH:-}" ]; then
  mkdir -p "$S/bin"
  printf '#!/bin/sh\nexec %s probe browser "$1"\n' "${FIELDNOTES:?set FIELDNOTES to the fieldnotes binary}" > "$S/bin/xdg-open"
  chmod +x "$S/bin/xdg-open"; export PATH=$S/bin:$PATH BROWSER=$S/bin/xdg-open
  timeout 90 script -q -c "$(printf '%q' "$KILO") mcp auth probe" /dev/null < /dev/null > "$S/auth.out" 2>&1
  echo "kilo mcp auth: exit $?"
  sleep "${WAIT:-1}"
fi
timeout 180 "$KILO" "${RUNARGS[@]}" > "$S/client.out" 2> "$S/client.err"
echo "kilo $V: exit $?, output in $S/client.out"
for p in $(grep -l -a "HOME=$S/home" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3); do [ "$p" != "$$" ] && kill "$p" 2>/dev/null; done; true
