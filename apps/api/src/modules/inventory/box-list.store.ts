import { boxedDeviceList, inventoryBoxList, normaliseScan } from '@inventory/contract';
import { isoTextSql, prefixCondition } from '../../http/sql.js';
import type { Condition } from '../../toolkit/list.js';
import type { PickerSql } from '../../toolkit/pickers.js';
import type { ListQueryOf, ListStore } from '../../toolkit/resource.js';
import { MODEL_PICKER, modelDisplayNameOf } from '../master-data/index.js';

/**
 * The device boxes' list (DOMAIN.md 4.2) and each box's IMEIs. A page of boxes reads
 * inventory_boxes alone by an index of its order (migration 0028), with the names of its model,
 * colour and location looked up by key for the 50 rows shown; what a box holds is its qty,
 * never a count over the devices. There are about 20,000 boxes at a million devices.
 */

/** When a box was sealed, or opened while it is open: its age, and the order of "sealed". */
const SEALED_ORDER = 'COALESCE(ib.sealed_at, ib.created_at)';

/** A box code as it is scanned or typed: "IB-" and digits (the label's), in capitals. */
const BOX_CODE = /^IB-[0-9]*$/;

/**
 * The box filters, over a box `ib`: the box list's, and the IMEI list's through the boxes that
 * match them.
 */
const boxConditions = (
  query: Omit<ListQueryOf<typeof inventoryBoxList>, 'sort' | 'order' | 'cursor' | 'limit'>,
): Condition[] => [
  query.model_id !== undefined && ['ib.model_id = ?', query.model_id],
  query.color_id !== undefined && ['ib.color_id = ?', query.color_id],
  query.grade !== undefined && ['ib.grade = ?', query.grade],
  query.status !== undefined && ['ib.status = ?', query.status],
  query.zone_id !== undefined && [
    'ib.location_id IN (SELECT l.id FROM locations l WHERE l.zone_id = ?)',
    query.zone_id,
  ],
  // Age in whole days (age_days) at least N: sealed before the start of the day N - 1 days ago.
  query.min_age_days !== undefined && [
    `${SEALED_ORDER} < (current_date - ?::int + 1)::timestamptz`,
    query.min_age_days,
  ],
];

/**
 * A search of the boxes: a box code (or its start), or an IMEI, MEID or second IMEI, which finds
 * the box the device is in.
 */
function boxSearch(term: string): Condition {
  const code = term.trim().toUpperCase();
  if (BOX_CODE.test(code)) return prefixCondition('ib.code', code);
  const device = normaliseScan(term);
  return [
    `ib.id = (SELECT d.inventory_box_id FROM devices d
       WHERE d.id = COALESCE((SELECT id FROM devices WHERE identifier = ?),
                             (SELECT id FROM devices WHERE imei2 = ?)))`,
    device,
    device,
  ];
}

export const inventoryBoxListStore: ListStore<typeof inventoryBoxList> = {
  contract: inventoryBoxList,
  list: {
    // Colours joined: the table is small enough that a lookup of one scanned it for every row.
    from: 'inventory_boxes ib LEFT JOIN colors ibc ON ibc.id = ib.color_id',
    id: 'ib.id',
    columns: `ib.id, ib.code, ib.model_id, ${modelDisplayNameOf('ib.model_id')} AS model,
      ib.color_id, ibc.name AS color,
      ib.capacity_gb, ib.grade, ib.carrier_lock, ib.qty, ib.max_qty, ib.status, ib.location_id,
      (SELECT l.code FROM locations l WHERE l.id = ib.location_id) AS location_code,
      ${isoTextSql('ib.sealed_at')} AS sealed_at,
      current_date - (${SEALED_ORDER})::date AS age_days,
      CASE WHEN ib.status = 'locked' THEN (SELECT bc.id FROM inventory_box_counts bc
        WHERE bc.box_id = ib.id AND bc.finished_at IS NULL) END AS count_id`,
    sorts: {
      code: { sql: 'ib.code', type: 'text' },
      sealed_at: { sql: SEALED_ORDER, type: 'timestamptz' },
    },
    search: (_pattern, term) => boxSearch(term),
    filters: boxConditions,
  },
};

/**
 * The devices in boxes: one box's by its index (inventory_box_id, identifier, id), or those of
 * the boxes that match the box filters, by IMEI. Names are looked up by key, as for the boxes.
 */
export const BOXED_DEVICE_COLUMNS = `d.id, d.identifier, d.imei2, d.inventory_box_id AS box_id,
  (SELECT b.code FROM inventory_boxes b WHERE b.id = d.inventory_box_id) AS box_code,
  ${modelDisplayNameOf('d.model_id')} AS model,
  (SELECT c.name FROM colors c WHERE c.id = d.color_id) AS color, d.capacity_gb, d.grade,
  d.carrier_lock, d.status, d.hold_reason,
  (SELECT l.code FROM inventory_boxes b JOIN locations l ON l.id = b.location_id
   WHERE b.id = d.inventory_box_id) AS location_code`;

export const boxedDeviceListStore: ListStore<typeof boxedDeviceList> = {
  contract: boxedDeviceList,
  list: {
    from: 'devices d',
    id: 'd.id',
    columns: BOXED_DEVICE_COLUMNS,
    sorts: { imei: { sql: 'd.identifier', type: 'text' } },
    search: (_pattern, term) => {
      const code = term.trim().toUpperCase();
      if (BOX_CODE.test(code)) {
        const [sql, ...values] = prefixCondition('ib.code', code);
        return [
          `d.inventory_box_id IN (SELECT ib.id FROM inventory_boxes ib WHERE ${sql})`,
          ...values,
        ];
      }
      return prefixCondition('d.identifier', normaliseScan(term));
    },
    filters: (query) => {
      const boxes = boxConditions(query).filter(
        (condition): condition is Exclude<Condition, null | false> => Boolean(condition),
      );
      return [
        ['d.inventory_box_id IS NOT NULL'],
        query.box_id !== undefined && ['d.inventory_box_id = ?', query.box_id],
        boxes.length > 0 && [
          `d.inventory_box_id IN (SELECT ib.id FROM inventory_boxes ib
             WHERE ${boxes.map(([sql]) => sql).join(' AND ')})`,
          ...boxes.flatMap(([, ...values]) => values),
        ],
      ];
    },
  },
};

/** The filters' pickers: models, colours and the warehouse's zones. */
export const BOX_PICKERS = {
  models: MODEL_PICKER,
  colors: {
    from: 'colors',
    id: 'id',
    label: 'name',
    where: '$1::text IS NULL OR name ILIKE $1',
    order: 'lower(name), id',
  },
  zones: {
    from: 'locations',
    id: 'id',
    label: "code || COALESCE(' ' || name, '')",
    where: "kind = 'zone' AND ($1::text IS NULL OR code ILIKE $1 OR name ILIKE $1)",
    order: 'code, id',
  },
} as const satisfies Record<string, PickerSql>;
