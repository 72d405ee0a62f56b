import { canAccess, MENU_GROUPS, type AccessSubject, type MenuGroup } from '@inventory/contract';
import type { PageEntry } from './page-types';

export type MenuSection = { readonly group: MenuGroup; readonly pages: readonly PageEntry[] };

/**
 * The side menu of spec section 6: the pages this profile may open, by group in menu order;
 * groups with no visible page are left out; no profile gives an empty menu.
 */
export function visibleMenu(
  pages: readonly PageEntry[],
  profile: AccessSubject | null | undefined,
): MenuSection[] {
  if (!profile) return [];
  return MENU_GROUPS.map((group) => ({
    group,
    pages: pages.filter((page) => page.group === group && canAccess(profile, page)),
  })).filter((section) => section.pages.length > 0);
}
