import type { ProjectFacts } from '../project.js';

/**
 * Wrapper scripts that start jest in their own process (`require('jest').run(args)`) with their own config, after
 * forwarding the command's arguments: fixcycle runs the wrapper as written and appends jest's report arguments
 * (`--json --outputFile`, and a subset's files and `-t`), which the wrapper passes on. A preload cannot reach that
 * jest (no child process starts), but it needs none.
 */
interface InProcessWrapper {
  verbs: string[];
  /** Arguments that keep the wrapper from starting jest's watch mode, which it does off CI. */
  noWatch: string[];
  /** The package that gives the wrapper its `test` command, when it is a plugin the project must depend on. */
  plugin?: string;
  /** How the wrapper starts jest, from its source, for `doctor`. */
  how: string;
}

const IN_PROCESS_WRAPPERS: Record<string, InProcessWrapper> = {
  // kcd-scripts 17 dist/scripts/test.js: --watch unless CI, --no-watch, --coverage or --updateSnapshot; its jest
  // config (babel transform, roots src, __tests__/helpers ignored) unless the project has its own.
  'kcd-scripts': {
    verbs: ['test'],
    noWatch: ['--no-watch'],
    how: "jest in kcd-scripts' process, with its jest config unless the project has one",
  },
  // react-scripts 5 scripts/test.js: --watch unless CI or --watchAll(=false); always its own --config and --env.
  'react-scripts': {
    verbs: ['test'],
    noWatch: ['--watchAll=false'],
    how: "jest in react-scripts' process, with create-react-app's jest config",
  },
  // @vue/cli-plugin-unit-jest 5: `require('jest').run(rawArgv)`, no watch unless asked (unit-mocha runs mochapack).
  'vue-cli-service': {
    verbs: ['test:unit'],
    noWatch: [],
    plugin: '@vue/cli-plugin-unit-jest',
    how: "jest in vue-cli-service's process (@vue/cli-plugin-unit-jest), with the project's jest config",
  },
};

/** A wrapper command that runs jest in its own process, forwarding the arguments after its verb. */
export interface InProcessCall {
  runner: 'jest';
  /** The wrapper and its verb, then the arguments that keep it out of watch mode. */
  launcher: string[];
  /** The arguments the command gave, which the wrapper forwards to jest. */
  args: string[];
  /** `kcd-scripts test -> jest (...)`, for doctor. */
  step: string;
}

/** The wrapper `argv` starts (its first word, peeled of env and npx), when it runs jest in its own process. */
export function inProcessWrapperOf(argv: readonly string[], project: ProjectFacts): InProcessCall | null {
  const [head, verb, ...args] = argv;
  if (head === undefined || verb === undefined) return null;
  const bin = head.split('/').at(-1)!;
  const wrapper = IN_PROCESS_WRAPPERS[bin];
  if (!wrapper || !wrapper.verbs.includes(verb)) return null;
  if (wrapper.plugin && !project.dependencies.has(wrapper.plugin)) return null;
  return {
    runner: 'jest',
    launcher: [head, verb, ...wrapper.noWatch],
    args,
    step: `${bin} ${verb} -> ${wrapper.how}`,
  };
}
