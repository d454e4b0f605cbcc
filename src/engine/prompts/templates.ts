import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../package-root.js';

/** The version of the prompt templates in use; recorded so a session says which prompts it ran with. */
export const PROMPT_VERSION = 'v1';

/** The package's templates folder: `templates/` beside `src/` and `dist/`, shipped by package.json "files". */
export const TEMPLATES_DIR = join(packageRoot(import.meta.url), 'templates');

const cache = new Map<string, string>();

/** Reads `templates/<name>.<version>.md`, its leading comment (the template's notes) removed. */
export function loadTemplate(name: string, version = PROMPT_VERSION): string {
  const key = `${name}.${version}`;
  let text = cache.get(key);
  if (text === undefined) {
    text = readFileSync(join(TEMPLATES_DIR, `${key}.md`), 'utf8').replace(/^<!--[\s\S]*?-->\s*/, '');
    cache.set(key, text);
  }
  return text;
}

/**
 * Fills `{{name}}` placeholders. A placeholder without a value is a bug in fixcycle or in an edited
 * template, so it throws rather than send the agent a half-filled prompt.
 */
export function fillTemplate(template: string, values: Record<string, string | number>, name = 'template'): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_all, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`${name} uses {{${key}}}, which fixcycle does not provide`);
    return String(value);
  });
}

/** The rules of each strategy from `templates/strategies.<version>.md` (`## <strategy>` sections). */
export function strategyRules(version = PROMPT_VERSION): Record<string, string> {
  const rules: Record<string, string> = {};
  for (const section of loadTemplate('strategies', version).split(/^## /m).slice(1)) {
    const [heading, ...body] = section.split('\n');
    rules[heading!.trim()] = body.join('\n').trim();
  }
  return rules;
}
