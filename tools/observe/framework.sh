# framework.sh: the body the Python-framework launchers share (beeai.sh, mcp_agent.sh,
# mcp_use.sh), sourced after each sets
#   PKG       the PyPI package (its version in $PY's venv names the observation's package)
#   DRIVER    the driver beside this file, run with $PY
#   STEPS     the driver's --steps
#   HOW_STDIO what the framework does over stdio, for --command
#   url_args  a function of the launcher's remaining arguments that sets URL_ARGS (the driver's
#             arguments for $TARGET) and HOW_URL (the --command words after the steps)
#   FLAGS     more driver flags (an array; may be empty), and ENVS, `NAME=VALUE` words for it
# and then `R=$1; TARGET=$2; shift 2`. Runs the driver once against the probe: over stdio it
# starts `fieldnotes probe stdio` (OUT, FIELDNOTES, ROOT) as the server; for a URL it prints the
# `--command` text the running `probe http` should have been given. MPORT names a running
# `fieldnotes probe model`. The run gets a scratch HOME (SCRATCH, default ./PKG-RUN), and every
# process left running with it is ended by its process id.
PY=${PY:?set PY to the python of a venv with $PKG}
D=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$DRIVER
S=${SCRATCH:-$PWD/$PKG-$R}; rm -rf "$S"; mkdir -p "$S/home" "$S/work"
V=$("$PY" -c "import importlib.metadata as m; print(m.version('$PKG'))")
MODEL=(); [ -n "${MPORT:-}" ] && MODEL=(--model-url "http://127.0.0.1:$MPORT/v1")
CMD="python tools/observe/$DRIVER --steps $STEPS${MPORT:+ --model-url <scripted model>}"
if [ "$TARGET" = stdio ]; then
  FN=${FIELDNOTES:?set FIELDNOTES to the fieldnotes binary}
  CMD="$CMD stdio -- <probe> ($HOW_STDIO)"
  ARGS=(stdio -- "$FN" probe stdio --root "${ROOT:?set ROOT to the site}" --out "${OUT:?set OUT}"
        --package "pypi:$PKG@$V" --quiet-timeout "${QUIET:-5}" --idle-limit 600 --command "$CMD" "$@")
else
  url_args "$@"
  CMD="$CMD $HOW_URL"
  ARGS=("${URL_ARGS[@]}")
  echo "command (give it to probe http as --command): $CMD"
fi
cd "$S/work" || exit 1
env HOME="$S/home" ${ENVS:-} timeout 180 "$PY" "$D" --steps "$STEPS" "${MODEL[@]}" \
  ${FLAGS[@]+"${FLAGS[@]}"} "${ARGS[@]}" > "$S/client.out" 2> "$S/client.err" < /dev/null
echo "exit $?"
for p in $(grep -l -a "HOME=$S/home" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3); do
  [ "$p" != "$$" ] && kill "$p" 2>/dev/null
done
true
