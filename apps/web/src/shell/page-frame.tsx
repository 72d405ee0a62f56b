import { canAccess } from '@inventory/contract';
import { Button, Result } from 'antd';
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { DelayedFallback } from './delayed-fallback';
import { ForbiddenPage } from './forbidden-page';
import type { PageEntry, PageModule, PageProps } from './page-types';
import { useProfile } from './use-profile';

type LazyPage = LazyExoticComponent<ComponentType<PageProps>>;

/** One lazy component per page module, so pages sharing a module share its loading. */
const lazyPages = new Map<() => Promise<PageModule>, LazyPage>();

function lazyPage(entry: PageEntry): LazyPage {
  let page = lazyPages.get(entry.load);
  if (!page) {
    page = lazy(entry.load);
    lazyPages.set(entry.load, page);
  }
  return page;
}

/** A registered page behind the same access rule as its menu item: a hidden route shows 403. */
export default function PageFrame({ entry }: { entry: PageEntry }) {
  const profile = useProfile();
  if (profile.isPending) return <DelayedFallback />;
  if (profile.isError) {
    return (
      <Result
        status="error"
        title="Your profile could not be loaded"
        subTitle={profile.error.message}
        extra={<Button onClick={() => void profile.refetch()}>Try again</Button>}
      />
    );
  }
  if (!canAccess(profile.data, entry)) return <ForbiddenPage access={entry} />;
  const Page = lazyPage(entry);
  return (
    <Suspense fallback={<DelayedFallback />}>
      <Page entry={entry} />
    </Suspense>
  );
}
