import type { RunnerCall } from '../analyse-command.js';
import type { RunnerCommands } from '../invocation.js';
import { cargoCommands } from './cargo.js';
import { goCommands } from './go.js';
import { jestCommands } from './jest.js';
import { mochaCommands } from './mocha.js';
import { nodeTapCommands } from './node-tap.js';
import { nodeTestCommands } from './node-test.js';
import { pytestCommands } from './pytest.js';
import { tapStreamCommands } from './tap-stream.js';
import { uvuCommands } from './uvu.js';
import { vitestCommands } from './vitest.js';
import { wrappedCommands } from '../wrapped/commands.js';

/** The full, subset and related commands of the runner a call starts. */
export function buildCommands(call: RunnerCall): RunnerCommands {
  if (call.delegate) return wrappedCommands(call, buildCommands);
  switch (call.runner) {
    case 'vitest':
      return vitestCommands(call);
    case 'jest':
      return jestCommands(call);
    case 'mocha':
      return mochaCommands(call);
    case 'tape':
    case 'ava':
      return tapStreamCommands(call);
    case 'tap':
      return nodeTapCommands(call);
    case 'uvu':
      return uvuCommands(call);
    case 'node-test':
      return nodeTestCommands(call);
    case 'pytest':
      return pytestCommands(call);
    case 'go':
      return goCommands(call);
    case 'cargo':
      return cargoCommands(call);
  }
}
