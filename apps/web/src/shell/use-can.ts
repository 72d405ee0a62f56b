import { canAccess, type Access } from '@inventory/contract';
import { useProfile } from './use-profile';

/** Whether the signed-in user passes an access rule; for showing actions, never for security. */
export function useCan(access: Access): boolean {
  const profile = useProfile();
  return canAccess(profile.data, access);
}
