import type { LoginResult, UserType } from '@inventory/contract';

/** Browser storage keys of spec section 3. */
export const STORAGE_KEYS = {
  token: 'token',
  type: 'type',
  userName: 'user_name',
  userInfoId: 'userInfoId',
  userInfo: 'userInfo',
} as const;

export const getToken = (): string | null => localStorage.getItem(STORAGE_KEYS.token);

export const getStoredType = (): UserType =>
  localStorage.getItem(STORAGE_KEYS.type) === 'agent' ? 'agent' : 'staff';

export const getStoredUserName = (): string => localStorage.getItem(STORAGE_KEYS.userName) ?? '';

/** 'Agent' for a stored type 'agent', otherwise 'Inventory' (spec section 1). */
export function applyDocumentTitle(): void {
  document.title = getStoredType() === 'agent' ? 'Agent' : 'Inventory';
}

/** Keeps what a login returned, as the spec's storage keys name it. */
export function saveSession(result: LoginResult): void {
  localStorage.setItem(STORAGE_KEYS.token, result.token);
  localStorage.setItem(STORAGE_KEYS.type, result.type);
  localStorage.setItem(STORAGE_KEYS.userName, result.user_name);
  localStorage.setItem(STORAGE_KEYS.userInfoId, String(result.userInfoId));
  localStorage.setItem(STORAGE_KEYS.userInfo, JSON.stringify(result.userInfo));
  applyDocumentTitle();
}

/** Forgets the session; the cart stays, it belongs to the browser rather than the session. */
export function clearSession(): void {
  for (const key of Object.values(STORAGE_KEYS)) localStorage.removeItem(key);
  applyDocumentTitle();
}

/** Where a signed-out visitor of a path is sent (spec section 4). */
export const loginPathFor = (pathname: string): string =>
  pathname.includes('agent') ? '/agent/login' : '/login';
