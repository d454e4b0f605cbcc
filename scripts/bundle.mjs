// Bundles the CLI entry into dist/cli.js (+ dist/chunks/) so `fixcycle` starts fast: Node loads a few files
// instead of ~300 small modules (execa and zod alone are ~200), about a third of fixcycle's start-up time.
// Dynamic imports stay separate chunks, so the headless path never loads the TUI. The unbundled tsc output
// stays in dist/ for the benches that import engine modules directly.
import { build } from 'esbuild';

await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // Native addons, wasm, and the TUI stack load from node_modules as they are.
  external: ['typescript', 'ink', 'react', 'react/*', 'react-reconciler', 'yoga-layout', '@lydell/node-pty', 'oxc-resolver', 'chokidar', 'ink-*', 'zustand', 'zustand/*'],
  // CommonJS dependencies inside an ES module bundle expect these.
  banner: {
    js: [
      "import { createRequire as __fcRequire } from 'node:module';",
      "import { fileURLToPath as __fcPath } from 'node:url';",
      "import { dirname as __fcDir } from 'node:path';",
      'const require = __fcRequire(import.meta.url);',
      'const __filename = __fcPath(import.meta.url);',
      'const __dirname = __fcDir(__filename);',
    ].join(' '),
  },
});
