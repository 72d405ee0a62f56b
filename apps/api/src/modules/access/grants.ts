import { isAdmin } from '@inventory/contract';
import { ApiError } from '../../http/errors.js';
import type { Principal } from '../session/session.service.js';

const lower = (names: readonly string[]) => new Set(names.map((name) => name.toLowerCase()));

/**
 * Nobody grants what they do not hold: the names being added must all be held by the actor
 * (administrators hold everything). Answers 403 naming the first one that is not.
 */
export function assertCanGrant(
  actor: Principal,
  kind: 'role' | 'permission',
  added: readonly string[],
): void {
  if (isAdmin(actor.roles)) return;
  const held = lower(kind === 'role' ? actor.roles : actor.permissions);
  const missing = added.find((name) => !held.has(name.toLowerCase()));
  if (missing) {
    throw new ApiError(
      403,
      `You cannot grant the ${kind} ${missing}: you do not hold it yourself.`,
    );
  }
}

/** Names in `next` that are not in `current`, compared case-insensitively. */
export function addedNames(current: readonly string[], next: readonly string[]): string[] {
  const existing = lower(current);
  return next.filter((name) => !existing.has(name.toLowerCase()));
}
