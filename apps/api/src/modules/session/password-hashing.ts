import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane. */
export const PASSWORD_HASH_PARAMETERS = {
  // Algorithm.Argon2id; the package exports it as a const enum, which isolated modules cannot read.
  algorithm: 2 as Algorithm,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, PASSWORD_HASH_PARAMETERS);
}

/** False for a wrong password and for a malformed stored hash. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

/** True when a stored hash used weaker parameters than today's: it is re-hashed at login. */
export function needsRehash(storedHash: string): boolean {
  const match = /^\$argon2id\$v=\d+\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(storedHash);
  if (!match) return true;
  const [, memory, time] = match.map(Number);
  return (
    (memory ?? 0) < PASSWORD_HASH_PARAMETERS.memoryCost ||
    (time ?? 0) < PASSWORD_HASH_PARAMETERS.timeCost
  );
}

let dummyHash: Promise<string> | undefined;
/** Checked for unknown users so that they take as long as a wrong password. */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('not-a-password-of-anyone');
  return dummyHash;
}
