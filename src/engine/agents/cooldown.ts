import { readFileSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeJsonAtomic } from '../session/atomic.js';
import type { AgentCall } from './agent.js';

/** One agent's cool-down as saved in `.process/agent-cooldowns.json`. */
export interface CooldownEntry {
  /** ISO time until which the agent is skipped. */
  until: string;
  /** What the agent said (its rate-limit message). */
  reason: string;
  /** Whether `until` is the CLI's announced reset time or fixcycle's default back-off. */
  source: 'announced' | 'backoff';
  /** Rate limits in a row; each one without an announced reset doubles the back-off. */
  strikes: number;
}

/** Options of the cool-down book. */
export interface CooldownOptions {
  /** Back-off after a rate limit that announced no reset time; doubles per rate limit in a row. Default 5 min. */
  defaultBackoffMs?: number;
  /** The longest default back-off; default 60 min. */
  maxBackoffMs?: number;
  /** The clock; tests move it. Default Date.now. */
  now?: () => number;
}

/** 5 min: a per-minute quota has reset by then, and a daily one is not retried every iteration. */
const DEFAULT_BACKOFF_MS = 5 * 60_000;
const MAX_BACKOFF_MS = 60 * 60_000;

/** Where the cool-downs of a session are kept. */
export function cooldownFile(sessionDir: string): string {
  return join(sessionDir, '.process', 'agent-cooldowns.json');
}

/** The saved book; a torn or foreign file is an empty book rather than a refusal to run. */
function parseEntries(text: string): Record<string, CooldownEntry> {
  try {
    const raw: unknown = JSON.parse(text);
    if (raw && typeof raw === 'object' && !Array.isArray(raw)) return raw as Record<string, CooldownEntry>;
  } catch {
    // empty or unreadable
  }
  return {};
}

function clock(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
}

/**
 * Which agents are cooling down after a rate limit, persisted in the session folder so a resumed
 * session keeps skipping them. An agent that failed authentication is skipped for the rest of this
 * process (logging in fixes it; a resume retries it).
 */
export class Cooldowns {
  private readonly now: () => number;
  private readonly notLoggedIn = new Map<string, string>();

  private constructor(
    private readonly file: string,
    private readonly entries: Record<string, CooldownEntry>,
    private readonly options: CooldownOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Reads the session's cool-downs; a missing or unreadable file is an empty book. */
  static async load(sessionDir: string, options: CooldownOptions = {}): Promise<Cooldowns> {
    const text = await readFile(cooldownFile(sessionDir), 'utf8').catch(() => '');
    return new Cooldowns(cooldownFile(sessionDir), parseEntries(text), options);
  }

  /** The same as `load`, synchronously (for a policy built where nothing can be awaited). */
  static open(sessionDir: string, options: CooldownOptions = {}): Cooldowns {
    let text = '';
    try {
      text = readFileSync(cooldownFile(sessionDir), 'utf8');
    } catch {
      // none yet
    }
    return new Cooldowns(cooldownFile(sessionDir), parseEntries(text), options);
  }

  /** Why `agent` must be skipped now, or null. Usable as ChainHooks.unavailable. */
  readonly unavailable = (agent: string): string | null => {
    const auth = this.notLoggedIn.get(agent);
    if (auth) return auth;
    const entry = this.entries[agent];
    if (!entry) return null;
    const until = Date.parse(entry.until);
    if (!(until > this.now())) return null;
    return `cooling down after a rate limit until ${clock(until)} (${entry.source === 'announced' ? 'its announced reset' : 'default back-off'})`;
  };

  /** When the first cooling agent of `agents` is usable again (epoch ms), or null when none is cooling. */
  nextAvailableAt(agents: readonly string[]): number | null {
    const times = agents.map((a) => Date.parse(this.entries[a]?.until ?? '')).filter((t) => t > this.now());
    return times.length ? Math.min(...times) : null;
  }

  /**
   * When a cooling agent may be asked again and why it is cooling, for waiting it out; null when it is not
   * cooling, or is out for a reason time does not cure (authentication).
   */
  resetAt(agent: string): { at: number; reason: string; announced: boolean } | null {
    if (this.notLoggedIn.has(agent)) return null;
    const entry = this.entries[agent];
    const at = Date.parse(entry?.until ?? '');
    if (!entry || !(at > this.now())) return null;
    return { at, reason: entry.reason, announced: entry.source === 'announced' };
  }

  /** The saved entry of one agent, if any. */
  entry(agent: string): CooldownEntry | undefined {
    return this.entries[agent];
  }

  /**
   * Books a finished call: a rate limit starts a cool-down until the announced reset (`retryAt`) or the
   * default back-off; a success clears the agent's strikes. Usable from ChainHooks.onCall.
   */
  async record(call: AgentCall): Promise<void> {
    if (call.classification === 'auth_error') {
      this.notLoggedIn.set(call.agent, `not authenticated in this run (${call.detail ?? 'authentication failed'})`);
      return;
    }
    if (call.classification === 'ok' && this.entries[call.agent]) {
      delete this.entries[call.agent];
      await this.save();
      return;
    }
    if (call.classification !== 'rate_limited') return;
    const strikes = (this.entries[call.agent]?.strikes ?? 0) + 1;
    const now = this.now();
    const backoff = Math.min(
      (this.options.defaultBackoffMs ?? DEFAULT_BACKOFF_MS) * 2 ** (strikes - 1),
      this.options.maxBackoffMs ?? MAX_BACKOFF_MS,
    );
    const announced = call.retryAt !== undefined && call.retryAt > now;
    this.entries[call.agent] = {
      until: new Date(announced ? call.retryAt! : now + backoff).toISOString(),
      reason: call.detail ?? 'rate-limited',
      source: announced ? 'announced' : 'backoff',
      strikes,
    };
    await this.save();
  }

  private async save(): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true });
    await writeJsonAtomic(this.file, this.entries);
  }
}
