#!/bin/bash
# inspector.sh: the MCP Inspector CLI (npm @modelcontextprotocol/inspector) run once per method
# it offers, each run against its own `fieldnotes probe stdio`, its observation written into OUT.
#
#   INSPECTOR=BIN OUT=DIR FIELDNOTES=BIN ROOT=SITE inspector.sh [METHOD…]
#
# INSPECTOR is the installed `mcp-inspector` (observe.py install mcp-inspector); its package
# version names the observation's package. METHOD defaults to every method below; each run is
# `mcp-inspector --cli <probe> --method METHOD` with the arguments that method needs.
set -u
INSPECTOR=${INSPECTOR:?set INSPECTOR to the mcp-inspector binary}
OUT=${OUT:?set OUT to the observations folder}; mkdir -p "$OUT"
FN=${FIELDNOTES:?set FIELDNOTES to the fieldnotes binary}
ROOT=${ROOT:?set ROOT to the site}
PKG=$(dirname "$INSPECTOR")/../@modelcontextprotocol/inspector/package.json
V=$(node -e "console.log(require(process.argv[1]).version)" "$(readlink -f "$PKG")") || exit 1
[ $# -eq 0 ] && set -- tools/call resources/list resources/read resources/templates/list \
  prompts/list prompts/get logging/setLevel
for METHOD in "$@"; do
  case $METHOD in
    tools/call) ARGS=(--tool-name probe_echo --tool-arg text=fieldnotes) ;;
    resources/read) ARGS=(--uri probe://fieldnotes/about) ;;
    prompts/get) ARGS=(--prompt-name probe_prompt --prompt-args topic=fieldnotes) ;;
    logging/setLevel) ARGS=(--log-level debug) ;;
    *) ARGS=() ;;
  esac
  CMD="mcp-inspector --cli fieldnotes probe stdio --method $METHOD${ARGS[*]:+ ${ARGS[*]}}"
  S=$(mktemp -d)
  (cd "$S" && HOME=$S timeout 60 "$INSPECTOR" --cli "$FN" probe stdio --root "$ROOT" --out "$OUT" \
    --package "npm:@modelcontextprotocol/inspector@$V" --command "$CMD" \
    --method "$METHOD" "${ARGS[@]}" > "$S/out.txt" 2>&1)
  echo "$METHOD: exit $? ($(tail -c 200 "$S/out.txt" | tr '\n' ' '))"
  rm -rf "$S"
done
