import * as z from 'zod/mini';
import { PRODUCT_REQUEST_ACCESS } from '../guards.js';
import { attachmentEndpoints, defineAttachments } from '../attachments.js';
import { defineEndpoint } from '../endpoint.js';
import { defineLifecycle } from '../lifecycle.js';
import { idNumber, idParamsSchema, pickerOptionSchema, pickerQuerySchema } from '../list.js';
import { optionalText } from '../master-data/fields.js';
import { DEVICE_STATUSES, HOLD_REASONS } from '../receiving/device-states.js';
import { DEVICE_CONDITIONS, DEVICE_GRADES, isoDate } from '../receiving/receiving-fields.js';
import { importEndpoints, importUploadQuerySchema, type ImportDefinition } from '../resource.js';
import { SPEC_ROLES, STATION_ACCESS } from '../roles.js';

/**
 * Production (DOMAIN.md 3.1, 3.7 and 4.17): product requests take staged warehouse boxes of a
 * model into production, the leader hands their devices to workers, and a worker tests, wipes and
 * grades each device at the station.
 */

export const PRODUCT_REQUEST_STATUSES = [
  'submitted',
  'approved',
  'in_progress',
  'completed',
  'cancelled',
] as const;
export type ProductRequestStatus = (typeof PRODUCT_REQUEST_STATUSES)[number];

/**
 * A request's states (DOMAIN.md 3.7). It is submitted when created (the proposal of boxes is its
 * draft), approved with its boxes, in progress from the first device handed to a worker.
 */
export const productRequestLifecycle = defineLifecycle({
  name: 'product_request',
  states: PRODUCT_REQUEST_STATUSES,
  terminal: ['completed', 'cancelled'],
  actions: {
    approve: {
      from: ['submitted'],
      to: 'approved',
      label: 'approve',
      event: 'approved',
      permission: PRODUCT_REQUEST_ACCESS,
    },
    start: {
      from: ['approved'],
      to: 'in_progress',
      label: 'start production',
      event: 'started',
      permission: STATION_ACCESS.productTeamLeader,
    },
    complete: {
      from: ['approved', 'in_progress'],
      to: 'completed',
      label: 'complete',
      event: 'completed',
      permission: PRODUCT_REQUEST_ACCESS,
    },
    cancel: {
      from: ['submitted', 'approved', 'in_progress'],
      to: 'cancelled',
      label: 'cancel',
      event: 'cancelled',
      permission: PRODUCT_REQUEST_ACCESS,
      reason: 'optional',
    },
  },
});
export type ProductRequestAction = keyof typeof productRequestLifecycle.actions;

export const PRODUCT_REQUEST_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
/** Grades a request may aim at: F is what failing is, not a target. */
export const TARGET_GRADES = DEVICE_GRADES.filter((grade) => grade !== 'F');

/** What each grade means, shown beside the grade picker at the worker station. */
export const GRADE_DEFINITIONS: Record<(typeof DEVICE_GRADES)[number], string> = {
  New: 'Sealed or unused, no marks at all.',
  'A+': 'Like new: no visible wear, battery 90% or more.',
  A: 'Light wear seen only up close, no scratches on the screen.',
  B: 'Visible wear or light scratches; screen without cracks.',
  C: 'Heavy wear, scratches or dents; every function works.',
  D: 'Cracked back or deep marks; every function works.',
  F: 'A function fails: not for sale as it is.',
};

/** The checklist of a production test (DOMAIN.md 2.2). */
export const TEST_ITEMS = [
  'screen',
  'touch',
  'audio',
  'mic',
  'cameras',
  'buttons',
  'port',
  'wifi',
  'bluetooth',
  'sensors',
] as const;
export type TestItem = (typeof TEST_ITEMS)[number];

