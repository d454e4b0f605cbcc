import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { StandIn } from './stand-in/server.js';

export type RealCliName = 'claude' | 'gemini' | 'codex' | 'qwen' | 'opencode';

/** The npm package each CLI comes from (test/real-cli/install/package.json pins the versions). */
const PACKAGES: Record<RealCliName, string> = {
  claude: '@anthropic-ai/claude-code',
  gemini: '@google/gemini-cli',
  codex: '@openai/codex',
  qwen: '@qwen-code/qwen-code',
  opencode: 'opencode-ai',
};

/** Where scripts/install-real-clis.sh puts the CLIs. */
export function realClisRoot(): string {
  return process.env.FIXCYCLE_REAL_CLIS || join(homedir(), '.cache', 'fixcycle', 'real-clis');
}

/** Where the real CLIs' executables are. */
export function binDir(): string {
  return join(realClisRoot(), 'node_modules', '.bin');
}

/** The installed real CLI, or null with the reason (the suite skips with that message). */
export function findRealCli(name: RealCliName): { bin: string; version: string } | { missing: string } {
  const bin = join(binDir(), name);
  const manifest = join(realClisRoot(), 'node_modules', PACKAGES[name], 'package.json');
  if (!existsSync(bin) || !existsSync(manifest))
    return { missing: `${name} (${PACKAGES[name]}) is not installed in ${realClisRoot()}: run \`npm run real-clis\`` };
  const version = (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version ?? 'unknown';
  return { bin, version };
}

/** The message a suite skips with when any of `names` is missing, or undefined when all are installed. */
export function missingRealClis(...names: RealCliName[]): string | undefined {
  const missing = names.map(findRealCli).flatMap((found) => ('missing' in found ? [found.missing] : []));
  return missing.length ? `skipped: ${missing.join('; ')}` : undefined;
}

/** The ripgrep codex ships: opencode's grep/glob need `rg` on PATH and cannot download it offline. */
function ripgrepDir(): string | undefined {
  const dir = join(
    realClisRoot(),
    'node_modules',
    '@openai',
    'codex-linux-x64',
    'vendor',
    'x86_64-unknown-linux-musl',
    'codex-path',
  );
  return existsSync(join(dir, 'rg')) ? dir : undefined;
}

// Variables of the developer's own setup that would point a CLI elsewhere or change its behaviour. PWD goes too:
// it names the test runner's folder, and opencode takes its project folder from it.
const FOREIGN =
  /^(PWD$|OLDPWD$|ANTHROPIC_|CLAUDE_|GEMINI_|GOOGLE_|OPENAI_|CODEX_|QWEN_|OPENCODE_|XDG_|DISABLE_|API_TIMEOUT_MS$|HTTPS?_PROXY$|https?_proxy$|ALL_PROXY$|all_proxy$)/;

function writeJson(path: string, value: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** What a user does to point each CLI at a company gateway: variables, plus user-level config files in HOME. */
function configure(name: RealCliName, url: string, home: string): Record<string, string> {
  if (name === 'claude') {
    return {
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: 'sk-ant-stand-in',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
    };
  }
  if (name === 'gemini') {
    // Env alone selects the `gateway` auth type, which headless runs reject (exit 41): the user picks the API key.
    writeJson(join(home, '.gemini', 'settings.json'), {
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    });
    return { GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: 'stand-in-key' };
  }
  if (name === 'qwen') {
    writeJson(join(home, '.qwen', 'settings.json'), {
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false },
    });
    return { OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'sk-stand-in', OPENAI_MODEL: 'stand-in-model' };
  }
  if (name === 'codex') {
    const codexHome = join(home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    // codex 0.169 ignores OPENAI_BASE_URL; a provider entry is the way. The model is pinned: the default one
    // advertises no apply_patch. Retry caps are left to fixcycle's adapter.
    const toml = [
      'model = "gpt-5.5"',
      'model_provider = "gateway"',
      'check_for_update_on_startup = false',
      '',
      '[features]',
      'plugins = false',
      '',
      '[model_providers.gateway]',
      'name = "Company gateway"',
      `base_url = "${url}/v1"`,
      'env_key = "GATEWAY_API_KEY"',
      'wire_api = "responses"',
      '',
      '[analytics]',
      'enabled = false',
      '',
      '[feedback]',
      'enabled = false',
      '',
    ].join('\n');
    writeFileSync(join(codexHome, 'config.toml'), toml);
    return { CODEX_HOME: codexHome, GATEWAY_API_KEY: 'sk-stand-in' };
  }
  // opencode: the user's global config (XDG_CONFIG_HOME/opencode), so OPENCODE_CONFIG stays free for fixcycle's adapter.
  writeJson(join(home, '.config', 'opencode', 'opencode.json'), {
    $schema: 'https://opencode.ai/config.json',
    model: 'gateway/stand-in-model',
    small_model: 'gateway/stand-in-model',
    autoupdate: false,
    share: 'disabled',
    provider: {
      gateway: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Company gateway',
        options: { baseURL: `${url}/v1`, apiKey: 'sk-stand-in' },
        models: { 'stand-in-model': { name: 'Stand-in model', tool_call: true } },
      },
    },
  });
  return {
    // At every start opencode installs @opencode-ai/plugin into each config folder in the background (bun, from
    // registry.npmjs.org); a company points it at its own registry, here the stand-in, which answers 404.
    npm_config_registry: `${url}/npm-registry/`,
    BUN_CONFIG_REGISTRY: `${url}/npm-registry/`,
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
  };
}

/**
 * A throwaway HOME (and XDG/CODEX_HOME/... dirs) set up the way a USER would point that CLI at a company
 * API gateway (here the stand-in): env vars such as ANTHROPIC_BASE_URL, plus user-level config files in the
 * throwaway HOME where the CLI needs them (gemini auth type, codex [model_providers], opencode provider).
 * Returns the env to run fixcycle (or the CLI) with: PATH has the real CLI's bin dir first.
 */
export function gatewayEnv(name: RealCliName, standIn: StandIn, home: string): Record<string, string> {
  const xdg = {
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
  };
  for (const dir of Object.values(xdg)) mkdirSync(dir, { recursive: true });
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && !FOREIGN.test(entry[0]),
    ),
  );
  const rg = ripgrepDir();
  return {
    ...inherited,
    ...xdg,
    HOME: home,
    PATH: [binDir(), ...(rg ? [rg] : []), process.env.PATH ?? ''].join(':'),
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
    ...configure(name, standIn.url, home),
  };
}
