#!/bin/bash
# mcpc.sh: one session of mcpc (npm @apify/mcpc) against the probe, driven through each of its
# session commands, so the observation shows what mcpc's own bridge sends past the handshake.
#
#   MCPC=BIN OUT=DIR FIELDNOTES=BIN ROOT=SITE mcpc.sh RUN stdio [probe flags…]
#   MCPC=BIN mcpc.sh RUN URL        (a `fieldnotes probe http` already running, e.g.
#                                    http://127.0.0.1:P/mcp; give that probe --package/--command)
#
# MCPC is the `mcpc` of an npm prefix (npm i @apify/mcpc@VERSION); the installed version names
# the observation's package. RUN names the scratch folder (SCRATCH, default ./mcpc-RUN: its own
# HOME, where mcpc keeps its sessions and bridge logs, and working folder). A stdio server is
# given to mcpc as a config file entry (mcp.json, `mcpServers.probe`), a URL as itself.
# The commands: connect, the session overview, tools-list, tools-get, tools-call probe_echo,
# resources-list, resources-templates-list, resources-read (the resource and a templated URI),
# resources-subscribe, resources-unsubscribe, prompts-list, prompts-get, logging-set-level,
# ping, tasks-list, close. CANCEL=1 runs only connect, a tools-call with `--timeout 2` and close
# (give the probe --tool-delay 10000 so the call outlives it). Each command's output goes to
# the scratch folder's client.out. LOGIN=1 (a URL only; set FIELDNOTES) first runs
# `mcpc login URL` with `fieldnotes probe browser` as xdg-open and $BROWSER, for a probe run
# with `--auth oauth`; the session then connects with the profile saved. WAIT=SECONDS sleeps
# that long before the commands after connect (past a short --token-lifetime); PRELIST=1 runs
# resources-list and prompts-list right after connect, before that wait (with the probe's
# --settle-ms longer than it, so the list-changed notifications come after). Every process
# left running with the scratch HOME is ended by its process id.
set -u
R=$1; TARGET=$2; shift 2
MCPC=${MCPC:?set MCPC to the mcpc binary of an npm prefix}
S=${SCRATCH:-$PWD/mcpc-$R}; rm -rf "$S"; mkdir -p "$S/home" "$S/work"
V=$(node -e "console.log(require(require('path').join('$(dirname "$MCPC")', '..', '@apify/mcpc/package.json')).version)")
export HOME=$S/home
cd "$S/work" || exit 1
if [ -n "${CANCEL:-}" ]; then
  STEPS="connect, tools-call probe_echo with --timeout 2, close"
else
  STEPS="connect, then ${PRELIST:+resources-list, prompts-list, ${WAIT:-2} s later }@probe (overview), tools-list, tools-get, tools-call probe_echo, resources-list, resources-templates-list, resources-read (the resource and a templated URI), resources-subscribe, resources-unsubscribe, prompts-list, prompts-get, logging-set-level debug, ping, tasks-list, close"
fi
if [ "$TARGET" = stdio ]; then
  FN=${FIELDNOTES:?set FIELDNOTES to the fieldnotes binary}
  CMD="mcpc $STEPS (stdio server as mcp.json mcpServers.probe, connected as mcp.json:probe @probe)"
  PROBE=(probe stdio --root "${ROOT:?set ROOT to the site}" --out "${OUT:?set OUT}"
         --package "npm:@apify/mcpc@$V" --quiet-timeout 3 --idle-limit 600 --command "$CMD" "$@")
  python3 - "$FN" "${PROBE[@]}" > mcp.json <<'P'
import json, sys
print(json.dumps({"mcpServers": {"probe": {"command": sys.argv[1], "args": sys.argv[2:]}}}, indent=1))
P
  SERVER=mcp.json:probe
else
  SERVER=$TARGET
fi
run() { echo "== mcpc $*" >> "$S/client.out"; timeout 60 "$MCPC" "$@" >> "$S/client.out" 2>&1; echo "rc=$?" >> "$S/client.out"; sleep 1; }
if [ -n "${LOGIN:-}" ]; then
  mkdir -p "$S/bin"
  printf '#!/bin/sh\nexec %s probe browser "$1"\n' "${FIELDNOTES:?set FIELDNOTES to the fieldnotes binary}" > "$S/bin/xdg-open"
  chmod +x "$S/bin/xdg-open"; export PATH=$S/bin:$PATH BROWSER=$S/bin/xdg-open
  run login "$SERVER" < /dev/null
fi
run connect "$SERVER" @probe
[ -n "${PRELIST:-}" ] && { run @probe resources-list; run @probe prompts-list; }
sleep "${WAIT:-2}"
if [ -n "${CANCEL:-}" ]; then
  run --timeout 2 @probe tools-call probe_echo text:=hello --json
  sleep 12
else
  run @probe
  run @probe tools-list
  run @probe tools-get probe_echo
  run @probe tools-call probe_echo text:=hello --json
  run @probe resources-list
  run @probe resources-templates-list
  run @probe resources-read probe://fieldnotes/about
  run @probe resources-read probe://fieldnotes/topic/fieldnotes
  run @probe resources-subscribe probe://fieldnotes/about
  run @probe resources-unsubscribe probe://fieldnotes/about
  run @probe prompts-list
  run @probe prompts-get probe_prompt topic:=fieldnotes
  run @probe logging-set-level debug
  run @probe ping
  run @probe tasks-list
fi
run close @probe
sleep 4
echo "mcpc $V: done, output in $S/client.out"
for p in $(grep -l -a "HOME=$S/home" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3); do [ "$p" != "$$" ] && kill "$p" 2>/dev/null; done; true
