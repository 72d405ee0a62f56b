import { Menu } from 'antd';
import { useMemo, useState } from 'react';
import { useLocation } from 'react-router';
import type { MenuSection } from './menu';
import { PrefetchLink } from './prefetch-link';

/** The side menu: one submenu per visible group, each link prefetching its page's code. */
export function SideMenu({ sections }: { sections: readonly MenuSection[] }) {
  const { pathname } = useLocation();
  const currentGroup = useMemo(
    () =>
      sections.find((section) =>
        section.pages.some((page) => page.path.toLowerCase() === pathname.toLowerCase()),
      )?.group,
    [sections, pathname],
  );
  const [openKeys, setOpenKeys] = useState<string[]>(currentGroup ? [currentGroup] : []);
  const items = sections.map((section) => ({
    key: section.group,
    label: section.group,
    children: section.pages.map((page) => ({
      key: page.path,
      label: (
        <PrefetchLink to={page.path} prefetch={page.load}>
          {page.label}
        </PrefetchLink>
      ),
    })),
  }));
  return (
    <Menu
      mode="inline"
      items={items}
      selectedKeys={[pathname]}
      openKeys={openKeys}
      onOpenChange={setOpenKeys}
      aria-label="Main menu"
    />
  );
}