/** Why a device fails quality control, the codes repair reads. */
export const QC_ISSUE_CODES = [
  'LCD-CRACK',
  'LCD-DEFECT',
  'TOUCH-FAIL',
  'BATTERY-WEAK',
  'AUDIO-FAIL',
  'MIC-FAIL',
  'CAMERA-FAIL',
  'BUTTON-FAIL',
  'PORT-FAIL',
  'WIFI-FAIL',
  'BT-FAIL',
  'SENSOR-FAIL',
  'HOUSING-DAMAGE',
  'NO-POWER',
] as const;

export const WIPE_METHODS = ['factory_reset', 'nist_800_88', 'vendor_tool'] as const;

const chosen = (what: string) =>
  z.number(`Choose ${what}.`).check(z.int(`Choose ${what}.`), z.gte(1, `Choose ${what}.`));

// --- Product requests ---

export const requestBoxSchema = z.object({
  id: z.int(),
  code: z.string(),
  /** Devices in the box. */
  devices: z.int(),
  staged_at: z.nullable(z.string()),
});
export type RequestBox = z.infer<typeof requestBoxSchema>;

export const productRequestSchema = z.object({
  id: z.int(),
  number: z.string(),
  model_id: z.int(),
  model: z.string(),
  qty: z.int(),
  target_grade: z.nullable(z.string()),
  priority: z.enum(PRODUCT_REQUEST_PRIORITIES),
  due_date: z.nullable(z.string()),
  status: z.enum(PRODUCT_REQUEST_STATUSES),
  note: z.nullable(z.string()),
  created_at: z.string(),
  boxes: z.array(requestBoxSchema),
  /** Devices of its boxes: waiting for a worker, in production, graded, failed or held. */
  progress: z.object({
    waiting: z.int(),
    in_production: z.int(),
    graded: z.int(),
    failed: z.int(),
    held: z.int(),
  }),
});
export type ProductRequest = z.infer<typeof productRequestSchema>;

export const createProductRequestSchema = z.object({
  model_id: chosen('the model'),
  qty: z
    .number('Enter the quantity.')
    .check(
      z.int('The quantity must be a whole number.'),
      z.gte(1, 'The quantity must be at least 1.'),
      z.lte(100_000, 'The quantity must be at most 100000.'),
    ),
  target_grade: z.optional(z.nullable(z.enum(TARGET_GRADES, 'Choose a grade.'))),
  priority: z.optional(z.enum(PRODUCT_REQUEST_PRIORITIES, 'Choose the priority.')),
  due_date: z.optional(z.nullable(isoDate('due date'))),
  note: optionalText('note'),
});
export type CreateProductRequest = z.input<typeof createProductRequestSchema>;

export const productRequestCreatedSchema = z.object({
  request: productRequestSchema,
  /** Staged boxes of the model, oldest first, enough to cover the quantity (or all there are). */
  proposal: z.array(requestBoxSchema),
});

export const approveProductRequestSchema = z.object({
  /** The boxes to take; the current proposal when left out. */
  warehouse_box_ids: z.optional(
    z.array(idNumber).check(z.maxLength(500, 'At most 500 boxes at once.')),
  ),
});

const reasonBody = z.object({
  reason: z.optional(z.string().check(z.maxLength(500, 'The reason is too long.'))),
});

const requestAction = <B extends typeof reasonBody | typeof approveProductRequestSchema>(
  path: string,
  summary: string,
  body: B,
) =>
  defineEndpoint({
    method: 'POST',
    path,
    summary,
    tag: 'Production',
    guard: PRODUCT_REQUEST_ACCESS,
    params: idParamsSchema,
    body,
    response: productRequestSchema,
  });

