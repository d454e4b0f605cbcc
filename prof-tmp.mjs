const { selectAffectedTests } = await import('/work/main/dist/engine/affected/index.js');
const { appendFileSync } = await import('node:fs');
const cwd = '/tmp/fixcycle-prof-repo', cacheDir = '/tmp/fixcycle-prof-cache';
for (let i = 0; i < 5; i++) {
  appendFileSync(cwd + '/src/f40/m20.ts', `\nexport const e${Date.now()} = 1;\n`);
  const t = performance.now(); const s = await selectAffectedTests({ cwd, runner: 'vitest', changedFiles: ['src/f40/m20.ts'], lastFailedFiles: [], cacheDir });
  console.log('warm select', (performance.now() - t).toFixed(0), s.reason.slice(-40));
}
