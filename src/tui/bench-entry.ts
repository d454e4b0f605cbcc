// Hidden entry for bench/tui.bench.mjs (not part of the CLI): opens the TUI on a store and, in `stream`
// mode, pipes a child process printing many lines through it as the engine would, then writes figures.
//   node dist/tui/bench-entry.js first-frame
//   node dist/tui/bench-entry.js stream <lines> <figures.json>
//   node dist/tui/bench-entry.js idle   (a step runs, nothing but time changes: what the terminal receives then)
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { LineSplitter } from '../engine/process/line-splitter.js';
import { createFixcycleStore } from '../state/store.js';
import { startTui } from './start.js';

const [mode = 'first-frame', count = '1000000', out = 'tui-bench.json'] = process.argv.slice(2);
const store = createFixcycleStore();
const apply = store.getState().apply;
apply({
  type: 'session',
  sessionId: 'WFS-test-bench',
  sessionDir: process.cwd(),
  repo: process.cwd(),
  chain: ['bench'],
  testCommand: 'node printer',
  resumed: false,
});

let frames = 0;
const tui = startTui({ store, controls: null, onRender: () => frames++ });

if (mode === 'idle') {
  apply({ type: 'strategy', iteration: 1, strategy: 'conservative', reason: 'iterations 1-2 start conservatively' });
  apply({ type: 'phase', phase: 'test', status: 'done', iteration: 0, detail: 'pass 80% (16/20)' });
  apply({ type: 'phase', phase: 'analysis', status: 'running', iteration: 1 });
  apply({ type: 'output-reset', label: 'iteration 1: analysis' });
  apply({ type: 'output', lines: Array.from({ length: 60 }, (_, i) => `bench: reading file ${i + 1}`) });
}

if (mode === 'stream') {
  const lines = Number(count);
  apply({ type: 'phase', phase: 'test', status: 'running', iteration: 0 });
  apply({ type: 'output-reset', label: `streaming ${lines} lines` });
  // The printer writes in big blocks, as a fast test runner does; the lines cross a real pipe.
  const printer = `const n=${lines};let i=0;function w(){let s='';while(i<n&&s.length<1<<16){i++;s+='ok '+i+' - test case number '+i+' passes in 0.01ms\\n';}if(i>=n){process.stdout.end(s);return;}if(process.stdout.write(s))setImmediate(w);else process.stdout.once('drain',w);}w();`;
  const child = spawn(process.execPath, ['-e', printer], { stdio: ['ignore', 'pipe', 'inherit'] });
  const splitter = new LineSplitter();
  let received = 0;
  let first = 0;
  let framesAtStart = 0;
  let rss = process.memoryUsage().rss;
  const sampler = setInterval(() => (rss = Math.max(rss, process.memoryUsage().rss)), 50);
  child.stdout.on('data', (chunk: Buffer) => {
    if (first === 0) {
      first = performance.now();
      framesAtStart = frames;
    }
    const batch = splitter.push(chunk);
    received += batch.length;
    apply({ type: 'output', lines: batch });
  });
  child.on('close', () => {
    const rest = splitter.flush();
    received += rest.length;
    if (rest.length) apply({ type: 'output', lines: rest });
    const seconds = (performance.now() - first) / 1000;
    const streamFrames = frames - framesAtStart;
    clearInterval(sampler);
    rss = Math.max(rss, process.memoryUsage().rss);
    apply({ type: 'phase', phase: 'test', status: 'done', iteration: 0 });
    // Let the last throttled frame land, so the screen shows the last line.
    setTimeout(() => {
      const figures = {
        lines: received,
        seconds,
        stream_lines_per_s: received / seconds,
        render_fps: streamFrames / seconds,
        stream_rss_mb: rss / 1024 / 1024,
      };
      writeFileSync(out, JSON.stringify(figures));
      tui.unmount();
    }, 100);
  });
}

await tui.waitUntilExit();
