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
  /** What the page is for, in a line: the route map (docs/route-map.md) gives it. */
  readonly summary: string;
  readonly load: () => Promise<PageModule>;
};

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
