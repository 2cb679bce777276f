#!/usr/bin/env bash
# Interop with the official SDKs, all on 127.0.0.1:
#   - the JS SDK client and the Python SDK client against our `campus tutor`;
#   - our `campus student` against a JS SDK server and a Python SDK server;
#   - AG-UI: @ag-ui/client's verifyEvents and @ag-ui/core's schemas over the stream of a
#     real `campus ui` with a Hub, Tutor and Library (normal, unsupported, interleaved and
#     resumed runs, then a run with the Hub stopped).
# Installs the peers on first use (interop/js/node_modules, interop/agui/node_modules,
# interop/.venv), builds
# `campus` (debug) unless CAMPUS_BIN is set, prints one `ok …` / `FAIL …` line per check
# and closes with `N passed, M failed`. Exits non-zero if anything failed.
# Usage: bash interop/run.sh            (from any directory)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
JS_DIR="$HERE/js"
AGUI_DIR="$HERE/agui"
PY_DIR="$HERE/py"
VENV="$HERE/.venv"
PY="$VENV/bin/python"

READY_TIMEOUT=${INTEROP_READY_TIMEOUT:-30} # seconds a server may take to print its ready line
CHECK_TIMEOUT=${INTEROP_CHECK_TIMEOUT:-60} # seconds one peer program may run
# the tutor runs in fixed mode: the checks compare the exact reply the SDK clients get
TUTOR_REPLY='Hello Student Agent. Yes, I can help you with calculus.'
QUESTION='Hello SDK agent, this is the Campus Student. Can you hear me?'

WORK="$(mktemp -d "${TMPDIR:-/tmp}/campus-interop.XXXXXX")"
PIDS=()
PASSED=0
FAILED=0

stop() { # stop PID...: TERM, up to 5 s grace, then KILL
  local pid
  for pid in "$@"; do kill -TERM "$pid" 2>/dev/null || true; done
  for _ in $(seq 50); do
    local alive=0
    for pid in "$@"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    ((alive)) || break
    sleep 0.1
  done
  for pid in "$@"; do
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  # Forget them, so that cleanup never signals a pid the system has since reused.
  local keep=() p
  for p in "${PIDS[@]}"; do [[ " $* " == *" $p "* ]] || keep+=("$p"); done
  PIDS=("${keep[@]}")
}

