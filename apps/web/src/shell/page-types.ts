import type { Access, MenuGroup } from '@inventory/contract';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

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

export type LazyPage = LazyExoticComponent<ComponentType<PageProps>>;

/** One lazy component per page module, so pages sharing a module share its loading. */
const lazyPages = new Map<() => Promise<PageModule>, LazyPage>();

/** The lazy component of a page, made once when the routes are built, never during a render. */
export function lazyPage(entry: PageEntry): LazyPage {
  let page = lazyPages.get(entry.load);
  if (!page) {
    page = lazy(entry.load);
    lazyPages.set(entry.load, page);
  }
  return page;
}
