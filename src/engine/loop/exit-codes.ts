/** fixcycle's exit codes; in a module of their own so the CLI knows them without loading the loop. */
export const EXIT = { success: 0, failure: 1, usage: 2, awaitingApproval: 3, interrupted: 130 } as const;
