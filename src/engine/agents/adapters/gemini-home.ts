import { existsSync, lstatSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { CommandContext } from '../agent.js';
import { mergeUnder, readUserSettings } from './user-settings.js';

/**
 * Gemini CLI reads settings only from files: its system files are refused unless root owns every folder
 * above them (never true of a temp or session folder), so fixcycle points `GEMINI_CLI_HOME` at a private
 * home whose `.gemini/settings.json` is the user's own settings over fixcycle's defaults, and links
 * everything else of the user's `~/.gemini` (login, memory, extensions) into it.
 */
export const GEMINI_HOME_DIR = 'gemini-home';

/**
 * fixcycle's defaults, under the user's settings. Two attempts per model call (gemini's default is 10, up
 * to 280 s on a 429). Without a configured model, "pro": the "auto" model asks a router model first, and
 * that call alone retries 5 times over about 65 s whatever the settings say.
 */
export const GEMINI_DEFAULTS = {
  general: { maxAttempts: 2, enableAutoUpdate: false, enableAutoUpdateNotification: false },
  model: { name: 'pro' },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
};

/** The home gemini would use without fixcycle. */
function userHome(userEnv: NodeJS.ProcessEnv): string {
  return userEnv.GEMINI_CLI_HOME || userEnv.HOME || homedir();
}

/** The user's gemini folder, where the CLI would look without fixcycle. */
export function userGeminiDir(userEnv: NodeJS.ProcessEnv): string {
  return join(userHome(userEnv), '.gemini');
}

/** The private home's settings file: the user's settings over fixcycle's defaults. */
export function geminiSettingsFile(userEnv: NodeJS.ProcessEnv): string {
  const user = readUserSettings(join(userGeminiDir(userEnv), 'settings.json'));
  return `${JSON.stringify(mergeUnder(GEMINI_DEFAULTS, user), null, 2)}\n`;
}

/**
 * Links the user's gemini files (but its settings and scratch folder) into the private home, and `~/.env`,
 * where gemini looks for GEMINI_API_KEY last: the login and keys the user set up keep working.
 */
export function linkUserGeminiFiles({ privateDir, userEnv }: CommandContext): void {
  const home = join(privateDir, GEMINI_HOME_DIR);
  const to = join(home, '.gemini');
  mkdirSync(to, { recursive: true });
  link(join(userHome(userEnv), '.env'), join(home, '.env'));
  const from = userGeminiDir(userEnv);
  if (!existsSync(from)) return;
  for (const name of readdirSync(from)) {
    if (name !== 'settings.json' && name !== 'tmp') link(join(from, name), join(to, name));
  }
}

function link(target: string, path: string): void {
  if (existsSync(target) && !lstatExists(path)) symlinkSync(target, path);
}

function lstatExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