export const productRequestEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/product-requests',
    summary: 'The open product requests and the 100 last closed, newest first',
    tag: 'Production',
    guard: PRODUCT_REQUEST_ACCESS,
    response: z.array(productRequestSchema),
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/product-requests',
    summary: 'Request units of a model; answers the request and the proposed staged boxes',
    tag: 'Production',
    guard: PRODUCT_REQUEST_ACCESS,
    body: createProductRequestSchema,
    response: productRequestCreatedSchema,
    successStatus: 201,
  }),
  proposal: defineEndpoint({
    method: 'GET',
    path: '/product-requests/:id/proposal',
    summary: 'Staged boxes of the model in no active request, oldest first, covering the quantity',
    tag: 'Production',
    guard: PRODUCT_REQUEST_ACCESS,
    params: idParamsSchema,
    response: z.array(requestBoxSchema),
  }),
  approve: requestAction(
    '/product-requests/:id/approval',
    'Approve a request and link its boxes (409 when a box is in another active request)',
    approveProductRequestSchema,
  ),
  cancel: requestAction(
    '/product-requests/:id/cancellation',
    'Cancel a request; its boxes not started go back to staged',
    reasonBody,
  ),
  complete: requestAction(
    '/product-requests/:id/completion',
    'Complete a request; its boxes leave it',
    reasonBody,
  ),
  modelOptions: defineEndpoint({
    method: 'GET',
    path: '/product-requests/model-options',
    summary: 'Up to 20 models, for a picker',
    tag: 'Production',
    guard: PRODUCT_REQUEST_ACCESS,
    query: pickerQuerySchema,
    response: z.array(pickerOptionSchema),
  }),
};

// --- Leader console ---

export const leaderBoxSchema = z.object({
  id: z.int(),
  code: z.string(),
  request_id: z.int(),
  request_number: z.string(),
  model: z.string(),
  priority: z.enum(PRODUCT_REQUEST_PRIORITIES),
  waiting: z.int(),
  in_production: z.int(),
  done: z.int(),
  /** Devices in production per worker. */
  workers: z.array(z.object({ worker_id: z.int(), name: z.string(), devices: z.int() })),
});
export type LeaderBox = z.infer<typeof leaderBoxSchema>;

export const assignmentSchema = z.object({
  warehouse_box_id: chosen('the box'),
  worker_id: chosen('the worker'),
  /** How many of the box's waiting devices; all of them when left out. */
  qty: z.optional(
    z
      .number('Enter how many devices.')
      .check(
        z.int('Enter a whole number of devices.'),
        z.gte(1, 'Assign at least 1 device.'),
        z.lte(10_000, 'Assign at most 10000 devices at once.'),
      ),
  ),
});

/**
 * Devices in production moved to another worker: those named, or a box's (all of them, or those
 * of one worker). With `from_worker_id` only the devices still with that worker move, so of two
 * leaders moving the same devices at once the second finds them moved (409).
 */
export const reassignmentSchema = z.object({
  device_ids: z.optional(
    z
      .array(idNumber)
      .check(
        z.minLength(1, 'Choose the devices to reassign.'),
        z.maxLength(10_000, 'At most 10000 devices at once.'),
      ),
  ),
  warehouse_box_id: z.optional(idNumber),
  from_worker_id: z.optional(idNumber),
  worker_id: chosen('the worker'),
});
export type ReassignmentInput = z.input<typeof reassignmentSchema>;

/** A device of a box in production, with the worker who has it. */
export const productionBoxDeviceSchema = z.object({
  id: z.int(),
  identifier: z.string(),
  worker_id: z.int(),
  worker: z.string(),
  assigned_at: z.string(),
});
export type ProductionBoxDevice = z.infer<typeof productionBoxDeviceSchema>;

/** A device that failed QC in an open request, with what its last test found. */
export const failureSchema = z.object({
  device_id: z.int(),
  identifier: z.string(),
  model: z.string(),
  box: z.nullable(z.string()),
  request_number: z.string(),
  /** Who has the device in production (who tested it, unless it was reassigned since). */
  worker_id: z.int(),
  worker: z.string(),
  issue_codes: z.array(z.string()),
  battery_health: z.nullable(z.int()),
  cosmetic_notes: z.nullable(z.string()),
  tested_at: z.nullable(z.string()),
});
export type Failure = z.infer<typeof failureSchema>;

