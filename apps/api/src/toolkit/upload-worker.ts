import { parentPort, workerData } from 'node:worker_threads';
import { UploadRefusal } from './upload-limits.js';
import { readRows, type ReadRequest } from './upload-rows.js';

/**
 * The worker thread that reads one uploaded file for `readUpload` (files.ts), off the event loop.
 * It answers the file's rows or the refusal's message; any other error is a fault of the server,
 * thrown out of the worker to its `error` event.
 */

/** The reading worker's one message. */
export type ReaderAnswer = { rows: string[][] } | { refusal: string };

const answer = (message: ReaderAnswer) => parentPort!.postMessage(message);

try {
  answer({ rows: await readRows(workerData as ReadRequest) });
} catch (error) {
  if (!(error instanceof UploadRefusal)) throw error;
  answer({ refusal: error.message });
}
