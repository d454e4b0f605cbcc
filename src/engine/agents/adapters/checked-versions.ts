// Written by `npm run contract` (scripts/contract.mjs): for each CLI, the releases its whole contract suite
// (test/real-cli/<cli>.contract.test.ts) passed against. `fixcycle doctor` names them; nothing else is claimed.
export const CHECKED_VERSIONS: Readonly<Record<string, readonly string[]>> = {
  claude: ['2.1.197', '2.1.331', '2.1.332'],
  gemini: ['0.61.0'],
  codex: ['0.169.0', '0.171.0'],
  qwen: ['0.15.10', '0.24.4'],
  opencode: ['1.18.33'],
  aider: [],
};
