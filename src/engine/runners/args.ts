/** An option as written, with its separate value if it takes one (`['--config', 'x.js']` or `['--config=x.js']`). */
export type Option = string[];

/** A runner's arguments split into options and positionals (test files, patterns, packages). */
export interface SplitArgs {
  options: Option[];
  positionals: string[];
}

/** Splits arguments, knowing which options take a separate value; everything after `--` is positional. */
export function splitArgs(args: readonly string[], valueOptions: ReadonlySet<string>): SplitArgs {
  const options: Option[] = [];
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!word.startsWith('-') || word === '-') {
      positionals.push(word);
      continue;
    }
    const takesValue = valueOptions.has(word) && i + 1 < args.length;
    options.push(takesValue ? [word, args[++i]!] : [word]);
  }
  return { options, positionals };
}

/** The option's name without its `=value`. */
export function optionName(option: Option): string {
  const first = option[0]!;
  const equals = first.indexOf('=');
  return equals === -1 ? first : first.slice(0, equals);
}

/** Options whose name is not in `names` and matches none of the `prefixes`, flattened back to words. */
export function keepOptions(options: Option[], drop: { names?: string[]; prefixes?: string[] }): string[] {
  return options
    .filter((option) => {
      const name = optionName(option);
      return !(drop.names ?? []).includes(name) && !(drop.prefixes ?? []).some((prefix) => name.startsWith(prefix));
    })
    .flat();
}

/** A regex source matching any of the names literally. */
export function anyOf(names: readonly string[]): string {
  return names.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|');
}
