#!/bin/bash
# goose_session.sh: goose's interactive CLI (`goose session`) in tmux, driven as its user would:
# it asks the scripted model to call the probe's tool, answers the form elicitation the probe
# sends during the call (goose asks field by field in the terminal; headless `goose run` has no
# terminal and fails the elicitation), then types /exit.
#
#   GOOSE=BIN OUT=DIR FIELDNOTES=BIN ROOT=SITE MPORT=P goose_session.sh stdio [probe flags…]
#   GOOSE=BIN MPORT=P goose_session.sh URL            (a `fieldnotes probe http` already running)
#
# BROWSER, when set, is passed on: with `probe http --auth oauth`, a script running
# `fieldnotes probe browser "$1"` signs goose in on loopback.
#
# GOOSE is the binary of npm @aaif/goose-binary-linux-x64 (observe.py install goose); its
# version names the observation's package. Start the scripted model first:
# `fieldnotes probe model --port P --out OUT`. A scratch HOME and working folder are made under
# /tmp and removed; the screen is printed before /exit.
#
# DRIVE picks what the user does (the command written in the observation says which):
#   tool       (the default) ask for the probe's tool and answer its form, as above;
#   resources  with goose's built-in `extensionmanager` loaded, ask twice: the scripted model
#              calls its `list_resources` tool, then its `read_resource` tool for RESOURCE
#              (default probe://fieldnotes/about). The script runs the scripted model itself
#              (FIELDNOTES, MOUT: its --out, default OUT), restarting it between the two turns
#              with the other --tool (MODEL_FLAGS, e.g. --bodies, are added); do not start one
#              first;
#   prompts    type `/prompts`, then `/prompt probe_prompt topic=fieldnotes`; goose passes the
#              prompt to the model, whose call of the probe's tool is answered as in `tool`;
#              then one more message, a second turn.
set -u
TARGET=$1; shift
GOOSE=${GOOSE:?set GOOSE to the goose binary}
P=${MPORT:-18767}
S=$(mktemp -d /tmp/goose-session.XXXXXX); mkdir -p "$S/home/.config/goose" "$S/work"
MPID=
trap 'tmux -L "${S##*/}" kill-server 2>/dev/null; rm -rf "$S"; [ -n "$MPID" ] && kill "$MPID" 2>/dev/null' EXIT
echo "GOOSE_TELEMETRY_ENABLED: false" > "$S/home/.config/goose/config.yaml"
V=$("$GOOSE" --version | tr -d ' ')
DRIVE=${DRIVE:-tool}
case $DRIVE in
  tool) ASK="goose session (in a terminal; the user asks for the tool and answers the form field by field; OPENAI_HOST=scripted model)" ;;
  resources) ASK="goose session --with-builtin extensionmanager (in a terminal; the user asks twice; the scripted model calls extensionmanager__list_resources with no arguments, then extensionmanager__read_resource with the probe's resource URI and extension; OPENAI_HOST=scripted model)" ;;
  prompts) ASK="goose session (in a terminal; the user types /prompts, then /prompt probe_prompt topic=fieldnotes, answers the form of the tool call that follows, then sends one more message; OPENAI_HOST=scripted model)" ;;
  *) echo "goose_session.sh: DRIVE is tool, resources or prompts" >&2; exit 2 ;;
esac
if [ "$TARGET" = stdio ]; then
  FN=${FIELDNOTES:?set FIELDNOTES to the fieldnotes binary}
  PROBE=("$FN" probe stdio --root "${ROOT:?set ROOT to the site}" --out "${OUT:?set OUT}"
         --package "npm:@aaif/goose-binary-linux-x64@$V" --quiet-timeout 3 --idle-limit 600
         --command "$ASK" "$@")
  # goose splits an extension's command line at spaces, quotes and all: a script holds it.
  printf '#!/bin/sh\nexec %s\n' "$(python3 -c 'import shlex,sys; print(shlex.join(sys.argv[1:]))' "${PROBE[@]}")" > "$S/work/probe.sh"
  EXT=(--with-extension "probe:sh $S/work/probe.sh")
else
  EXT=(--with-streamable-http-extension "$TARGET")
fi
[ "$DRIVE" = resources ] && EXT+=(--with-builtin extensionmanager)
T=(tmux -L "${S##*/}")
RUN=$(python3 -c 'import shlex,sys; print(shlex.join(sys.argv[1:]))' env HOME="$S/home" \
  ${BROWSER:+BROWSER="$BROWSER"} \
  GOOSE_PROVIDER=openai GOOSE_MODEL=gpt-4o OPENAI_HOST="http://127.0.0.1:$P" OPENAI_API_KEY=x \
  GOOSE_MODE=auto "$GOOSE" session --no-profile "${EXT[@]}")
"${T[@]}" new-session -d -x 160 -y 48 -c "$S/work" "$RUN"
# wait_for TEXT SECONDS: until the screen shows TEXT.
wait_for() {
  for _ in $(seq "$2"); do
    "${T[@]}" capture-pane -p 2>/dev/null | grep -q "$1" && return 0
    sleep 1
  done
  echo "goose_session.sh: no '$1' on the screen after $2 s" >&2
  return 1
}
# model TOOL [ARGUMENTS]: (re)start the scripted model on port P, calling TOOL.
model() {
  [ -n "$MPID" ] && kill "$MPID" && wait "$MPID" 2>/dev/null
  "${FIELDNOTES:?set FIELDNOTES to the fieldnotes binary}" probe model --port "$P" \
    --out "${MOUT:-${OUT:?set MOUT or OUT}}" --quiet ${MODEL_FLAGS:-} --tool "$1" ${2:+--arguments "$2"} &
  MPID=$!
  sleep 1
}
[ "$DRIVE" = resources ] && model list_resources
# Extensions load in the background (a sign-in among them prints over the prompt's hint).
wait_for "goose is ready" 60 && sleep 6
case $DRIVE in
  tool)
    "${T[@]}" send-keys "Call the probe_echo tool." Enter
    wait_for "what is your name" 60 && sleep 1 && "${T[@]}" send-keys "fieldnotes" Enter
    wait_for "answered" 30 ;;
  resources)
    "${T[@]}" send-keys "List the resources of the probe extension." Enter
    wait_for "list_resources answered" 60
    model read_resource "{\"uri\": \"${RESOURCE:-probe://fieldnotes/about}\", \"extension_name\": \"probe\"}"
    "${T[@]}" send-keys "Read the probe's resource." Enter
    wait_for "read_resource answered" 60 ;;
  prompts)
    "${T[@]}" send-keys "/prompts" Enter
    wait_for "probe_prompt" 30 && sleep 2
    "${T[@]}" send-keys "/prompt probe_prompt topic=fieldnotes" Enter
    # goose sends the prompt's messages to the model, which calls the probe's tool: answer its form.
    wait_for "what is your name" 60 && sleep 1 && "${T[@]}" send-keys "fieldnotes" Enter
    # A second turn, before which goose lists the tools again (the probe said they changed).
    wait_for "answered" 30 && "${T[@]}" send-keys "Thanks." Enter && sleep 8 ;;
esac
sleep 2
"${T[@]}" capture-pane -p 2>/dev/null | grep -v '^$'
"${T[@]}" send-keys "/exit" Enter
sleep 5