/** A graded or failed device sent back to a worker's queue, with why. */
export const regradeSchema = z.object({
  code: z
    .string('Scan or type an IMEI.')
    .check(z.minLength(1, 'Scan or type an IMEI.'), z.maxLength(64, 'This is too long.')),
  /** The worker who gets it; the one who had it when left out. */
  worker_id: z.optional(idNumber),
  reason: z
    .string('Say why you send back for a re-grade.')
    .check(
      z.trim(),
      z.minLength(1, 'Say why you send back for a re-grade.'),
      z.maxLength(500, 'The reason is too long.'),
    ),
});
export type RegradeInput = z.input<typeof regradeSchema>;

export const assignmentResultSchema = z.object({
  devices: z.int(),
  device_ids: z.array(z.int()),
  box: leaderBoxSchema,
});

export const leaderEndpoints = {
  boxes: defineEndpoint({
    method: 'GET',
    path: '/product-team/boxes',
    summary: 'The boxes of approved requests with their devices waiting, in production and done',
    tag: 'Production',
    guard: STATION_ACCESS.productTeamLeader,
    response: z.array(leaderBoxSchema),
  }),
  workers: defineEndpoint({
    method: 'GET',
    path: '/product-team/workers',
    summary: 'The active users holding the Production Worker role',
    tag: 'Production',
    guard: STATION_ACCESS.productTeamLeader,
    response: z.array(pickerOptionSchema),
  }),
  assign: defineEndpoint({
    method: 'POST',
    path: '/product-team/assignments',
    summary:
      'Hand a box (all its waiting devices, or N of them) to a worker: received → in production',
    tag: 'Production',
    guard: STATION_ACCESS.productTeamLeader,
    body: assignmentSchema,
    response: assignmentResultSchema,
    successStatus: 201,
  }),
  reassign: defineEndpoint({
    method: 'POST',
    path: '/product-team/reassignments',
    summary:
      'Move devices in production to another worker: those named, or a box’s (of one worker); 409 when they moved meanwhile',
    tag: 'Production',
    guard: STATION_ACCESS.productTeamLeader,
    body: reassignmentSchema,
    response: z.object({ devices: z.int() }),
  }),
  boxDevices: defineEndpoint({
    method: 'GET',
    path: '/product-team/boxes/:id/devices',
    summary: 'The devices of a box in production, with the worker who has each',
    tag: 'Production',
    guard: STATION_ACCESS.productTeamLeader,
    params: idParamsSchema,
    response: z.array(productionBoxDeviceSchema),
  }),
  failures: defineEndpoint({
    method: 'GET',
    path: '/product-team/failures',
    summary:
      'Devices failed QC in open requests with their issue codes, newest test first (at most 500)',
    tag: 'Production',
    guard: STATION_ACCESS.productTeamLeader,
    response: z.array(failureSchema),
  }),
  regrade: defineEndpoint({
    method: 'POST',
    path: '/product-team/regrades',
    summary:
      'Send a graded or failed device back to a worker’s queue for a re-grade, with a reason (device lifecycle `regrade`)',
    tag: 'Production',
    guard: STATION_ACCESS.productTeamLeader,
    body: regradeSchema,
    response: z.object({ identifier: z.string(), worker: z.string(), message: z.string() }),
  }),
};

// --- Worker station ---

export const workerDeviceSchema = z.object({
  id: z.int(),
  identifier: z.string(),
  status: z.enum(DEVICE_STATUSES),
  hold_reason: z.nullable(z.enum(HOLD_REASONS)),
  model: z.string(),
  /** What the TAC says, null when the TAC is unknown. */
  tac_model: z.nullable(z.string()),
  tac_capacity_gb: z.nullable(z.int()),
  /** What the vendor claimed on the manifest, null without one. */
  claimed: z.nullable(
    z.object({
      model: z.nullable(z.string()),
      color: z.nullable(z.string()),
      capacity_gb: z.nullable(z.int()),
      grade: z.nullable(z.string()),
    }),
  ),
  color_id: z.nullable(z.int()),
  capacity_gb: z.nullable(z.int()),
  grade: z.nullable(z.string()),
  blacklist_state: z.enum(['clean', 'blocked', 'unknown']),
  box: z.nullable(z.string()),
  assigned_at: z.nullable(z.string()),
});
export type WorkerDevice = z.infer<typeof workerDeviceSchema>;

