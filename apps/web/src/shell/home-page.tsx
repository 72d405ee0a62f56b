import { visibleMenu } from './menu';
import { pageStyles } from './page-styles';
import type { PageEntry } from './page-types';
import { Link } from 'react-router';
import { useProfile } from './use-profile';

/**
 * The home page: a welcome and the pages this user may open, by menu group. Its links do not
 * prefetch (the side menu's do): a page full of links would load every page's code at once.
 */
export default function HomePage({ pages }: { pages: readonly PageEntry[] }) {
  const profile = useProfile();
  const sections = visibleMenu(pages, profile.data);
  return (
    <>
      <h1 style={pageStyles.title}>{profile.data ? `Welcome, ${profile.data.name}` : 'Welcome'}</h1>
      {sections.length === 0 && !profile.isPending ? (
        <p style={pageStyles.text}>
          No pages are open to you yet. Ask an administrator for a role.
        </p>
      ) : (
        <div style={pageStyles.grid}>
          {sections.map((section) => (
            <section key={section.group} style={{ ...pageStyles.panel, padding: 16 }}>
              <h2 style={{ fontSize: 15, fontWeight: 600, margin: '0 0 8px' }}>{section.group}</h2>
              <ul style={{ margin: 0, paddingLeft: 18, lineHeight: 1.8 }}>
                {section.pages.map((page) => (
                  <li key={page.path}>
                    <Link to={page.path}>{page.label}</Link>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </>
  );
}
