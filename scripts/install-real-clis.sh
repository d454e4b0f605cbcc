#!/usr/bin/env bash
# Installs the real AI CLIs the contract suite drives (test/real-cli/*.contract.test.ts) at the versions pinned in
# test/real-cli/install/package.json, into ${FIXCYCLE_REAL_CLIS:-~/.cache/fixcycle/real-clis}. Test-only and about
# 1.2 GB, so never one of fixcycle's own dependencies. Does nothing when those versions are already there.
#
# --latest: the newest release of each CLI instead (asked of the npm registry), into its own folder
# ${FIXCYCLE_REAL_CLIS_LATEST:-~/.cache/fixcycle/real-clis-latest}; `npm run contract -- --latest` then runs the
# contract suite against them.
set -euo pipefail
cd "$(dirname "$0")/.."
pinned="$PWD/test/real-cli/install/package.json"

if [ "${1:-}" = "--latest" ]; then
  dest="${FIXCYCLE_REAL_CLIS_LATEST:-$HOME/.cache/fixcycle/real-clis-latest}"
  mkdir -p "$dest"
  manifest="$dest/wanted.json"
  # The pinned manifest with each version replaced by the registry's newest.
  node -e '
    const fs = require("fs"), { execFileSync } = require("child_process");
    const [pinned, out] = process.argv.slice(1);
    const manifest = JSON.parse(fs.readFileSync(pinned, "utf8"));
    for (const name of Object.keys(manifest.dependencies)) {
      manifest.dependencies[name] = execFileSync("npm", ["view", name, "version"], { encoding: "utf8" }).trim();
    }
    manifest.description = "Test-only install of the newest releases of the real AI CLIs (npm run real-clis -- --latest).";
    fs.writeFileSync(out, JSON.stringify(manifest, null, 2) + "\n");' "$pinned" "$manifest"
elif [ -n "${1:-}" ]; then
  echo "error: unknown option $1 (use --latest for the newest releases, or nothing for the pinned ones)" >&2
  exit 2
else
  dest="${FIXCYCLE_REAL_CLIS:-$HOME/.cache/fixcycle/real-clis}"
  manifest="$pinned"
fi

# Prints the packages whose installed version differs from the wanted one (nothing when all match).
outdated() {
  node -e '
    const fs = require("fs"), path = require("path");
    const [manifest, dest] = process.argv.slice(1);
    const wanted = JSON.parse(fs.readFileSync(manifest, "utf8")).dependencies;
    for (const [name, version] of Object.entries(wanted)) {
      let found = "missing";
      try { found = JSON.parse(fs.readFileSync(path.join(dest, "node_modules", name, "package.json"), "utf8")).version; } catch {}
      if (found !== version) console.log(`${name}@${version} (found: ${found})`);
    }' "$manifest" "$dest"
}

todo="$(outdated)"
if [ -z "$todo" ]; then
  echo "real AI CLIs already installed at the wanted versions in $dest"
  exit 0
fi
echo "installing the real AI CLIs into $dest:"
echo "$todo" | sed 's/^/  /'
mkdir -p "$dest"
cp "$manifest" "$dest/package.json"
# Their Node >= 22 `engines` (claude 2.1.331, qwen 0.24.4) only warns on Node 20; they run.
(cd "$dest" && npm install --no-audit --no-fund --engine-strict=false)
todo="$(outdated)"
if [ -n "$todo" ]; then
  echo "error: still not installed after npm install: $todo" >&2
  exit 1
fi
echo "real AI CLIs installed in $dest"
