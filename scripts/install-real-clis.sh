#!/usr/bin/env bash
# Installs the real AI CLIs the contract suite drives (test/real-cli/*.contract.test.ts) at the versions pinned in
# test/real-cli/install/package.json, into ${FIXCYCLE_REAL_CLIS:-~/.cache/fixcycle/real-clis}. Test-only and about
# 1.2 GB, so never one of fixcycle's own dependencies. Does nothing when those versions are already there.
set -euo pipefail
cd "$(dirname "$0")/.."
manifest="$PWD/test/real-cli/install/package.json"
dest="${FIXCYCLE_REAL_CLIS:-$HOME/.cache/fixcycle/real-clis}"

# Prints the packages whose installed version differs from the pinned one (nothing when all match).
outdated() {
  node -e '
    const fs = require("fs"), path = require("path");
    const [manifest, dest] = process.argv.slice(1);
    const pinned = JSON.parse(fs.readFileSync(manifest, "utf8")).dependencies;
    for (const [name, version] of Object.entries(pinned)) {
      let found = "missing";
      try { found = JSON.parse(fs.readFileSync(path.join(dest, "node_modules", name, "package.json"), "utf8")).version; } catch {}
      if (found !== version) console.log(`${name}@${version} (found: ${found})`);
    }' "$manifest" "$dest"
}

todo="$(outdated)"
if [ -z "$todo" ]; then
  echo "real AI CLIs already installed at the pinned versions in $dest"
  exit 0
fi
echo "installing the real AI CLIs into $dest:"
echo "$todo" | sed 's/^/  /'
mkdir -p "$dest"
cp "$manifest" "$dest/package.json"
(cd "$dest" && npm install --no-audit --no-fund)
todo="$(outdated)"
if [ -n "$todo" ]; then
  echo "error: still not installed after npm install: $todo" >&2
  exit 1
fi
echo "real AI CLIs installed in $dest"
