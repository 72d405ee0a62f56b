import { Menu } from 'antd';
import { useState } from 'react';
import { useLocation } from 'react-router';
import type { MenuSection } from './menu';
import { PrefetchLink } from './prefetch-link';

/**
 * The side menu: one submenu per visible group, each link prefetching its page's code. The current
 * page's group is open and its item selected, also on a direct link: the groups arrive with the
 * profile, after the first render, and the address may differ from the page's path in case.
 */
export function SideMenu({ sections }: { sections: readonly MenuSection[] }) {
  const { pathname } = useLocation();
  const current = currentPage(sections, pathname);
  const [openKeys, setOpenKeys] = useState<string[]>([]);
  // The group of the page reached is opened once per page (a render-time update, not an effect):
  // the user may close it again, and the groups they opened stay open.
  const [openedFor, setOpenedFor] = useState<string | undefined>();
  if (current && openedFor !== current.path) {
    setOpenedFor(current.path);
    if (!openKeys.includes(current.group)) setOpenKeys([...openKeys, current.group]);
  }
  const items = sections.map((section) => ({
    key: section.group,
    label: section.group,
    children: section.pages.map((page) => ({
      key: page.path,
      label: (
        <PrefetchLink
          to={page.path}
          prefetch={page.load}
          aria-current={page.path === current?.path ? 'page' : undefined}
        >
          {page.label}
        </PrefetchLink>
      ),
    })),
  }));
  return (
    <Menu
      mode="inline"
      items={items}
      selectedKeys={current ? [current.path] : []}
      openKeys={openKeys}
      onOpenChange={setOpenKeys}
      aria-label="Main menu"
    />
  );
}

/** The menu's page at this address, and its group; matched regardless of case. */
function currentPage(sections: readonly MenuSection[], pathname: string) {
  const path = pathname.toLowerCase().replace(/(.)\/+$/, '$1');
  for (const section of sections) {
    const page = section.pages.find((candidate) => candidate.path.toLowerCase() === path);
    if (page) return { group: section.group, path: page.path };
  }
  return undefined;
}
