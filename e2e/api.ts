import { luhnCheckDigit, TEST_ITEMS, type DeviceGrade } from '@inventory/contract';
import { expect, type APIRequestContext } from '@playwright/test';
import { ADMIN_PASSWORD } from './support';

/** The API as a signed-in user, for setting up what a browser test starts from. */
export type Api = {
  readonly token: string;
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  upload<T>(path: string, fileName: string, content: string): Promise<T>;
};

/** Signs in through the API; each call must succeed, and answers the envelope's data. */
export async function apiAs(
  request: APIRequestContext,
  userName: string,
  password: string,
): Promise<Api> {
  const signIn = await request.post('/api/v1/login', { data: { user_name: userName, password } });
  expect(signIn.ok(), await signIn.text()).toBe(true);
  const { token } = ((await signIn.json()) as { data: { token: string } }).data;
  const headers = { authorization: `Bearer ${token}` };
  const dataOf = async <T>(response: Awaited<ReturnType<APIRequestContext['get']>>) => {
    expect(response.ok(), `${response.url()}: ${await response.text()}`).toBe(true);
    return ((await response.json()) as { data: T }).data;
  };
  return {
    token,
    get: async (path) => dataOf(await request.get(`/api/v1${path}`, { headers })),
    post: async (path, body) =>
      dataOf(await request.post(`/api/v1${path}`, { headers, data: body ?? {} })),
    upload: async (path, fileName, content) =>
      dataOf(
        await request.post(`/api/v1${path}?fileName=${encodeURIComponent(fileName)}`, {
          headers: { ...headers, 'content-type': 'text/csv' },
          data: Buffer.from(content),
        }),
      ),
  };
}

/** A valid IMEI: the TAC, a 6-digit serial and its Luhn check digit. */
export function imeiOf(tac: string, serial: number): string {
  const body = `${tac}${String(serial).padStart(6, '0')}`;
  return `${body}${luhnCheckDigit(body)}`;
}

/** What a receiving test starts from: a vendor, two models with a TAC each, a colour. */
export type ReceivingCatalogue = {
  vendor: { id: number; name: string };
  models: {
    main: { id: number; name: string; tac: string };
    other: { id: number; name: string; tac: string };
  };
  color: string;
};

/**
 * Master data for a receiving test, named with `tag` so that tests sharing the run's database
 * never meet. TACs are 8 digits derived from the tag's number.
 */
export async function seedReceivingCatalogue(api: Api, tag: number): Promise<ReceivingCatalogue> {
  const brand = `Brand ${tag}`;
  const model = async (name: string) =>
    api.post<{ id: number; display_name: string }>('/models', {
      brand,
      name,
      device_type: 'phone',
      os: 'android',
      network: '5G',
    });
  const main = await model(`Phone ${tag}`);
  const other = await model(`Phone ${tag} Plus`);
  const color = `Colour ${tag}`;
  await api.post('/colors', { name: color });
  const tacOf = (offset: number) => String(90_000_000 + tag * 10 + offset);
  for (const [modelId, offset] of [
    [main.id, 1],
    [other.id, 2],
  ] as const) {
    await api.post('/tac-numbers', { tac: tacOf(offset), model_id: modelId });
  }
  const vendor = await api.post<{ id: number; name: string }>('/vendors', {
    name: `Vendor ${tag}`,
    type: 'supplier',
  });
  return {
    vendor,
    models: {
      main: { id: main.id, name: main.display_name, tac: tacOf(1) },
      other: { id: other.id, name: other.display_name, tac: tacOf(2) },
    },
    color,
  };
}

/**
 * A vendor manifest of the catalogue's main model, imported through the API as a clerk's file
 * would be: rows of invoice number and IMEI. Answers each invoice's id by its number.
 */
