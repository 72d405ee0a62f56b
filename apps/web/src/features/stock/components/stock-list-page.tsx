import type { Access, StockItemKind } from '@inventory/contract';
import { useMemo, useState } from 'react';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { StockActionDrawer, type StockAction, type StockPreset } from './stock-action-drawer';

/** Opens one of the stock actions, started from a row (its item and bin) or from the header. */
export type OpenStockAction = (action: StockAction, preset: StockPreset | null) => void;

/**
 * A list of counted stock (accessories or parts) whose rows and header open the receive, adjust
 * and move drawers; `configOf` builds the list's page, given how to open them and whether the
 * person may.
 */
export function StockListPage<T extends { id: number }>({
  page,
  kind,
  manage,
  configOf,
}: {
  page: PageProps;
  kind: StockItemKind;
  manage: Access;
  configOf: (open: OpenStockAction, canChange: boolean) => ResourcePageConfig<T>;
}) {
  const [opened, setOpened] = useState<{ action: StockAction; preset: StockPreset | null }>();
  const canChange = useCan(manage);
  const config = useMemo(
    () => configOf((action, preset) => setOpened({ action, preset }), canChange),
    [configOf, canChange],
  );
  return (
    <>
      <ResourcePage {...page} config={config} />
      {opened && (
        <StockActionDrawer
          kind={kind}
          action={opened.action}
          preset={opened.preset}
          onClose={() => setOpened(undefined)}
        />
      )}
    </>
  );
}
