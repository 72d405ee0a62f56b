import type { IncomingMessage } from 'node:http';
import { IMPORT_MAX_BYTES } from '@inventory/contract';
import type { FastifyInstance } from 'fastify';

/** The most of a refused body read and dropped: past it the connection is cut after all. */
const DRAIN_BYTES = 2 * IMPORT_MAX_BYTES;
/** The longest an answer waits for the rest of its refused body. */
const DRAIN_MS = 30_000;

/** Reads the rest of a request body and drops it; resolves at its end or at either bound. */
function drain(request: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    let left = DRAIN_BYTES;
    const done = () => {
      clearTimeout(timer);
      request.off('data', onData).off('end', done).off('close', done).off('error', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      left -= chunk.length;
      if (left < 0) done();
    };
    const timer = setTimeout(done, DRAIN_MS);
    request.on('data', onData).on('end', done).on('close', done).on('error', done);
    request.resume();
  });
}

/**
 * An answer given before its request body was read (413 for a body over the limit, a 401 to an
 * upload) waits until the rest of the body has arrived, within bounds. Fastify answers a body
 * over the limit at once with `Connection: close`; Node then closes the socket with the client's
 * bytes still unread, which makes the kernel reset the connection, so a client that sends its
 * whole body before reading the answer (most do) got ECONNRESET or EPIPE instead of the 413.
 */
export function registerUnreadBodyDrain(app: FastifyInstance): void {
  app.addHook('onSend', async (request) => {
    const raw = request.raw;
    // readableEnded as well: injected requests (tests) never set `complete`.
    const unread = !raw.complete && !raw.readableEnded;
    if (unread && !(Number(raw.headers['content-length']) > DRAIN_BYTES)) await drain(raw);
  });
}