export async function importManifest(
  api: Api,
  catalogue: ReceivingCatalogue,
  rows: readonly (readonly [invoiceNo: string, imei: string])[],
): Promise<Record<string, number>> {
  const { vendor, models, color } = catalogue;
  const csv = [
    'Vendor,Invoice no,Invoice date,IMEI,Model,Colour,Grade,Unit cost',
    ...rows.map(
      ([invoiceNo, imei]) =>
        `${vendor.name},${invoiceNo},2026-11-02,${imei},${models.main.name},${color},B,45.00`,
    ),
  ].join('\n');
  const batch = await api.upload<{ id: number }>('/invoice-imeis/imports', 'manifest.csv', csv);
  const check = await api.post<{ errors: unknown[] }>(
    `/invoice-imeis/imports/${batch.id}/check`,
    {},
  );
  expect(check.errors).toEqual([]);
  await api.post(`/invoice-imeis/imports/${batch.id}/commit`);
  const invoices = await api.get<{ items: { id: number; invoice_no: string }[] }>(
    `/purchase-invoices?vendor_id=${vendor.id}&limit=200`,
  );
  return Object.fromEntries(invoices.items.map((invoice) => [invoice.invoice_no, invoice.id]));
}

/** A staff account: its user name, the name it is greeted by, and the password it chose. */
export type Staff = { userName: string; name: string; password: string };

/**
 * A staff member holding the roles named, who has signed in once and chosen `staff.password`, as
 * a manager creates one and the new colleague takes it over. Answers the new user's id.
 */
export async function createStaff(
  request: APIRequestContext,
  admin: Api,
  staff: Staff,
  roleNames: string | readonly string[],
): Promise<{ id: number }> {
  const roles = await admin.get<{ items: { id: number; name: string }[] }>('/roles?limit=200');
  const roleIds = [roleNames].flat().map((roleName) => {
    const role = roles.items.find((candidate) => candidate.name === roleName);
    expect(role, `a role named ${roleName}`).toBeDefined();
    return role!.id;
  });
  const created = await admin.post<{ user: { id: number }; temporary_password: string }>('/users', {
    user_name: staff.userName,
    name: staff.name,
    type: 'staff',
    role_ids: roleIds,
  });
  const first = await apiAs(request, staff.userName, created.temporary_password);
  await first.post('/profile/password', {
    new_password: staff.password,
    new_password_confirm: staff.password,
  });
  return { id: created.user.id };
}

/** A warehouse box received, closed and staged, with the IMEIs scanned into it. */
export type StagedBox = { id: number; code: string; imeis: readonly string[] };

/**
 * Devices of the catalogue's main model as the receiving station leaves them: on a manifest under
 * invoice `INV-<tag>`, each scanned into a new warehouse box, which is closed and staged at
 * `STG-<tag>` for production.
 */
export async function receiveStagedBox(
  api: Api,
  catalogue: ReceivingCatalogue,
  { tag, imeis }: { tag: number; imeis: readonly string[] },
): Promise<StagedBox> {
  const invoiceNo = `INV-${tag}`;
  const invoiceIds = await importManifest(
    api,
    catalogue,
    imeis.map((imei) => [invoiceNo, imei] as const),
  );
  const box = await api.post<{ id: number; code: string }>('/warehouse-boxes', {
    invoice_id: invoiceIds[invoiceNo],
  });
  for (const code of imeis) {
    const scan = await api.post<{ result: string }>(`/warehouse-boxes/${box.id}/scans`, { code });
    expect(scan.result, code).toBe('added');
  }
  await api.post(`/warehouse-boxes/${box.id}/close`, {});
  await api.post(`/warehouse-boxes/${box.id}/stage`, { location: `STG-${tag}` });
  return { id: box.id, code: box.code, imeis };
}

/** Every item of the worker's checklist passed. */
const ALL_PASS = Object.fromEntries(TEST_ITEMS.map((item) => [item, 'pass']));

/** A device graded at a worker's bench: its id, IMEI and grade. */
export type GradedDevice = { id: number; identifier: string; grade: DeviceGrade };

/**
 * A staged box taken through production as the team works it: the whole box requested and
 * approved, `worker` created as a Production Worker and handed the box, and every device passed,
 * wiped (certificate `CERT-<tag>-<device id>`) and graded at bench `bench-<tag>`. `grade` is one
 * grade for all, or a grade per IMEI. Answers the worker's id, the request's number and the
 * graded devices.
 */