# shellcheck disable=SC2317 # invoked by the EXIT trap
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  ((${#PIDS[@]})) && stop "${PIDS[@]}"
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

ok() { echo "ok $*"; PASSED=$((PASSED + 1)); }
fail() { echo "FAIL $*"; FAILED=$((FAILED + 1)); }
show() { sed -n '1,20s/^/    | /p' "$1" >&2; } # first lines of a log, indented, on stderr

finish() {
  echo "$PASSED passed, $FAILED failed"
  exit $((FAILED == 0 ? 0 : 1))
}

# A marker file holds the hash of what was installed; a match means nothing to do.
stamp_of() { cat "$@" | sha256sum | cut -d' ' -f1; }

install_js() { # install_js [DIR]: npm ci there unless its lock file is what was installed
  local dir=${1:-$JS_DIR} want
  want="$(stamp_of "$dir/package.json" "$dir/package-lock.json" <(node --version))"
  [[ -f "$dir/node_modules/.interop-stamp" && "$(cat "$dir/node_modules/.interop-stamp")" == "$want" ]] && return 0
  echo "installing the JS peers into ${dir#"$ROOT/"}/node_modules (npm ci)" >&2
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) >"$WORK/npm.log" 2>&1 || {
    show "$WORK/npm.log"
    return 1
  }
  echo "$want" >"$dir/node_modules/.interop-stamp"
}

install_py() {
  local want
  want="$(stamp_of "$PY_DIR/requirements.txt" <(python3 --version))"
  [[ -x "$PY" && -f "$VENV/.interop-stamp" && "$(cat "$VENV/.interop-stamp")" == "$want" ]] && return 0
  echo "installing the Python SDK peers into interop/.venv (pip)" >&2
  {
    [[ -x "$PY" ]] || python3 -m venv "$VENV"
    "$PY" -m pip install --quiet --disable-pip-version-check -r "$PY_DIR/requirements.txt"
  } >"$WORK/pip.log" 2>&1 || {
    show "$WORK/pip.log"
    return 1
  }
  echo "$want" >"$VENV/.interop-stamp"
}

# start NAME PREFIX CMD...: runs CMD in the background and waits for its ready line
# `PREFIX http://127.0.0.1:<port>` on stdout; sets URL. Fails on exit or timeout.
URL=""
LAST_PID=""
start() {
  local name=$1 prefix=$2
  shift 2
  local out="$WORK/$name.out" err="$WORK/$name.err"
  : >"$out" # exists before we poll it, whenever the child gets to run
  "$@" >"$out" 2>"$err" &
  LAST_PID=$!
  PIDS+=("$LAST_PID")
  local deadline=$((SECONDS + READY_TIMEOUT)) line
  while :; do
    # Only complete lines: the first `wc -l` lines end with a newline.
    line="$(head -n "$(wc -l <"$out")" "$out" | grep -m1 -E "^$prefix http://127\.0\.0\.1:[0-9]+$" || true)"
    if [[ -n "$line" ]]; then
      URL="${line#"$prefix "}"
      return 0
    fi
    if ! kill -0 "$LAST_PID" 2>/dev/null; then
      echo "$name exited before it was ready:" >&2
      show "$err"
      return 1
    fi
    if ((SECONDS >= deadline)); then
      echo "$name printed no ready line within ${READY_TIMEOUT}s:" >&2
      show "$err"
      return 1
    fi
    sleep 0.05
  done
}

# peer_checks NAME COUNT CMD...: runs a peer client that prints COUNT `ok`/`FAIL` lines.
peer_checks() {
  local name=$1 count=$2
  shift 2
  local out="$WORK/$name.out" err="$WORK/$name.err" rc=0 seen=0 bad=0 line
  timeout "$CHECK_TIMEOUT" "$@" >"$out" 2>"$err" || rc=$?
  while IFS= read -r line; do
    case "$line" in
      "ok "*) ok "${line#ok }"; seen=$((seen + 1)) ;;
      "FAIL "*) fail "${line#FAIL }"; seen=$((seen + 1)); bad=1 ;;
      *) echo "    $line" ;;
    esac
  done <"$out"
  if ((rc != 0 && !bad)) || ((seen != count)); then
    fail "$name: exited $rc after $seen of $count checks"
    bad=1
  fi
  if ((bad)) && [[ -s "$err" ]]; then show "$err"; fi
}

# student_against NAME AGENT_NAME REPLY: our Student asks the SDK agent at $URL.
student_against() {
  local name=$1 agent=$2 reply=$3 out="$WORK/student-$1.out" err="$WORK/student-$1.err" rc=0
  TUTOR_URL="$URL" timeout "$CHECK_TIMEOUT" "$CAMPUS_BIN" student --verbose "$QUESTION" >"$out" 2>"$err" || rc=$?
  local want="$agent: $reply You said: $QUESTION"
  if ((rc != 0)); then
    fail "campus student -> $name: exited $rc: $(grep -m1 '^error:' "$err" || tail -n1 "$err")"
  elif ! grep -qxF -- "$want" "$out"; then
    fail "campus student -> $name: expected the line '$want', got: $(head -n1 "$out")"
  elif ! grep -qE '^reply messageId=[^ ]+ contextId=[^ ]+$' "$out"; then
    fail "campus student -> $name: no 'reply messageId=… contextId=…' line"
  else
    ok "campus student -> $name: SendMessage got the reply ($reply)"
  fi
}

# --- peers and binary -------------------------------------------------------------
install_js || { fail "install the JS SDK peers (npm ci in interop/js)"; finish; }
install_py || { fail "install the Python SDK peers (pip into interop/.venv)"; finish; }
install_js "$AGUI_DIR" || { fail "install the AG-UI verifier (npm ci in interop/agui)"; finish; }

