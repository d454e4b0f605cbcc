import type { ParseOutcome } from './parse-outcome.js';
import { unusable } from './outcome.js';

/** pytest-json-report output is recognised but not read: pytest's own JUnit XML carries the same facts. */
export function parsePytestJson(): ParseOutcome {
  return unusable('pytest-json reports are not read; run pytest with `--junitxml=FILE` and read that file');
}
