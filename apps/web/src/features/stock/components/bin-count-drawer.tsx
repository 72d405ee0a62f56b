import {
  accessoryBinCountLineSchema,
  accessoryStockEndpoints,
  partBinCountLineSchema,
  partStockEndpoints,
  type EndpointDefinition,
  type Schema,
  type StockCountResult,
  type StockItemKind,
} from '@inventory/contract';
import { Button, Drawer, Empty, Form, Input, InputNumber, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { fieldErrorsOf, showApiError } from '../../../shell/api-errors';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { callEndpoint } from '../../../shell/http-client';
import { notify } from '../../../shell/notify';
import { pickerLoader } from '../../../toolkit/picker-options';
import { RemoteSelect } from '../../../toolkit/resource-form';
import type { FormField } from '../../../toolkit/resource-page-config';
import { fieldSchema, zodRule } from '../../../toolkit/zod-rules';
import { useRefreshStock } from '../api/stock.queries';
import { countedOf, STOCK_KINDS } from './stock-action-drawer';

/** A line of the count: an item the books have at the bin (named) or one found there (picked). */
type Line = { item?: number | null; counted_qty?: number | null; label?: string };
type Values = { location_id?: number | null; lines?: Line[]; note?: string };

const LINE_SCHEMAS: Record<StockItemKind, Schema> = {
  accessory: accessoryBinCountLineSchema,
  part: partBinCountLineSchema,
};

/** The items the books have at the bin with units, in the list's order. */
async function itemsAt(kind: StockItemKind, locationId: number): Promise<Line[]> {
  if (kind === 'part') {
    const { data } = await callEndpoint(partStockEndpoints.list, {
      query: { location_id: locationId, limit: 200 },
    });
    return data.items.map((part) => ({ item: part.id, label: `${part.part_number} ${part.name}` }));
  }
  const { data } = await callEndpoint(accessoryStockEndpoints.list, {
    query: { location_id: locationId, in_stock: 'true', limit: 200 },
  });
  return data.items.map((row) => ({ item: row.accessory_id, label: `${row.sku} ${row.name}` }));
}

/**
 * A count of a whole bin: the items the books have there are listed for what was found of each
 * (blind: the books' quantities are not shown), items found that the books did not have are
 * added, and the whole count is sent at once, written in one transaction.
 */
export function BinCountDrawer({ kind, onClose }: { kind: StockItemKind; onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  const refresh = useRefreshStock();
  const [form] = Form.useForm();
  const [loading, setLoading] = useState(false);
  const [sending, setSending] = useState(false);
  const { endpoints, itemField, itemLabel, what } = STOCK_KINDS[kind];
  const endpoint = endpoints.binCount;
  const lineSchema = LINE_SCHEMAS[kind];
  const itemPicker: Extract<FormField, { kind: 'remote' }> = {
    name: itemField,
    label: itemLabel,
    kind: 'remote',
    load: pickerLoader(endpoints.itemOptions),
  };
  const locationPicker: Extract<FormField, { kind: 'remote' }> = {
    name: 'location_id',
    label: 'Bin',
    kind: 'remote',
    load: pickerLoader(endpoints.locationOptions),
    placeholder: 'Type a location code',
  };

  const chooseBin = async (locationId: number | null) => {
    form.setFieldValue('lines', []);
    if (locationId === null) return;
    setLoading(true);
    try {
      form.setFieldValue('lines', await itemsAt(kind, locationId));
    } catch (error) {
      showApiError(error);
    } finally {
      setLoading(false);
    }
  };

  const submit = async () => {
    // Every value, the books' lines' items too, which have no field of their own.
    const values = form.getFieldsValue(true) as Values;
    const lines = values.lines ?? [];
    setSending(true);
    try {
      const body = {
        location_id: values.location_id,
        lines: lines.map((line) => ({ [itemField]: line.item, counted_qty: line.counted_qty })),
        note: values.note || undefined,
      };
      // Checked by the count's schema, here and on the server.
      const { data } = await callEndpoint<EndpointDefinition & { readonly body: Schema }>(
        endpoint,
        { body },
      );
      await refresh();
      notify.success(binCountDone(data as StockCountResult));
      onClose();
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (!fields) return showApiError(error);
      // A line's message lands on its field ("lines.2.counted_qty"); one about the lines as a
      // whole, or about an item of the books (which has no field), is a notification.
      for (const [name, errors] of Object.entries(fields)) {
        const [head, index, field] = name.split('.');
        const line = index === undefined ? undefined : lines[Number(index)];
        if (head !== 'lines') form.setFields([{ name: head!, errors }]);
        else if (!line) notify.error(errors.join(' '));
        else if (field === itemField && line.label)
          notify.error(`${line.label}: ${errors.join(' ')}`);
        else {
          const at = field === itemField ? 'item' : field!;
          form.setFields([{ name: ['lines', Number(index), at], errors }]);
        }
      }
    } finally {
      setSending(false);
    }
  };

  return (
    <Drawer
      {...dialogFocus}
      open
      size={560}
      title={`Count a bin of ${what}`}
      onClose={onClose}
      extra={
        <Space>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="primary" onClick={() => form.submit()} loading={sending}>
            Record count
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">
        Count every {itemLabel.toLowerCase()} in the bin and enter what you found, 0 for one that is
        not there. Differences from the books are written to the stock ledger as count moves, all at
        once; on hand never goes below what is reserved.
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        onFinish={() => void submit()}
        onValuesChange={(changed: Values) => {
          if ('location_id' in changed) void chooseBin(changed.location_id ?? null);
        }}
      >
        <Form.Item
          label="Bin"
          name="location_id"
          required
          rules={[zodRule(fieldSchema(endpoint.body, 'location_id'))]}
        >
          <RemoteSelect field={locationPicker} initial={[]} />
        </Form.Item>
        <Spin spinning={loading}>
          <Form.List name="lines">
            {(lines, { add, remove }) => (
              <Space orientation="vertical" style={{ width: '100%' }}>
                {lines.length === 0 && !loading && (
                  <Empty
                    image={Empty.PRESENTED_IMAGE_SIMPLE}
                    description={`The books have no ${what} in this bin.`}
                  />
                )}
                {lines.map(({ key, name }) => {
                  const label = form.getFieldValue(['lines', name, 'label']) as string | undefined;
                  return (
                    <Space key={key} align="start" wrap data-testid="bin-count-line">
                      {!label && (
                        <Form.Item
                          label={`${itemLabel} found`}
                          name={[name, 'item']}
                          required
                          rules={[zodRule(fieldSchema(lineSchema, itemField))]}
                          style={{ minWidth: 280 }}
                        >
                          <RemoteSelect field={itemPicker} initial={[]} />
                        </Form.Item>
                      )}
                      <Form.Item
                        // An item of the books is named by its line's label: its count's field.
                        label={label ?? 'Counted'}
                        name={[name, 'counted_qty']}
                        required
                        rules={[zodRule(fieldSchema(lineSchema, 'counted_qty'))]}
                      >
                        <InputNumber min={0} style={{ width: 110 }} />
                      </Form.Item>
                      {!label && (
                        <Button
                          style={{ marginTop: 30 }}
                          aria-label={`Remove the ${itemLabel.toLowerCase()} found`}
                          onClick={() => remove(name)}
                        >
                          Remove
                        </Button>
                      )}
                    </Space>
                  );
                })}
                <Button onClick={() => add({})}>Add {itemLabel.toLowerCase()} found</Button>
              </Space>
            )}
          </Form.List>
        </Spin>
        <Form.Item
          label="Note"
          name="note"
          style={{ marginTop: 16 }}
          rules={[zodRule(fieldSchema(endpoint.body, 'note'))]}
        >
          <Input.TextArea rows={2} />
        </Form.Item>
      </Form>
    </Drawer>
  );
}

/** The count in a sentence: how many items, and those that differed from the books. */
function binCountDone(result: StockCountResult): string {
  const off = result.lines.filter((line) => line.difference !== 0);
  const lead = `Counted ${result.lines.length} item${result.lines.length === 1 ? '' : 's'} at ${result.location}`;
  return off.length === 0
    ? `${lead}: all as the books said.`
    : `${lead}. ${countedOf({ ...result, lines: off })}`;
}
