import { Readable } from 'node:stream';
import { API_BASE, trackingEndpoints } from '@inventory/contract';
import type { FastifyInstance, FastifyRequest, preParsingAsyncHookHandler } from 'fastify';
import * as z from 'zod/mini';
import type { CarrierConfig } from '../../config.js';
import { ApiError, UnauthorizedError, ValidationError } from '../../http/errors.js';
import { fieldErrorsOf } from '../../http/endpoint.js';
import { registerImports } from '../../toolkit/imports.js';
import { defineJob, registerJobs } from '../../toolkit/jobs.js';
import { registerList } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import { easyPostTrackerSchema, signedEasyPostEvent } from './easypost-carrier.js';
import { trackingImportStore } from './tracking-import.js';
import {
  flagLost,
  pollTracking,
  recordEasyPostTracker,
  refreshTracking,
} from './tracking.service.js';
import { parcelShipmentListStore, parcelTracking } from './tracking.store.js';

/**
 * The carrier is asked every 30 minutes, once across all app servers, about the parcels on their
 * way that nobody asked about for an hour (DOMAIN.md 4.16: tracking by polling).
 */
export const trackingPollJob = (carrier: CarrierConfig) =>
  defineJob({
    name: 'shipment.track',
    schema: z.object({}),
    retry: { limit: 0, delaySeconds: 0, backoff: false },
    // A run that takes past the next one's turn has stalled: let the next one ask.
    expireInSeconds: 1_800,
    every: '*/30 * * * *',
    handler: (_data, { db }) => pollTracking(db, carrier),
  });

/** An EasyPost Event is a few kilobytes; a tracker with a long journey stays well under this. */
const WEBHOOK_MAX_BYTES = 1_048_576;

export const EASYPOST_SIGNATURE_REFUSED =
  "The X-Hmac-Signature is missing or is not this body's under the EasyPost webhook secret.";

/**
 * EasyPost signs each webhook's body (`X-Hmac-Signature`, HMAC-SHA256 under the webhook's
 * secret), so the route keeps the body as it came, before it is parsed, for the handler to check
 * with EasyPost's own check. Answers the body a request to the route came with.
 */
function keepRawBodies(app: FastifyInstance, url: string): (request: FastifyRequest) => Buffer {
  const bodies = new WeakMap<FastifyRequest, Buffer>();
  const keep: preParsingAsyncHookHandler = async (request, _reply, payload) => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of payload) {
      size += (chunk as Buffer).length;
      if (size > WEBHOOK_MAX_BYTES) throw new ApiError(413, 'The webhook body is too large.');
      chunks.push(chunk as Buffer);
    }
    const body = Buffer.concat(chunks);
    bodies.set(request, body);
    return Readable.from([body]);
  };
  app.addHook('onRoute', (route) => {
    if (route.url !== url) return;
    const own = route.preParsing ?? [];
    route.preParsing = [keep, ...(Array.isArray(own) ? own : [own])];
  });
  return (request) => bodies.get(request) ?? Buffer.alloc(0);
}

/**
 * Parcel shipments (DOMAIN.md 4.16 /shipment-management/shipment): the list of parcels that left
 * the dock with their tracking, a parcel's events, the tracking file's import, a refresh from the
 * carrier, flagging a parcel lost, the polling job and EasyPost's tracking webhook.
 */
export const trackingModule: AppModule = {
  name: 'tracking',
  register(context) {
    const { app, endpoint, db, config } = context;
    registerList(context, parcelShipmentListStore);
    registerImports(context, trackingImportStore);
    endpoint(trackingEndpoints.tracking, ({ params }) => parcelTracking(db, params.id));
    endpoint(trackingEndpoints.refresh, ({ principal, meta, body }) =>
      refreshTracking(db, { actor: principal, meta }, body.package_ids, config.carrier),
    );
    endpoint(trackingEndpoints.flagLost, ({ principal, meta, params, body }) =>
      db.transaction((tx) => flagLost(tx, { actor: principal, meta }, params.id, body.reason)),
    );
    const webhook = trackingEndpoints.easyPostWebhook;
    const rawBodyOf = keepRawBodies(app, `${API_BASE}${webhook.path}`);
    const secret = config.easypostWebhookSecret;
    endpoint(webhook, ({ request, meta, body }) => {
      // No secret set: no webhook is taken.
      if (!secret || signedEasyPostEvent(rawBodyOf(request), request.headers, secret) === null) {
        throw new UnauthorizedError(EASYPOST_SIGNATURE_REFUSED);
      }
      if (!body.description.startsWith('tracker.')) {
        return Promise.resolve({ asked: 0, recorded: 0, moved: 0 });
      }
      const tracker = z.safeParse(easyPostTrackerSchema, body.result);
      if (!tracker.success) {
        const fields = fieldErrorsOf(tracker.error);
        throw new ValidationError(
          Object.fromEntries(
            Object.entries(fields).map(([key, value]) => [`result.${key}`, value]),
          ),
        );
      }
      return recordEasyPostTracker(db, meta, tracker.data);
    });
    registerJobs(context, [trackingPollJob(config.carrier)]);
  },
};
