import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { DatabaseUnavailableError } from './db.js';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite has one writer: a second process on the same directory would corrupt it. The lock file
 * holds the owner's pid; a lock left by a process that no longer runs is taken over.
 */
export function acquireDirectoryLock(lockPath: string): () => void {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(owner) && owner !== process.pid && isRunning(owner)) {
        throw new DatabaseUnavailableError(
          `the data directory is in use by another process (pid ${owner}): ${lockPath}`,
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new DatabaseUnavailableError(`could not lock the data directory: ${lockPath}`);
}
