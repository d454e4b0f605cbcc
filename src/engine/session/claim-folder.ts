import { mkdir } from 'node:fs/promises';

/**
 * Makes `dir` (its parent must exist); false when it is already there. mkdir is atomic, so of two processes
 * claiming one name at the same moment exactly one gets it, where "does it exist? then make it" lets both.
 */
export async function claimFolder(dir: string): Promise<boolean> {
  return mkdir(dir).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return false;
      throw error;
    },
  );
}
