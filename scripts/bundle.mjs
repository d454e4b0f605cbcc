// Bundles the CLI entry into dist/cli.js (+ dist/chunks/) so `fixcycle` starts fast: Node loads a few files
// instead of ~300 small modules (execa and zod alone are ~200), about a third of fixcycle's start-up time.
// Dynamic imports stay separate chunks, so the headless path never loads the TUI. The unbundled tsc output
// stays in dist/ for the benches that import engine modules directly.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

// Chunk names carry hashes: clear the last build's, so dist/ holds only what this one made.
rmSync('dist/chunks', { recursive: true, force: true });

// zod's `z` namespace re-exports every locale (z.locales.*): half of zod's ~760 kB, parsed by every start.
// fixcycle speaks English only; z.locales keeps `en`, the locale zod sets by default.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /zod[\\/]v4[\\/](classic[\\/]external|core[\\/]index)\.js$/.test(args.importer)
        ? { path: join(dirname(args.importer), '../locales/index.js'), namespace: 'zod-en' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-en' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

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
  // typescript (the localizer's parser, loaded only when needed) and native addons load from node_modules as they are; Ink's devtools only with DEV=true, and are not installed.
  external: ['typescript', '@lydell/node-pty', 'oxc-resolver', 'chokidar', 'react-devtools-core'],
  // The TUI stack (Ink, React, its reconciler, yoga's wasm) is bundled too: Ink alone is ~100 ES modules and
  // React's CommonJS files go through Node's CJS lexer, most of a bare Ink hello world's start-up. React's
  // production build only, as importTui asks for at run time: its development build is never loaded.
  define: { 'process.env.NODE_ENV': '"production"' },
  plugins: [zodEnglishOnly],
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
