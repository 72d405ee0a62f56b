import type { Access, MenuGroup } from '@inventory/contract';
import type { ComponentType } from 'react';

export type PageProps = { readonly entry: PageEntry };

export type PageModule = { default: ComponentType<PageProps> };

/**
 * One page of the application, declared by its feature in `<area>.pages.ts`. The same entry
 * builds the route, the side-menu item and the route guard.
 */
export type PageEntry = Access & {
  readonly path: string;
  /** Side-menu group; null for a page reached from elsewhere (home, agent pages). */
  readonly group: MenuGroup | null;
  readonly label: string;
  /** What the page is for, in a line: shown by the page until it is built. */
  readonly summary: string;
  readonly load: () => Promise<PageModule>;
};

/** The page module of pages whose business content a later issue builds. */
export const pendingPage = (): Promise<PageModule> => import('./pending-page');

/** Declares the pending pages of one menu group with their access rules. */
export function pendingPages(
  group: MenuGroup,
  pages: ReadonlyArray<readonly [path: string, label: string, access: Access, summary: string]>,
): PageEntry[] {
  return pages.map(([path, label, access, summary]) => ({
    path,
    group,
    label,
    summary,
    ...access,
    load: pendingPage,
  }));
}
