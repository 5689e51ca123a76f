#!/usr/bin/env bash
# Installs fieldnotes for the GitHub Action (action.yml): the release binary built for this
# runner, its SHA-256 checked against the release's SHA256SUMS; without such a release,
# `cargo install --locked` (the action caches the result under a key of OS, architecture and
# version).
#
#   install.sh target    print the release asset for RUNNER_OS/RUNNER_ARCH
#   install.sh plan      decide the version and the cache key (to $GITHUB_OUTPUT)
#   install.sh install   install into $FIELDNOTES_HOME/bin and add it to $GITHUB_PATH
#
# Read from the environment (GitHub sets the RUNNER_ and GITHUB_ ones):
#   RUNNER_OS, RUNNER_ARCH     Linux|macOS|Windows, X64|ARM64
#   FIELDNOTES_VERSION         the action's `version` input: a release (1.2.3 or v1.2.3), a git
#                              tag, branch or commit; empty: the action's own ref
#   ACTION_PATH                the action's checkout (.../_actions/OWNER/NAME/REF on runners)
#   FIELDNOTES_REPOSITORY      OWNER/NAME to download from [default: from ACTION_PATH]
#   FIELDNOTES_RELEASE_URL     where releases are [default:
#                              $GITHUB_SERVER_URL/OWNER/NAME/releases/download]: a URL
#                              (https://, file://) or a local folder; tests point it at a
#                              fake release
#   FIELDNOTES_HOME            install root [default: $HOME/.fieldnotes]; the binary goes in bin/
#   FIELDNOTES_KEY             the plan's cache key: a binary installed under the same key (a
#                              cache hit) is kept, any other replaced
#   FIELDNOTES_CARGO           the cargo to fall back to [default: cargo]
set -euo pipefail

die() {
  echo "::error::fieldnotes install: $*" >&2
  exit "${2:-1}"
}

# The release asset for this runner: fieldnotes-<target>.tar.gz (.zip on Windows).
target() {
  case "${RUNNER_OS:-}/${RUNNER_ARCH:-}" in
    Linux/X64) echo "x86_64-unknown-linux-musl" ;;
    Linux/ARM64) echo "aarch64-unknown-linux-musl" ;;
    macOS/X64) echo "x86_64-apple-darwin" ;;
    macOS/ARM64) echo "aarch64-apple-darwin" ;;
    Windows/X64) echo "x86_64-pc-windows-msvc" ;;
    *) return 3 ;;
  esac
}

asset() {
  local triple
  triple=$(target) || return 3
  case "$triple" in
    *windows*) echo "fieldnotes-$triple.zip" ;;
    *) echo "fieldnotes-$triple.tar.gz" ;;
  esac
}

exe() {
  case "${RUNNER_OS:-}" in
    Windows) echo "fieldnotes.exe" ;;
    *) echo "fieldnotes" ;;
  esac
}

# OWNER/NAME of the action's repository: from FIELDNOTES_REPOSITORY, else from ACTION_PATH
# (runners check actions out at .../_actions/OWNER/NAME/REF; `github.action_repository` is
# empty inside composite actions).
repository() {
  if [ -n "${FIELDNOTES_REPOSITORY:-}" ]; then
    echo "$FIELDNOTES_REPOSITORY"
    return
  fi
  case "${ACTION_PATH:-}" in
    */_actions/*/*/*)
      local rest=${ACTION_PATH#*/_actions/}
      local owner=${rest%%/*}
      rest=${rest#*/}
      echo "$owner/${rest%%/*}"
      ;;
  esac
}

# The ref the action was used at (`uses: OWNER/NAME@REF`), or empty for a local action.
action_ref() {
  case "${ACTION_PATH:-}" in
    */_actions/*/*/*) basename "$ACTION_PATH" ;;
  esac
}

# The version in the action's Cargo.toml ([package] comes first).
source_version() {
  sed -n 's/^version = "\(.*\)"$/\1/p' "$ACTION_PATH/Cargo.toml" 2>/dev/null | head -n 1
}

# The release to download, without its `v`; empty when there is none to try: the input
# `version` when it names a release, else the action's Cargo.toml version when the action was
# used at that release's tag or a shorter one (v1, v1.2).
release_version() {
  local wanted=${FIELDNOTES_VERSION:-}
  if [ -n "$wanted" ]; then
    if [[ "$wanted" =~ ^v?[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]]; then
      echo "${wanted#v}"
    fi
    return
  fi
  local ref version
  ref=$(action_ref)
  version=$(source_version)
  if [ -n "$ref" ] && [ -n "$version" ] && [[ "$ref" =~ ^v[0-9] ]]; then
    case "$version" in
      "${ref#v}" | "${ref#v}".*) echo "$version" ;;
    esac
  fi
  return 0
}

# A short hash of the sources the fallback would build (a moved branch builds anew).
sources_hash() {
  (cd "$ACTION_PATH" && { find Cargo.toml Cargo.lock src themes -type f 2>/dev/null || true; } |
    LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)
}

output() {
  echo "$1"
  if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "$1" >>"$GITHUB_OUTPUT"; fi
}

