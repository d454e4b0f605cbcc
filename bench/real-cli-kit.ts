// The entry bench/real-cli.mjs bundles: what the real-CLI benches need from test/real-cli/.
export { startStandIn } from '../test/real-cli/stand-in/server.js';
export { findRealCli, gatewayEnv } from '../test/real-cli/harness.js';