export async function gradeInProduction(
  request: APIRequestContext,
  api: Api,
  {
    catalogue,
    box,
    worker,
    tag,
    grade,
    batteryHealth = 90,
  }: {
    catalogue: ReceivingCatalogue;
    box: StagedBox;
    worker: Staff;
    tag: number;
    grade: DeviceGrade | ((imei: string) => DeviceGrade);
    batteryHealth?: number;
  },
): Promise<{ workerId: number; requestNumber: string; devices: GradedDevice[] }> {
  const { request: wanted } = await api.post<{ request: { id: number; number: string } }>(
    '/product-requests',
    { model_id: catalogue.models.main.id, qty: box.imeis.length },
  );
  await api.post(`/product-requests/${wanted.id}/approval`, {});
  const workerUser = await createStaff(request, api, worker, 'Production Worker');
  const bench = await apiAs(request, worker.userName, worker.password);
  await api.post('/product-team/assignments', {
    warehouse_box_id: box.id,
    worker_id: workerUser.id,
  });
  const queue = await bench.get<{ id: number; identifier: string }[]>('/product-team/worker/queue');
  expect(queue.map((device) => device.identifier).sort()).toEqual([...box.imeis].sort());
  const devices: GradedDevice[] = [];
  for (const device of queue) {
    const deviceGrade = typeof grade === 'function' ? grade(device.identifier) : grade;
    const graded = await bench.post<{ result: string }>('/product-team/worker/tests', {
      device_id: device.id,
      outcome: 'pass',
      items: ALL_PASS,
      frp_lock: false,
      battery_health: batteryHealth,
      wipe_method: 'nist_800_88',
      wipe_certificate: `CERT-${tag}-${device.id}`,
      grade: deviceGrade,
      station: `bench-${tag}`,
    });
    expect(graded.result, device.identifier).toBe('graded');
    devices.push({ ...device, grade: deviceGrade });
  }
  return { workerId: workerUser.id, requestNumber: wanted.number, devices };
}

/**
 * Sellable stock as the warehouse makes it: the staged box graded in production (`grade` for all),
 * every device consolidated into its inventory box, sealed and put away in bin `Z<tag>-01` of a
 * new zone. Answers the inventory box's code.
 */
export async function locateGradedStock(
  request: APIRequestContext,
  api: Api,
  options: {
    catalogue: ReceivingCatalogue;
    box: StagedBox;
    worker: Staff;
    tag: number;
    grade: DeviceGrade;
  },
): Promise<{ boxCode: string }> {
  const { tag } = options;
  await gradeInProduction(request, api, options);
  let named: { id: number; code: string } | null = null;
  for (const code of options.box.imeis) {
    const scanned = await api.post<{ box: { id: number; code: string } }>('/consolidation/scans', {
      code,
      station: `cons-${tag}`,
    });
    named = scanned.box;
    await api.post('/consolidation/placements', {
      code,
      box_code: named.code,
      station: `cons-${tag}`,
    });
  }
  await api.post(`/inventory-boxes/${named!.id}/seal`, {});
  const zone = await api.post<{ id: number }>('/locations', { kind: 'zone', segment: `Z${tag}` });
  const bin = await api.post<{ id: number }>('/locations', {
    kind: 'bin',
    parent_id: zone.id,
    segment: '01',
  });
  await api.post('/locations/activation', { ids: [zone.id, bin.id], active: true });
  await api.post('/putaway', { box_code: named!.code, location_code: `Z${tag}-01` });
  return { boxCode: named!.code };
}

/**
 * A product of the catalogue's main model with one variant of `grade` (SKU prefix `skuPrefix`),
 * listed live on a channel with the terms given. Answers the variant's SKU.
 */
