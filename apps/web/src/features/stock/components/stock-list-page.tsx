import {
  MAX_BIN_LABEL_ROWS,
  type Access,
  type LabelFormat,
  type StockItemKind,
} from '@inventory/contract';
import { Alert, Button, Space } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { counted } from '../../../toolkit/format';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { printBinLabels } from '../api/stock.queries';
import { BinCountDrawer } from './bin-count-drawer';
import { StockActionDrawer, type StockAction, type StockPreset } from './stock-action-drawer';

/** What a stock page's rows and header may do: open an action's drawer, print bin labels. */
export type StockPageTools = {
  /** Opens one of the stock actions, started from a row (its item and bin) or from the header. */
  readonly open: (action: StockAction, preset: StockPreset | null) => void;
  /** Opens the count of a whole bin. */
  readonly countBin: () => void;
  /** Prints the bin labels of rows (a PDF in a new tab, or ZPL downloaded). */
  readonly print: (ids: readonly number[], format: LabelFormat) => void;
  /** Whether the person may change the stock (and so count it and label its bins). */
  readonly canChange: boolean;
};

/** The chosen rows' bin labels, at most MAX_BIN_LABEL_ROWS at a time. */
function ChosenLabels({
  ids,
  what,
  print,
  onClear,
}: {
  ids: readonly number[];
  what: string;
  print: StockPageTools['print'];
  onClear: () => void;
}) {
  const tooMany = ids.length > MAX_BIN_LABEL_ROWS;
  return (
    <Alert
      type={tooMany ? 'warning' : 'info'}
      style={{ marginBottom: 12 }}
      title={
        <Space wrap>
          <span>{counted(ids.length, what)} chosen:</span>
          <Button size="small" disabled={tooMany} onClick={() => print(ids, 'pdf')}>
            Print bin labels
          </Button>
          <Button size="small" disabled={tooMany} onClick={() => print(ids, 'zpl')}>
            Bin labels as ZPL
          </Button>
          <Button size="small" type="link" onClick={onClear}>
            Clear the choice
          </Button>
        </Space>
      }
      description={
        tooMany
          ? `Labels are printed for at most ${MAX_BIN_LABEL_ROWS} rows at a time: clear some of the choice.`
          : 'A 2x1 label per item and bin: the code and name, with barcodes of the item and the bin.'
      }
    />
  );
}

/**
 * A list of counted stock (accessories or parts) whose rows and header open the receive, adjust,
 * move, count and bin count drawers and print bin labels, for one row or the rows chosen; `configOf` builds
 * the list's page, given those tools.
 */
export function StockListPage<T extends { id: number }>({
  page,
  kind,
  manage,
  what,
  configOf,
}: {
  page: PageProps;
  kind: StockItemKind;
  manage: Access;
  /** What a row is, for the count of those chosen ("accessory bin", "part"). */
  what: string;
  configOf: (tools: StockPageTools) => ResourcePageConfig<T>;
}) {
  const [opened, setOpened] = useState<{ action: StockAction; preset: StockPreset | null }>();
  const [countingBin, setCountingBin] = useState(false);
  const [chosen, setChosen] = useState<number[]>([]);
  const canChange = useCan(manage);
  const print = useCallback(
    (ids: readonly number[], format: LabelFormat) =>
      void printBinLabels(kind, ids, format).catch(showApiError),
    [kind],
  );
  const base = useMemo(
    () =>
      configOf({
        open: (action, preset) => setOpened({ action, preset }),
        countBin: () => setCountingBin(true),
        print,
        canChange,
      }),
    [configOf, print, canChange],
  );
  const config = useMemo<ResourcePageConfig<T>>(
    () =>
      canChange
        ? {
            ...base,
            selection: { ids: chosen, onChange: setChosen },
            header: (
              <>
                {base.header}
                {chosen.length > 0 && (
                  <ChosenLabels
                    ids={chosen}
                    what={what}
                    print={print}
                    onClear={() => setChosen([])}
                  />
                )}
              </>
            ),
          }
        : base,
    [base, canChange, chosen, what, print],
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
      {countingBin && <BinCountDrawer kind={kind} onClose={() => setCountingBin(false)} />}
    </>
  );
}