/** How the checklist was filled: by hand, or from a diagnostic tool's file. */
export const TEST_TOOLS = ['manual', 'diagnostic_file'] as const;

/**
 * A diagnostic tool’s export (decision 0020, amended): one row per device, its IMEI and one column per
 * test, matched to the checklist by these headers (case, spaces and signs ignored); several
 * columns of one item fail it when any fails. Other columns are ignored.
 */
export const DIAGNOSTIC_HEADERS: Record<TestItem, readonly string[]> = {
  screen: ['Screen', 'Display', 'LCD'],
  touch: ['Touch', 'Touchscreen', 'Digitizer'],
  audio: ['Audio', 'Speaker', 'Earpiece'],
  mic: ['Mic', 'Microphone'],
  cameras: ['Cameras', 'Camera', 'Front camera', 'Rear camera'],
  buttons: ['Buttons', 'Power button', 'Volume buttons'],
  port: ['Port', 'Charging port', 'Charging'],
  wifi: ['WiFi', 'WLAN'],
  bluetooth: ['Bluetooth', 'BT'],
  sensors: ['Sensors', 'Proximity', 'Accelerometer', 'Gyroscope', 'Compass'],
};
export const DIAGNOSTIC_IMEI_HEADERS = ['IMEI', 'IMEI 1', 'MEID'] as const;
export const DIAGNOSTIC_BATTERY_HEADERS = ['Battery health', 'Battery'] as const;
/** Cells that pass or fail a test; an empty cell, "n/a" or "-" is a test not run. */
export const DIAGNOSTIC_PASS_WORDS = ['pass', 'passed', 'ok', 'good', 'yes', 'true', '1'] as const;
export const DIAGNOSTIC_FAIL_WORDS = ['fail', 'failed', 'bad', 'no', 'false', '0'] as const;
export const DIAGNOSTIC_MAX_BYTES = 2 * 1024 * 1024;
export const DIAGNOSTIC_MAX_ROWS = 5_000;

/** Results of a diagnostic file kept for a device until its test is recorded. */
export const diagnosticResultSchema = z.object({
  /** The items the file tested; an item it did not test is left out. */
  items: z.partialRecord(z.enum(TEST_ITEMS), z.enum(['pass', 'fail'])),
  battery_health: z.nullable(z.int()),
  file_name: z.string(),
  imported_at: z.string(),
});
export type DiagnosticResult = z.infer<typeof diagnosticResultSchema>;

export const WORKER_SCAN_RESULTS = [
  'ready',
  'already_graded',
  'already_failed',
  'on_hold',
] as const;
export type WorkerScanResult = (typeof WORKER_SCAN_RESULTS)[number];

export const workerScanSchema = z.object({
  result: z.enum(WORKER_SCAN_RESULTS),
  message: z.string(),
  device: workerDeviceSchema,
  /** Results of a diagnostic file waiting for this device's test, if any. */
  diagnostics: z.nullable(diagnosticResultSchema),
});
export type WorkerScan = z.infer<typeof workerScanSchema>;

