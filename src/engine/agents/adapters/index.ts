/**
 * Registers the built-in agents, so `--agent claude` or `"chain": ["gemini", "claude"]` resolve.
 * Import this module once (for its effect) before resolving agents.
 */
import { registerAdapter } from '../resolve.js';
import { aiderAdapter } from './aider.js';
import { claudeAdapter } from './claude.js';
import { codexAdapter } from './codex.js';
import { geminiAdapter } from './gemini.js';
import { manualAdapter } from './manual.js';
import { opencodeAdapter } from './opencode.js';
import { qwenAdapter } from './qwen.js';

/** The built-in CLI adapters, by name. */
export const CLI_ADAPTERS = [
  geminiAdapter,
  qwenAdapter,
  codexAdapter,
  claudeAdapter,
  opencodeAdapter,
  aiderAdapter,
] as const;

for (const adapter of [...CLI_ADAPTERS, manualAdapter]) registerAdapter(adapter);

export { aiderAdapter, claudeAdapter, codexAdapter, geminiAdapter, manualAdapter, opencodeAdapter, qwenAdapter };