plan() {
  local version key
  version=$(release_version)
  if [ -n "$version" ]; then
    key="fieldnotes-${RUNNER_OS:-}-${RUNNER_ARCH:-}-$version"
  elif [ -n "${FIELDNOTES_VERSION:-}" ]; then
    key="fieldnotes-${RUNNER_OS:-}-${RUNNER_ARCH:-}-git-$FIELDNOTES_VERSION"
  else
    key="fieldnotes-${RUNNER_OS:-}-${RUNNER_ARCH:-}-src-$(sources_hash)"
  fi
  output "version=$version"
  output "key=$key"
}

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  else
    shasum -a 256 "$1" | cut -d' ' -f1
  fi
}

# Copies release file $1 of version $2 to $3; fails when it is not there.
fetch() {
  local base=${FIELDNOTES_RELEASE_URL:-}
  if [ -z "$base" ]; then
    local repo
    repo=$(repository)
    [ -n "$repo" ] || return 1
    base="${GITHUB_SERVER_URL:-https://github.com}/$repo/releases/download"
  fi
  case "$base" in
    *://*) curl --fail --silent --show-error --location --retry 3 -o "$3" "$base/v$2/$1" ;;
    *) cp "$base/v$2/$1" "$3" 2>/dev/null ;;
  esac
}

# Downloads release $1 for this runner into $bin; fails (status 1) when there is no such
# release, and stops the action (status 4) when the download does not match its checksum.
download() {
  local version=$1 name dir
  name=$(asset) || die "no release binary for ${RUNNER_OS:-?}/${RUNNER_ARCH:-?}" 3
  dir=$(mktemp -d)
  if ! fetch "$name" "$version" "$dir/$name" || ! fetch SHA256SUMS "$version" "$dir/SHA256SUMS"; then
    rm -rf "$dir"
    return 1
  fi
  local expected actual
  expected=$(awk -v f="$name" '$2 == f || $2 == "*" f { print $1 }' "$dir/SHA256SUMS")
  actual=$(sha256 "$dir/$name")
  if [ -z "$expected" ] || [ "$expected" != "$actual" ]; then
    rm -rf "$dir"
    die "$name of v$version does not match its checksum in SHA256SUMS (expected ${expected:-none}, got $actual)" 4
  fi
  mkdir -p "$bin"
  case "$name" in
    *.zip)
      if command -v unzip >/dev/null 2>&1; then
        unzip -o -q "$dir/$name" -d "$dir/x"
      else
        pwsh -NoProfile -Command "Expand-Archive -Force '$dir/$name' '$dir/x'"
      fi
      ;;
    *) mkdir -p "$dir/x" && tar -xzf "$dir/$name" -C "$dir/x" ;;
  esac
  local found
  found=$(find "$dir/x" -name "$(exe)" -type f | head -n 1)
  [ -n "$found" ] || die "$name holds no $(exe)" 4
  mv "$found" "$bin/$(exe)"
  chmod +x "$bin/$(exe)"
  rm -rf "$dir"
  echo "fieldnotes: installed release v$version ($name, SHA-256 checked)"
}

# Builds with cargo: the action's checkout, or the repository at a tag or revision.
build() {
  local cargo=${FIELDNOTES_CARGO:-cargo} release=$1 wanted=${FIELDNOTES_VERSION:-}
  if [ -z "$wanted" ]; then
    [ -f "${ACTION_PATH:-}/Cargo.toml" ] || die "ACTION_PATH has no Cargo.toml to build" 2
    "$cargo" install --locked --force --root "$home" --path "$ACTION_PATH"
    return
  fi
  local repo
  repo=$(repository)
  [ -n "$repo" ] || die "no repository to build version $wanted from: set FIELDNOTES_REPOSITORY" 2
  if [ -n "$release" ]; then
    "$cargo" install --locked --force --root "$home" --git "${GITHUB_SERVER_URL:-https://github.com}/$repo" --tag "v$release" fieldnotes
  else
    "$cargo" install --locked --force --root "$home" --git "${GITHUB_SERVER_URL:-https://github.com}/$repo" --rev "$wanted" fieldnotes
  fi
}

install() {
  home=${FIELDNOTES_HOME:-$HOME/.fieldnotes}
  bin="$home/bin"
  local version
  version=$(release_version)
  local key=${FIELDNOTES_KEY:-}
  if [ -x "$bin/$(exe)" ] && [ -n "$key" ] && [ "$(cat "$home/key" 2>/dev/null)" = "$key" ]; then
    echo "fieldnotes: cached $("$bin/$(exe)" --version)"
  elif [ -n "$version" ] && download "$version"; then
    :
  else
    [ -z "$version" ] || echo "fieldnotes: no release v$version for this runner; building it"
    build "$version"
  fi
  if [ -n "$key" ]; then echo "$key" >"$home/key"; fi
  if [ -n "${GITHUB_PATH:-}" ]; then
    # On Windows, the runner reads GITHUB_PATH as Windows paths.
    if command -v cygpath >/dev/null 2>&1; then cygpath -w "$bin"; else echo "$bin"; fi >>"$GITHUB_PATH"
  fi
}

case "${1:-}" in
  target) asset || die "no release binary for ${RUNNER_OS:-?}/${RUNNER_ARCH:-?}" 3 ;;
  plan) plan ;;
  install) install ;;
  *) die "usage: install.sh target|plan|install" 2 ;;
esac
