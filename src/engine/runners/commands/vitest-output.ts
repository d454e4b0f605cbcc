import { stripVTControlCharacters } from 'node:util';

// Lines of one unhandled error quoted: its message and code frame, not a whole log.
const QUOTED_LINES = 40;

/**
 * The errors vitest prints under `Unhandled Errors` and leaves out of its JSON report: a type error in a source
 * file under `--typecheck` (`Unhandled Source Error`), a rejection or an error thrown outside any test. The run
 * fails with every test passed; each block is one error, with the file its `❯ file:line:col` frame names.
 */
export function vitestUnhandledErrors(output: string): { message: string; file?: string }[] {
  const errors: { message: string; file?: string }[] = [];
  let current: { title: string; lines: string[] } | null = null;
  const close = () => {
    if (!current) return;
    const body = current.lines.join('\n').trim();
    const frame = /❯ (\S+?):\d+:\d+/.exec(body);
    if (body)
      errors.push({
        message: `vitest: ${current.title}: ${body.split('\n').slice(0, QUOTED_LINES).join('\n')}`,
        ...(frame ? { file: frame[1] } : {}),
      });
    current = null;
  };
  for (const raw of stripVTControlCharacters(output).split('\n')) {
    const line = raw.trimEnd();
    const header = /^⎯+ (Unhandled [A-Za-z ]+?) ⎯+$/.exec(line);
    if (header) {
      close();
      // The section's own header ("Unhandled Errors") introduces the blocks; each block has its own header.
      if (header[1] !== 'Unhandled Errors') current = { title: header[1]!, lines: [] };
      continue;
    }
    if (/^⎯+$/.test(line)) {
      close();
      continue;
    }
    current?.lines.push(line);
  }
  close();
  return errors;
}
