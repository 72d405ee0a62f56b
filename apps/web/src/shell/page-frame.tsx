import { canAccess } from '@inventory/contract';
import { Button, Result } from 'antd';
import { Suspense } from 'react';
import { DelayedFallback } from './delayed-fallback';
import { ForbiddenPage } from './forbidden-page';
import type { LazyPage, PageEntry } from './page-types';
import { useProfile } from './use-profile';

/**
 * A registered page behind the same access rule as its menu item: a hidden route shows 403. Keyed
 * by its path, so two routes sharing a page module never share its state or its elements.
 */
export default function PageFrame({ entry, page: Page }: { entry: PageEntry; page: LazyPage }) {
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
  return (
    <Suspense fallback={<DelayedFallback />}>
      <Page key={entry.path} entry={entry} />
    </Suspense>
  );
}