export async function listedVariant(
  api: Api,
  catalogue: ReceivingCatalogue,
  {
    skuPrefix,
    grade,
    listing,
  }: { skuPrefix: string; grade: DeviceGrade; listing: Record<string, unknown> },
): Promise<string> {
  const product = await api.post<{ id: number }>('/pts-products', {
    model_id: catalogue.models.main.id,
    sku_prefix: skuPrefix,
    grades: [grade],
  });
  const variants = await api.get<{ items: { sku: string }[] }>(
    `/pts-variants?product_id=${product.id}`,
  );
  const sku = variants.items[0]!.sku;
  const listed = await api.post<{ id: number }>('/pts-listings', {
    sellable_type: 'variant',
    sku,
    ...listing,
  });
  await api.post(`/pts-listings/${listed.id}/publish`, {});
  return sku;
}

/**
 * A product of the catalogue's main model in several grades (SKU prefix `skuPrefix`), each
 * variant listed live with the same terms. Answers each grade's SKU and listing id.
 */
export async function listedGrades(
  api: Api,
  catalogue: ReceivingCatalogue,
  {
    skuPrefix,
    grades,
    listing,
  }: { skuPrefix: string; grades: readonly DeviceGrade[]; listing: Record<string, unknown> },
): Promise<Partial<Record<DeviceGrade, { sku: string; listingId: number }>>> {
  const product = await api.post<{ id: number }>('/pts-products', {
    model_id: catalogue.models.main.id,
    sku_prefix: skuPrefix,
    grades,
  });
  const variants = await api.get<{ items: { sku: string; grade: DeviceGrade }[] }>(
    `/pts-variants?product_id=${product.id}`,
  );
  const listed: Partial<Record<DeviceGrade, { sku: string; listingId: number }>> = {};
  for (const { sku, grade } of variants.items) {
    const made = await api.post<{ id: number }>('/pts-listings', {
      sellable_type: 'variant',
      sku,
      ...listing,
    });
    await api.post(`/pts-listings/${made.id}/publish`, {});
    listed[grade] = { sku, listingId: made.id };
  }
  return listed;
}

/** A client carrier: a vendor of type carrier-client, whose SIMs agents hand out. */
export async function createClientCarrier(
  admin: Api,
  name: string,
): Promise<{ id: number; name: string }> {
  const carrier = await admin.post<{ id: number }>('/vendors', { name, type: 'carrier-client' });
  return { id: carrier.id, name };
}

/**
 * A field agent (user type agent, role Agent) with a SIM cap, who has signed in once and chosen
 * `agent.password`, as a coordinator creates one. Answers the new user's id.
 */
export async function createAgent(
  request: APIRequestContext,
  admin: Api,
  agent: Staff,
  simCap: number,
): Promise<{ id: number }> {
  const roles = await admin.get<{ items: { id: number; name: string }[] }>('/roles?limit=200');
  const role = roles.items.find((candidate) => candidate.name === 'Agent');
  expect(role, 'the Agent role').toBeDefined();
  const created = await admin.post<{ user: { id: number }; temporary_password: string }>('/users', {
    user_name: agent.userName,
    name: agent.name,
    type: 'agent',
    role_ids: [role!.id],
    sim_cap: simCap,
  });
  const first = await apiAs(request, agent.userName, created.temporary_password);
  await first.post('/profile/password', {
    new_password: agent.password,
    new_password_confirm: agent.password,
  });
  return { id: created.user.id };
}

let agentsMade = 0;

/** A new field agent with a name of its own, made by the administrator, ready to sign in. */
export async function newAgent(request: APIRequestContext): Promise<Staff> {
  agentsMade += 1;
  const stamp = `${Date.now() % 1_000_000}.${process.pid}.${agentsMade}`;
  const agent = {
    userName: `agent.${stamp}`,
    name: `Sam Field ${stamp}`,
    password: 'field-agent-2026',
  };
  await createAgent(request, await apiAs(request, 'admin', ADMIN_PASSWORD), agent, 10);
  return agent;
}