export const testResultSchema = z.object({
  device_id: chosen('the device'),
  outcome: z.enum(['pass', 'fail'], 'Say whether the device passed.'),
  /** Every item of the checklist, pass or fail (a record over an enum asks for all of them). */
  items: z.record(z.enum(TEST_ITEMS), z.enum(['pass', 'fail'], 'Say whether each item passed.')),
  wipe_method: z.optional(z.nullable(z.enum(WIPE_METHODS, 'Choose the wipe method.'))),
  wipe_certificate: optionalText('wipe certificate', 100),
  /** FRP (Google) or activation lock (Apple) still on. */
  frp_lock: z.boolean('Say whether FRP or activation lock is on.'),
  activation_lock: z.optional(z.boolean()),
  battery_health: z
    .number('Enter the battery health.')
    .check(
      z.int('The battery health is a whole percentage.'),
      z.gte(0, 'The battery health is at least 0%.'),
      z.lte(100, 'The battery health is at most 100%.'),
    ),
  color_id: z.optional(z.nullable(idNumber)),
  capacity_gb: z.optional(
    z.nullable(
      z.number().check(z.int('Capacity is whole GB.'), z.gte(1, 'Capacity is at least 1 GB.')),
    ),
  ),
  grade: z.optional(z.nullable(z.enum(DEVICE_GRADES, 'Choose the grade.'))),
  issue_codes: z.optional(
    z.array(z.enum(QC_ISSUE_CODES, 'Choose issue codes from the list.')).check(z.maxLength(20)),
  ),
  cosmetic_notes: optionalText('notes'),
  station: z.optional(z.string().check(z.maxLength(60, 'The station name is too long.'))),
  /** `diagnostic_file` when the checklist came from the device's stored diagnostic results. */
  tool: z.optional(z.enum(TEST_TOOLS, 'Say how the checklist was filled.')),
});
export type TestResultInput = z.input<typeof testResultSchema>;

export const TEST_OUTCOMES = ['graded', 'failed_qc', 'held', 'already_graded'] as const;
export const testOutcomeSchema = z.object({
  result: z.enum(TEST_OUTCOMES),
  message: z.string(),
  device: workerDeviceSchema,
  test_id: z.nullable(z.int()),
});
export type TestOutcome = z.infer<typeof testOutcomeSchema>;

/** Grades that need a photo of the device before they are saved: the wear is what they sell. */
export const PHOTO_GRADES = ['C', 'D'] as const satisfies readonly (typeof DEVICE_GRADES)[number][];

/**
 * Photos of a device in production (its wear for grades C and D): attached at the station by
 * the worker who has it, seen by the team's leaders and managers.
 */
export const devicePhotoAttachments = defineAttachments({
  kind: 'device',
  path: '/product-team/devices',
  singular: 'device',
  tag: 'Production',
  view: {
    permission: 'roles',
    roles: [...STATION_ACCESS.productTeamWorker.roles, SPEC_ROLES.productionManager],
  },
  manage: STATION_ACCESS.productTeamWorker,
});
export const devicePhotoEndpoints = attachmentEndpoints(devicePhotoAttachments);

export const diagnosticDeviceSchema = z.extend(diagnosticResultSchema, {
  device_id: z.int(),
  identifier: z.string(),
});
export type DiagnosticDevice = z.infer<typeof diagnosticDeviceSchema>;

export const workerEndpoints = {
  queue: defineEndpoint({
    method: 'GET',
    path: '/product-team/worker/queue',
    summary: "The caller's devices in production, oldest assignment first (at most 500)",
    tag: 'Production',
    guard: STATION_ACCESS.productTeamWorker,
    response: z.array(workerDeviceSchema),
  }),
  scan: defineEndpoint({
    method: 'POST',
    path: '/product-team/worker/scans',
    summary:
      "Scan a device of the caller's queue: what the TAC says against what the vendor claimed",
    tag: 'Production',
    guard: STATION_ACCESS.productTeamWorker,
    body: z.object({
      code: z
        .string('Scan or type an IMEI.')
        .check(z.minLength(1, 'Scan or type an IMEI.'), z.maxLength(64, 'This is too long.')),
    }),
    response: workerScanSchema,
  }),
  result: defineEndpoint({
    method: 'POST',
    path: '/product-team/worker/tests',
    summary:
      'Record a test: pass grades (clean blacklist, FRP off and a wipe needed), fail fails QC, a lock holds',
    tag: 'Production',
    guard: STATION_ACCESS.productTeamWorker,
    body: testResultSchema,
    response: testOutcomeSchema,
    successStatus: 201,
  }),
  diagnostics: defineEndpoint({
    method: 'POST',
    path: '/product-team/worker/diagnostics',
    summary:
      'Upload a diagnostic tool’s CSV or XLSX (IMEI, one pass/fail column per test, battery health): kept per device until its test, all rows or none',
    tag: 'Production',
    guard: STATION_ACCESS.productTeamWorker,
    query: importUploadQuerySchema,
    fileBody: { maxBytes: DIAGNOSTIC_MAX_BYTES },
    response: z.object({ stored: z.int(), devices: z.array(diagnosticDeviceSchema) }),
    successStatus: 201,
  }),
};

