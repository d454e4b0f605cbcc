/** One target of a Makefile as make's own database (`make -p`) prints it. */
export interface MakeRule {
  /** Its normal prerequisites, in the order make builds them. */
  prerequisites: string[];
  /** Its order-only prerequisites (after `|`). */
  orderOnly: string[];
  /** True when the target has a recipe of its own. */
  recipe: boolean;
  /** A `::` rule: make runs each of its rules in turn. */
  doubleColon: boolean;
}

// A target-specific variable is printed as `target: NAME = value` (or :=, ::=, +=, ?=, !=) before its rule.
const VARIABLE = /^\s*[^\s:=#]+\s*(?::{1,3}|[+?!])?=/;

/**
 * The targets of make's database, read from `make -p` output: its `# Files` section, one entry a paragraph,
 * the entries marked `# Not a target:` (a file that is only a prerequisite, a built-in suffix rule) left out.
 */
export function readMakeRules(database: string): Map<string, MakeRule> {
  const rules = new Map<string, MakeRule>();
  const start = database.indexOf('\n# Files\n');
  if (start === -1) return rules;
  const end = database.indexOf('\n# files hash-table stats', start);
  const section = database.slice(start, end === -1 ? undefined : end);
  for (const entry of section.split(/\n\s*\n/)) {
    const lines = entry.split('\n').filter((line) => line !== '');
    if (lines.some((line) => line.startsWith('# Not a target:'))) continue;
    const ruleLine = lines.find((line) => !line.startsWith('#') && !line.startsWith('\t') && isRuleLine(line));
    if (!ruleLine) continue;
    const match = /^(.+?)(::?)(?:\s+(.*))?$/.exec(ruleLine);
    if (!match) continue;
    const [normal = '', orderOnly = ''] = (match[3] ?? '').split('|');
    rules.set(match[1]!, {
      prerequisites: words(normal),
      orderOnly: words(orderOnly),
      recipe: lines.some((line) => line.startsWith('\t')),
      doubleColon: match[2] === '::',
    });
  }
  return rules;
}

/** `name: prerequisites`, not `name: VAR = value` (a target-specific variable). */
function isRuleLine(line: string): boolean {
  const colon = /(?<!\\):/.exec(line);
  return colon !== null && !VARIABLE.test(line.slice(colon.index + 1).replace(/^:/, ''));
}

function words(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}
