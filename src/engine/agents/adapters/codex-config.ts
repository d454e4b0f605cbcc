import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The few settings of a user's codex `config.toml` that decide which caps fixcycle may add. */
export interface CodexUserConfig {
  /** The provider codex will use (`model_provider`, or the active profile's); absent means the built-in `openai`. */
  provider?: string;
  /** Providers the user defined under `[model_providers.<id>]`, with the keys each one sets. */
  providers: Record<string, Record<string, string>>;
  /** `[features]` keys the user set. */
  features: Record<string, string>;
}

/** `a.b."c.d"` -> ['a', 'b', 'c.d'] */
function tablePath(header: string): string[] {
  return [...header.matchAll(/"([^"]*)"|'([^']*)'|([^.\s]+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

function unquote(value: string): string {
  const v = value.replace(/\s+#.*$/, '').trim();
  return /^(["']).*\1$/.test(v) ? v.slice(1, -1) : v;
}

/**
 * Reads the keys fixcycle needs from codex's TOML config: table headers and `key = value` lines, enough for
 * `model_provider`, `profile`, `[profiles.*]`, `[model_providers.*]` and `[features]`. Anything it cannot
 * read is left out, and then the user's setting is unknown, never overridden by mistake: see codexCaps.
 */
export function parseCodexConfig(text: string): CodexUserConfig {
  const top: Record<string, string> = {};
  const profiles: Record<string, Record<string, string>> = {};
  const providers: Record<string, Record<string, string>> = {};
  const features: Record<string, string> = {};
  let table: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const header = /^\[([^[\]]+)\]\s*(#.*)?$/.exec(line);
    if (header) {
      table = tablePath(header[1]!);
      if (table[0] === 'model_providers' && table.length === 2) providers[table[1]!] ??= {};
      continue;
    }
    const pair = /^("[^"]+"|[\w.-]+)\s*=\s*(.+)$/.exec(line);
    if (!pair) continue;
    const key = [...table, ...tablePath(pair[1]!)];
    const value = unquote(pair[2]!);
    if (key.length === 1) top[key[0]!] = value;
    else if (key[0] === 'profiles' && key.length === 3) (profiles[key[1]!] ??= {})[key[2]!] = value;
    else if (key[0] === 'model_providers' && key.length === 3) (providers[key[1]!] ??= {})[key[2]!] = value;
    else if (key[0] === 'features' && key.length === 2) features[key[1]!] = value;
  }
  const profile = top.profile ? profiles[top.profile] : undefined;
  const provider = profile?.model_provider ?? top.model_provider;
  return { ...(provider ? { provider } : {}), providers, features };
}

/** The user's codex config (`$CODEX_HOME/config.toml`, default `~/.codex`); empty when there is none. */
export function readCodexUserConfig(env: NodeJS.ProcessEnv): CodexUserConfig {
  const home = env.CODEX_HOME || join(env.HOME || homedir(), '.codex');
  try {
    return parseCodexConfig(readFileSync(join(home, 'config.toml'), 'utf8'));
  } catch {
    return { providers: {}, features: {} };
  }
}

/**
 * Each attempt of a stream that fails after its HTTP retries shows as one `Reconnecting... n/m` event; one
 * reconnect keeps a short `retry-after` recoverable while a 30 s one still ends within a minute.
 */
const STREAM_RETRIES = 1;
/** Quick HTTP-level retries of 5xx and transport errors inside each attempt. */
const REQUEST_RETRIES = 2;

/**
 * Command-line overrides that bound codex's waiting, for settings the user left alone. Retry caps exist only on a
 * provider of the user's own (codex refuses overrides of its built-in `openai` provider); connection-refused
 * retries are unbounded by default in 0.169 and only the feature switch stops them.
 */
export function codexCaps(config: CodexUserConfig): string[] {
  const args: string[] = [];
  const id = config.provider;
  const own = id !== undefined ? config.providers[id] : undefined;
  if (id !== undefined && own) {
    const key = /^[\w-]+$/.test(id) ? id : JSON.stringify(id);
    if (own.request_max_retries === undefined)
      args.push('-c', `model_providers.${key}.request_max_retries=${REQUEST_RETRIES}`);
    if (own.stream_max_retries === undefined)
      args.push('-c', `model_providers.${key}.stream_max_retries=${STREAM_RETRIES}`);
  }
  if (config.features.unbounded_connection_retries === undefined)
    args.push('--disable', 'unbounded_connection_retries');
  return args;
}