// --- Correcting a device (DOMAIN.md 4.17 `/invoice/product-team/update-device`) ---

/** The page's role list, and `device.update` for the correction itself (DOMAIN.md 6.3). */
export const DEVICE_CORRECTION_ACCESS = {
  ...STATION_ACCESS.productTeamUpdateDevice,
  andPermission: 'device.update',
} as const;

/** Units promised or gone to a customer: their attributes are what the order was sold on. */
export const UNCORRECTABLE_STATUSES = [
  'reserved',
  'picked',
  'packed',
  'shipped',
  'delivered',
] as const satisfies readonly (typeof DEVICE_STATUSES)[number][];

export const correctableDeviceSchema = z.object({
  id: z.int(),
  identifier: z.string(),
  status: z.enum(DEVICE_STATUSES),
  model_id: z.int(),
  model: z.string(),
  color_id: z.nullable(z.int()),
  color: z.nullable(z.string()),
  capacity_gb: z.nullable(z.int()),
  grade: z.nullable(z.enum(DEVICE_GRADES)),
  carrier_lock: z.nullable(z.string()),
  condition: z.nullable(z.enum(DEVICE_CONDITIONS)),
});
export type CorrectableDevice = z.infer<typeof correctableDeviceSchema>;

export const deviceCorrectionSchema = z.object({
  device_id: chosen('the device'),
  model_id: z.optional(idNumber),
  color_id: z.optional(z.nullable(idNumber)),
  capacity_gb: z.optional(
    z.nullable(
      z.number().check(z.int('Capacity is whole GB.'), z.gte(1, 'Capacity is at least 1 GB.')),
    ),
  ),
  grade: z.optional(z.nullable(z.enum(DEVICE_GRADES, 'Choose the grade.'))),
  carrier_lock: optionalText('carrier lock', 60),
  condition: z.optional(z.nullable(z.enum(DEVICE_CONDITIONS, 'Choose the condition.'))),
  reason: z
    .string('Say why you correct the device.')
    .check(
      z.trim(),
      z.minLength(1, 'Say why you correct the device.'),
      z.maxLength(500, 'The reason is too long.'),
    ),
});
export type DeviceCorrectionInput = z.input<typeof deviceCorrectionSchema>;

/** The attributes a correction changes, by the words a correction file names them with. */
export const CORRECTION_FIELDS = {
  model: 'model_id',
  colour: 'color_id',
  color: 'color_id',
  capacity: 'capacity_gb',
  capacitygb: 'capacity_gb',
  grade: 'grade',
  carrierlock: 'carrier_lock',
  condition: 'condition',
} as const;
export type CorrectionColumn = (typeof CORRECTION_FIELDS)[keyof typeof CORRECTION_FIELDS];

