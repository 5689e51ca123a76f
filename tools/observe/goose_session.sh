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
set -u
TARGET=$1; shift
GOOSE=${GOOSE:?set GOOSE to the goose binary}
P=${MPORT:-18767}
S=$(mktemp -d /tmp/goose-session.XXXXXX); mkdir -p "$S/home/.config/goose" "$S/work"
trap 'tmux -L "${S##*/}" kill-server 2>/dev/null; rm -rf "$S"' EXIT
echo "GOOSE_TELEMETRY_ENABLED: false" > "$S/home/.config/goose/config.yaml"
V=$("$GOOSE" --version | tr -d ' ')
ASK="goose session (in a terminal; the user asks for the tool and answers the form field by field; OPENAI_HOST=scripted model)"
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
# Extensions load in the background (a sign-in among them prints over the prompt's hint).
wait_for "goose is ready" 60 && sleep 6 && "${T[@]}" send-keys "Call the probe_echo tool." Enter
wait_for "what is your name" 60 && sleep 1 && "${T[@]}" send-keys "fieldnotes" Enter
wait_for "answered" 30
sleep 2
"${T[@]}" capture-pane -p 2>/dev/null | grep -v '^$'
"${T[@]}" send-keys "/exit" Enter
sleep 5
