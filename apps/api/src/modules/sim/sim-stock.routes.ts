import {
  moveSimBoxEndpoint,
  receiveSimRangeEndpoint,
  simBoxLabelEndpoint,
  simBoxPackLabelsEndpoint,
  simBoxPacksEndpoint,
  simBoxPickers,
  simCardPickers,
  simInquireEndpoint,
  simPackLabelEndpoint,
  simPrefixEndpoint,
  simStatusActionEndpoint,
  simTransferEndpoint,
  splitSimBoxEndpoint,
} from '@inventory/contract';
import { ConflictError } from '../../http/errors.js';
import { registerPrintable } from '../../toolkit/documents/print.js';
import { pickerOptions } from '../../toolkit/pickers.js';
import { registerImports } from '../../toolkit/imports.js';
import { registerList } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import { SIM_PICKERS, simBoxListStore } from './sim-boxes.store.js';
import {
  findSimBox,
  findSimPack,
  moveBox,
  packsOfBox,
  prefixOf,
  receiveRange,
  simBoxLabel,
  simListImportStore,
  simPackLabels,
  splitBox,
} from './sim-boxes.service.js';
import { markSim, transferSims } from './sim-cards.service.js';
import { simCardListStore } from './sim-cards.store.js';
import { inquireSim } from './sim-inquire.service.js';

/**
 * SIM stock (DOMAIN.md 4.6): the boxes (`/sim/box`: receive by range or ICCID list, split into
 * packs, move, labels), the SIM list (`/sim`: mark defective or lost, transfer between agents)
 * and the SIM lookup (`/sim/inquire`).
 */
export const simStockModule: AppModule = {
  name: 'sim-stock',
  register(context) {
    const { endpoint, db } = context;

    registerList(context, simBoxListStore);
    registerImports(context, simListImportStore);
    endpoint(receiveSimRangeEndpoint, ({ principal, body, meta }) =>
      db.transaction((tx) => receiveRange(tx, { actor: principal, meta }, body)),
    );
    endpoint(simPrefixEndpoint, ({ query }) => prefixOf(db, query.iccid));
    endpoint(splitSimBoxEndpoint, ({ principal, params, body, meta }) =>
      db.transaction((tx) => splitBox(tx, { actor: principal, meta }, params.id, body.size)),
    );
    endpoint(simBoxPacksEndpoint, async ({ params }) => {
      await findSimBox(db, params.id);
      return packsOfBox(db, params.id);
    });
    endpoint(moveSimBoxEndpoint, ({ principal, params, body, meta }) =>
      db.transaction((tx) => moveBox(tx, { actor: principal, meta }, params.id, body.location_id)),
    );
    registerPrintable(context, {
      endpoint: simBoxLabelEndpoint,
      ask: async ({ params }) => ({ boxId: (await findSimBox(db, params.id)).id }),
      content: async (request) => simBoxLabel(await findSimBox(db, Number(request.boxId))),
    });
    registerPrintable(context, {
      endpoint: simBoxPackLabelsEndpoint,
      ask: async ({ params }) => {
        const box = await findSimBox(db, params.id);
        if (box.pack_count === 0) {
          throw new ConflictError(`${box.code} has no packs yet: split it first.`);
        }
        return { boxId: box.id };
      },
      content: async (request) => {
        const box = await findSimBox(db, Number(request.boxId));
        return simPackLabels(`${box.code}-packs`, box.client_carrier, await packsOfBox(db, box.id));
      },
    });
    registerPrintable(context, {
      endpoint: simPackLabelEndpoint,
      ask: async ({ params }) => ({ packId: (await findSimPack(db, params.id)).id }),
      content: async (request) => {
        const pack = await findSimPack(db, Number(request.packId));
        const box = await findSimBox(db, pack.sim_box_id);
        return simPackLabels(pack.code, box.client_carrier, [pack]);
      },
    });
    endpoint(simBoxPickers.carriers, ({ query }) => pickerOptions(db, SIM_PICKERS.carriers, query));
    endpoint(simBoxPickers.locations, ({ query }) =>
      pickerOptions(db, SIM_PICKERS.locations, query),
    );

    registerList(context, simCardListStore);
    endpoint(simStatusActionEndpoint, ({ principal, params, body, meta }) =>
      db.transaction((tx) =>
        markSim(tx, { actor: principal, meta }, params.id, body.action, body.reason),
      ),
    );
    endpoint(simTransferEndpoint, ({ principal, body, meta }) =>
      db.transaction((tx) => transferSims(tx, { actor: principal, meta }, body)),
    );
    endpoint(simCardPickers.agents, ({ query }) => pickerOptions(db, SIM_PICKERS.agents, query));
    endpoint(simCardPickers.boxes, ({ query }) => pickerOptions(db, SIM_PICKERS.boxes, query));

    endpoint(simInquireEndpoint, ({ body }) => inquireSim(db, body.iccid));
  },
};