if [[ -z "${CAMPUS_BIN:-}" ]]; then
  (cd "$ROOT" && cargo build -q --bin campus) >"$WORK/build.log" 2>&1 || {
    show "$WORK/build.log"
    fail "build campus (cargo build --bin campus)"
    finish
  }
  target="${CARGO_TARGET_DIR:-target}"
  [[ "$target" == /* ]] || target="$ROOT/$target"
  CAMPUS_BIN="$target/debug/campus"
fi
[[ -x "$CAMPUS_BIN" ]] || { fail "campus binary: $CAMPUS_BIN is not executable"; finish; }

# --- SDK clients -> our Tutor -----------------------------------------------------
if PORT=0 TUTOR_MODE=fixed CAMPUS_DATA_DIR="$WORK/data" start tutor "tutor listening on" "$CAMPUS_BIN" tutor; then
  TUTOR_URL_BASE="$URL"
  peer_checks "js sdk client" 3 node "$JS_DIR/client.mjs" "$TUTOR_URL_BASE" "$TUTOR_REPLY"
  peer_checks "python sdk client" 4 "$PY" "$PY_DIR/client.py" "$TUTOR_URL_BASE" "$TUTOR_REPLY"
  stop "$LAST_PID"
else
  for side in "js sdk client" "python sdk client"; do
    for check in "fetch agent card" "SendMessage returns the reply Message" "GetTask of an unknown id is TaskNotFound (-32001)"; do
      fail "$side -> campus tutor: $check: campus tutor did not start"
    done
  done
fi

# --- our Student -> SDK servers ---------------------------------------------------
if start js-server "js sdk agent listening on" node "$JS_DIR/server.mjs"; then
  student_against "js sdk agent" "JS SDK Agent" "Hello from the JS SDK agent."
  stop "$LAST_PID"
else
  fail "start the JS SDK agent (interop/js/server.mjs)"
fi

if start py-server "python sdk agent listening on" "$PY" "$PY_DIR/server.py"; then
  student_against "python sdk agent" "Python SDK Agent" "Hello from the Python SDK agent."
  stop "$LAST_PID"
else
  fail "start the Python SDK agent (interop/py/server.py)"
fi

# --- AG-UI: the official verifier over campus ui's stream ---------------------------
# The Hub starts first (port 0) without knowing the specialists, which register with
# it; it is then restarted on its port knowing them (the specialists keep registering).
agui_checks() {
  local data="$WORK/agui-data" hub_pid hub_url tutor_url library_url ui_url
  start agui-hub "hub listening on" env PORT=0 CAMPUS_DATA_DIR="$data" "$CAMPUS_BIN" hub || return 1
  hub_pid=$LAST_PID hub_url=$URL
  start agui-tutor "tutor listening on" env PORT=0 HUB_URL="$hub_url" CAMPUS_DATA_DIR="$data" \
    HEARTBEAT_INTERVAL_MS=200 "$CAMPUS_BIN" tutor || return 1
  tutor_url=$URL
  start agui-library "library listening on" env PORT=0 HUB_URL="$hub_url" CAMPUS_DATA_DIR="$data" \
    HEARTBEAT_INTERVAL_MS=200 "$CAMPUS_BIN" library || return 1
  library_url=$URL
  stop "$hub_pid"
  start agui-hub2 "hub listening on" env PORT="${hub_url##*:}" TUTOR_URL="$tutor_url" LIBRARY_URL="$library_url" \
    CAMPUS_DATA_DIR="$data" "$CAMPUS_BIN" hub || return 1
  hub_pid=$LAST_PID
  start agui-ui "ui listening on" env PORT=0 HUB_URL="$hub_url" "$CAMPUS_BIN" ui || return 1
  ui_url=$URL
  peer_checks "agui ready" 1 node "$AGUI_DIR/verify.mjs" "$ui_url" ready
  peer_checks "agui normal" 6 node "$AGUI_DIR/verify.mjs" "$ui_url" normal
  peer_checks "agui resume" 6 node "$AGUI_DIR/verify.mjs" "$ui_url" resume
  stop "$hub_pid"
  peer_checks "agui hub down" 7 node "$AGUI_DIR/verify.mjs" "$ui_url" hubdown
}
agui_checks || fail "campus ui -> @ag-ui/client: the agents did not start"

finish