/** Changes an agent's SIM cap, as a coordinator does on the user's record. */
export async function setSimCap(
  request: APIRequestContext,
  admin: Api,
  userId: number,
  simCap: number,
): Promise<void> {
  const answer = await request.put(`/api/v1/users/${userId}`, {
    headers: { authorization: `Bearer ${admin.token}` },
    data: { sim_cap: simCap },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
}

/** A valid ICCID of the T-Mobile prefix: 8901260, 11 digits of `serial`, its Luhn digit. */
export function iccidOf(serial: number): string {
  const body = `8901260${String(serial).padStart(11, '0')}`;
  return `${body}${luhnCheckDigit(body)}`;
}

/**
 * A SIM box of the carrier received by range (`qty` ICCIDs from serial `first`) and split into
 * packs of `size`. Answers the box code and its packs with their ICCIDs.
 */
export async function receiveSimPacks(
  api: Api,
  { carrierId, first, qty, size }: { carrierId: number; first: number; qty: number; size: 10 | 50 },
): Promise<{ box: string; packs: { code: string; iccids: string[] }[] }> {
  const box = await api.post<{ id: number; code: string }>('/sim-boxes', {
    client_carrier_id: carrierId,
    qty,
    iccid_first: iccidOf(first),
    iccid_last: iccidOf(first + qty - 1),
  });
  const split = await api.post<{ packs: { code: string }[] }>(`/sim-boxes/${box.id}/split`, {
    size,
  });
  return {
    box: box.code,
    packs: split.packs.map((pack, n) => ({
      code: pack.code,
      iccids: Array.from({ length: size }, (_, k) => iccidOf(first + n * size + k)),
    })),
  };
}

/**
 * SIMs of the carrier on their way to an agent, as the request flow leaves them: the agent asks
 * for them (pickup), a coordinator approves, allocates each ICCID, packs and hands them over.
 * Answers the request's id; the SIMs are `in_transit`.
 */
export async function simsInTransit(
  coordinator: Api,
  agent: Api,
  { carrierId, iccids }: { carrierId: number; iccids: readonly string[] },
): Promise<number> {
  const request = await agent.post<{ id: number }>('/agent/sim-requests', {
    client_carrier_id: carrierId,
    qty: iccids.length,
    delivery: 'pickup',
  });
  await coordinator.post(`/sim-requests/${request.id}/approval`, { qty_approved: iccids.length });
  for (const iccid of iccids) {
    const scan = await coordinator.post<{ result: string }>(`/sim-requests/${request.id}/scans`, {
      code: iccid,
    });
    expect(scan.result).toBe('allocated');
  }
  await coordinator.post(`/sim-requests/${request.id}/pack`, {});
  await coordinator.post(`/sim-requests/${request.id}/shipment`, {});
  return request.id;
}

/**
 * SIMs of the carrier held by an agent, as the request flow leaves them: on their way (see
 * simsInTransit), then received by the agent scanning each ICCID and finishing the receipt.
 * Answers the request's id; the SIMs are `with_agent`.
 */
export async function simsWithAgent(
  coordinator: Api,
  agent: Api,
  sims: { carrierId: number; iccids: readonly string[] },
): Promise<number> {
  const requestId = await simsInTransit(coordinator, agent, sims);
  for (const iccid of sims.iccids) {
    const scan = await agent.post<{ result: string }>(`/agent/sim-shipments/${requestId}/scans`, {
      code: iccid,
    });
    expect(scan.result).toBe('received');
  }
  await agent.post(`/agent/sim-shipments/${requestId}/receipt`, {});
  return requestId;
}

/**
 * SIMs the carrier's activation export shows active, as a coordinator's detection run applies
 * it: the carrier's column mapping is kept, the export uploaded, and the run followed until it is
 * done. The SIMs are `active` and ever detected active from then on.
 */
export async function detectActive(
  request: APIRequestContext,
  coordinator: Api,
  { carrierId, iccids, on }: { carrierId: number; iccids: readonly string[]; on: string },
): Promise<void> {
  const headers = { authorization: `Bearer ${coordinator.token}` };
  const mapping = await request.put(`/api/v1/sim/detection/mappings/${carrierId}`, {
    headers,
    data: { iccid: 'ICCID', state: 'State', activation_date: 'Activated' },
  });
  expect(mapping.ok(), await mapping.text()).toBe(true);
  const csv = ['ICCID,State,Activated', ...iccids.map((iccid) => `${iccid},active,${on}`)];
  const uploaded = await request.post(
    `/api/v1/sim/detection/runs?client_carrier_id=${carrierId}&file_name=activations.csv`,
    { headers: { ...headers, 'content-type': 'text/csv' }, data: Buffer.from(csv.join('\n')) },
  );
  expect(uploaded.ok(), await uploaded.text()).toBe(true);
  const run = ((await uploaded.json()) as { data: { id: number } }).data;
  await expect
    .poll(
      async () =>
        (await coordinator.get<{ status: string }>(`/sim/detection/runs/${run.id}`)).status,
      {
        timeout: 30_000,
      },
    )
    .toBe('done');
}

/**
 * Lifeline orders ready for fulfilment, as a client carrier's enrolments arrive: `devices` grade-A
 * units of the catalogue's main model in stock (graded by `grader`, consolidated, put away), a
 * live carrier listing of them, a new client carrier with ten SIMs from serial `firstSim` in
 * packs, and `orders` orders of one unit each, new Lifeline unless `fulfilmentType` says (OTA).
 * Answers the variant's SKU, the carrier and the orders.
 */
export async function readyLifelineOrders(
  request: APIRequestContext,
  admin: Api,
  options: {
    tag: number;
    grader: Staff;
    skuPrefix: string;
    devices: number;
    orders: number;
    firstSim: number;
    fulfilmentType?: 'new_lifeline' | 'ota';
  },
): Promise<{
  sku: string;
  carrier: { id: number; name: string };
  orders: { id: number; number: string }[];
}> {
  const { tag } = options;
  const catalogue = await seedReceivingCatalogue(admin, tag);
  const imeis = Array.from({ length: options.devices }, (_, n) =>
    imeiOf(catalogue.models.main.tac, n + 1),
  );
  const box = await receiveStagedBox(admin, catalogue, { tag, imeis });
  await locateGradedStock(request, admin, {
    catalogue,
    box,
    worker: options.grader,
    tag,
    grade: 'A',
  });
  const sku = await listedVariant(admin, catalogue, {
    skuPrefix: options.skuPrefix,
    grade: 'A',
    listing: { channel: 'carrier', qty_pushed: options.devices, price_cents: 0 },
  });
  const carrier = await createClientCarrier(admin, `Carrier ${tag}`);
  await receiveSimPacks(admin, {
    carrierId: carrier.id,
    first: options.firstSim,
    qty: 10,
    size: 10,
  });
  const [listing] = await admin.get<{ id: number }[]>(
    `/orders/listing-options?search=${encodeURIComponent(sku)}`,
  );
  const orders: { id: number; number: string }[] = [];
  for (let n = 1; n <= options.orders; n += 1) {
    const order = await lifelineOrder(admin, {
      tag,
      n,
      carrierId: carrier.id,
      listingId: listing!.id,
      fulfilmentType: options.fulfilmentType,
    });
    expect(order.status).toBe('ready');
    orders.push({ id: order.id, number: order.number });
  }
  return { sku, carrier, orders };
}

/**
 * A subscriber's Lifeline order of one unit of a listing, as the client carrier's enrolment
 * arrives: enrolment `ENR-<tag>-<n>`, subscriber `Ana Subscriber<n>` in Houston; new Lifeline
 * unless `fulfilmentType` says (OTA). Answers the order as created (ready, or on hold).
 */
export async function lifelineOrder(
  admin: Api,
  options: {
    tag: number;
    n: number;
    carrierId: number;
    listingId: number;
    fulfilmentType?: 'new_lifeline' | 'ota';
  },
): Promise<{ id: number; number: string; status: string; hold_reason: string | null }> {
  const { tag, n } = options;
  return admin.post('/orders', {
    client_carrier_id: options.carrierId,
    program: 'lifeline',
    fulfilment_type: options.fulfilmentType ?? 'new_lifeline',
    external_id: `ENR-${tag}-${n}`,
    first_name: 'Ana',
    last_name: `Subscriber${n}`,
    service_address: { line1: `${tag}${n} Main St`, city: 'Houston', state: 'TX', zip: '77002' },
    lines: [{ listing_id: options.listingId, qty: 1 }],
  });
}