/** Corrections by file: one row per attribute changed, each with its reason. */
export const deviceCorrectionImport = {
  name: 'device-corrections',
  singular: 'device correction',
  plural: 'Device corrections',
  tag: 'Production',
  manage: DEVICE_CORRECTION_ACCESS,
  importColumns: [
    { key: 'imei', header: 'IMEI', required: true, example: '352836110000008' },
    {
      key: 'field',
      header: 'Field',
      required: true,
      example: 'grade',
      hint: 'model, colour, capacity, grade, carrier lock or condition',
    },
    {
      key: 'value',
      header: 'New value',
      example: 'B',
      hint: 'a model or colour by name; empty clears the field (never the model)',
    },
    { key: 'reason', header: 'Reason', required: true, example: 'Back housing scratched' },
  ],
} as const satisfies ImportDefinition;

export const deviceCorrectionRowSchema = z.object({
  imei: z
    .string('Give the IMEI.')
    .check(
      z.trim(),
      z.minLength(1, 'Give the IMEI.'),
      z.maxLength(64, 'This is too long for an IMEI.'),
    ),
  field: z
    .string('Name the field to correct.')
    .check(z.trim(), z.minLength(1, 'Name the field to correct.')),
  value: z._default(optionalText('new value', 100), null),
  reason: z
    .string('Say why you correct the device.')
    .check(
      z.trim(),
      z.minLength(1, 'Say why you correct the device.'),
      z.maxLength(500, 'The reason is too long.'),
    ),
});

export const deviceCorrectionImportEndpoints = importEndpoints(deviceCorrectionImport);

const correctionPicker = (path: string, what: string) =>
  defineEndpoint({
    method: 'GET',
    path,
    summary: `Up to 20 ${what}, for a picker`,
    tag: 'Production',
    guard: DEVICE_CORRECTION_ACCESS,
    query: pickerQuerySchema,
    response: z.array(pickerOptionSchema),
  });

export const deviceCorrectionEndpoints = {
  lookup: defineEndpoint({
    method: 'POST',
    path: '/device-corrections/lookup',
    summary: 'A device by IMEI with the attributes a correction changes',
    tag: 'Production',
    guard: DEVICE_CORRECTION_ACCESS,
    body: z.object({
      code: z
        .string('Scan or type an IMEI.')
        .check(z.minLength(1, 'Scan or type an IMEI.'), z.maxLength(64, 'This is too long.')),
    }),
    response: correctableDeviceSchema,
  }),
  correct: defineEndpoint({
    method: 'POST',
    path: '/device-corrections',
    summary:
      'Correct a device’s model, colour, capacity, grade, carrier lock or condition, with a reason (409 for a unit sold)',
    tag: 'Production',
    guard: DEVICE_CORRECTION_ACCESS,
    body: deviceCorrectionSchema,
    response: correctableDeviceSchema,
  }),
  modelOptions: correctionPicker('/device-corrections/model-options', 'models'),
  colorOptions: correctionPicker('/device-corrections/color-options', 'colours'),
};

// --- Product team overview ---

export const productionOverviewSchema = z.object({
  requests: z.array(
    z.object({
      id: z.int(),
      number: z.string(),
      model: z.string(),
      priority: z.enum(PRODUCT_REQUEST_PRIORITIES),
      status: z.enum(PRODUCT_REQUEST_STATUSES),
      /** Boxes not started, with devices in production, and with none left to test. */
      boxes_waiting: z.int(),
      boxes_in_production: z.int(),
      boxes_done: z.int(),
    }),
  ),
  /** Tests recorded since midnight (UTC): graded, failed, held. */
  today: z.object({ graded: z.int(), failed: z.int(), held: z.int() }),
  /** Graded devices of open requests by grade. */
  grades: z.array(z.object({ grade: z.string(), devices: z.int() })),
});
export type ProductionOverview = z.infer<typeof productionOverviewSchema>;

export const productionOverviewEndpoint = defineEndpoint({
  method: 'GET',
  path: '/product-team/overview',
  summary:
    'Per open request its boxes waiting, in production and done; today’s graded and failed; grades',
  tag: 'Production',
  guard: STATION_ACCESS.productTeam,
  response: productionOverviewSchema,
});
