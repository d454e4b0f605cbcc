import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandResult } from '../process/run-command.js';
import { readSummaryCounts } from './report-access.js';
import { isMissingTool } from './script-parts.js';

/** What a part of the test command lacks on this machine, and the runner's own words saying so. */
export interface MissingHere {
  /** `a program`, `a browser`, `a module`, `a connection`, `a service`. */
  what: string;
  /** The lines of the output that say it, as printed: the whole message, not its first line. */
  quote: string;
}

// What a command prints when something outside the code is missing here. Each names the thing missing, never
// a failing assertion: a browser (puppeteer, playwright, webdriver, karma's launchers), a service (a refused
// or unresolved connection), a package that is not installed.
const SIGNS: { what: string; pattern: RegExp }[] = [
  {
    what: 'a browser',
    pattern:
      /Could not find (?:Chrome|Chromium|Firefox|expected browser)|Failed to launch the browser process|Browser was not found|Executable doesn't exist at|Looks like Playwright .* was just installed or updated|npx playwright install|SessionNotCreatedError|session not created|No usable sandbox|No binary for \S+ browser on your platform/i,
  },
  // npx asked for a package that is not installed, and a run without a terminal cannot say yes to the download;
  // make's recipe line exited 127 (make runs a plain line itself, so no shell says `not found`).
  {
    what: 'a program',
    pattern:
      /npx canceled due to missing packages and no YES option|\bspawn \S+ ENOENT\b|^(?:sh|bash|\/bin\/sh)(?::\s*(?:line )?\d+)?:\s*\S+:\s*(?:command )?not found|^g?make(?:\[\d+\])?: \*\*\* \[[^\]\n]*\] Error 127$/m,
  },
  {
    what: 'a connection',
    pattern:
      /\b(?:ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)\b|Cannot connect to the Docker daemon|could not connect to server|Connection refused/,
  },
  // npm's registry without its audit service (a mirror, an offline cache): `npm audit`, `npx aud` in posttest.
  {
    what: 'a service',
    pattern: /^npm (?:error|ERR!) audit endpoint returned an error|^npm (?:warn|WARN) audit [45]\d\d\b/m,
  },
  {
    what: 'a module',
    pattern:
      /Cannot find (?:module|package) '(?![./])[^']+'|ERR_MODULE_NOT_FOUND.*'(?![./])[^']+'|ModuleNotFoundError: No module named '[^']+'/,
  },
];

// Lines quoted around the one that names what is missing: enough for puppeteer's four-line message.
const QUOTE_BEFORE = 3;
const QUOTE_AFTER = 12;

/**
 * What a failed part of the test command lacks on this machine, when nothing in the code can fix it: the part
 * failed without a failing test, and it exited 127, could not start, or printed that a program, browser,
 * module or connection is missing. Null for a part that passed, or failed a test.
 */
export function missingHere(result: CommandResult, cwd: string): MissingHere | null {
  if (result.exitCode === 0 && !result.spawnError) return null;
  if (result.timedOut || result.aborted) return null;
  const output = result.outputTail;
  const counts = readSummaryCounts(output);
  if (counts && counts.failed > 0) return null;
  for (const { what, pattern } of SIGNS) {
    const match = pattern.exec(output);
    if (!match) continue;
    if (what === 'a module' && namesProjectModule(match[0], cwd)) continue;
    return { what, quote: quoteAround(output, match.index) };
  }
  if (isMissingTool(result))
    return { what: 'a program', quote: result.spawnError ?? quoteAround(output, output.length) };
  return null;
}

/** A `No module named 'x'` for a module of the project itself is the code's to fix (a renamed package). */
function namesProjectModule(text: string, cwd: string): boolean {
  const name = /No module named '([^']+)'/.exec(text)?.[1]?.split('.')[0];
  return (
    name !== undefined &&
    (existsSync(join(cwd, name)) || existsSync(join(cwd, `${name}.py`)) || existsSync(join(cwd, 'src', name)))
  );
}

/** The message the match is in: a few lines before it, the rest of its paragraph after it. */
function quoteAround(output: string, index: number): string {
  const lines = output.split('\n');
  const at = output.slice(0, index).split('\n').length - 1;
  let end = at;
  while (end + 1 < lines.length && end - at < QUOTE_AFTER && lines[end + 1]!.trim() !== '') end++;
  let start = at;
  while (start > 0 && at - start < QUOTE_BEFORE && lines[start - 1]!.trim() !== '') start--;
  return lines
    .slice(start, end + 1)
    .join('\n')
    .trimEnd();
}

/** How a part is named in `skipParts`: the script or make target it runs (`test-headless`), else its command line. */
export function skipName(argv: readonly string[]): string {
  const [pm, verb, script] = argv;
  if ((pm === 'make' || pm === 'gmake') && verb !== undefined && !verb.startsWith('-') && argv.length === 2)
    return verb;
  if (
    (pm === 'npm' || pm === 'yarn' || pm === 'pnpm') &&
    (verb === 'run' || verb === 'run-script') &&
    script !== undefined &&
    argv.length === 3
  )
    return script;
  return argv.join(' ');
}

/**
 * The stop for a part that cannot run here: the first line names the part, what it lacks and how to leave it
 * out; the runner's own words follow, whole.
 */
export function cannotRunMessage(
  argv: readonly string[],
  where: string,
  missing: MissingHere,
  skippable = true,
): string {
  const leaveOut = skippable
    ? `, or leave the part out with "skipParts": ["${skipName(argv)}"] in fixcycle.config.json (or --test-cmd "<the parts that can run>")`
    : ', or pass --test-cmd "<a command that runs here>"';
  const head = `the test command's part \`${argv.join(' ')}\` (${where}) cannot run on this machine: it failed without a failing test and needs ${missing.what} that is not here, which no change to the code can fix, so no agent is asked: install what it needs${leaveOut}`;
  return `${head}\nits own words:\n${missing.quote
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n')}`;
}
