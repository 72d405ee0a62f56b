import { connect, type AddressInfo } from 'node:net';
import { IMPORT_MAX_BYTES } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, login, type TestApp } from '../test/test-app.js';

let t: TestApp;
let port: number;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  await createUser(t.db, { userName: 'pi', password: 'pi-password-1', roles: ['admin'] });
  token = await login(t.app, 'pi', 'pi-password-1');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

type Answer = { readonly head: string; readonly body: string } | { readonly error: string };

/**
 * Sends `size` body bytes over a real socket, with Content-Length or chunked, and reads the
 * answer only once all of them are written, as most clients do: a server that closes with the
 * body unread resets the connection before that.
 */
function send(path: string, contentType: string, size: number, chunked: boolean) {
  return new Promise<Answer>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? '' }));
    socket.on('end', () => {
      const [head = '', body = ''] = Buffer.concat(received).toString().split('\r\n\r\n');
      resolve({ head, body });
    });
    socket.write(
      [
        `POST ${path} HTTP/1.1`,
        'host: localhost',
        `authorization: Bearer ${token}`,
        `content-type: ${contentType}`,
        chunked ? 'transfer-encoding: chunked' : `content-length: ${size}`,
        '',
        '',
      ].join('\r\n'),
    );
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const frame = chunked
      ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])
      : chunk;
    let written = 0;
    const write = () => {
      while (written < size) {
        written += chunk.length;
        if (!socket.write(frame)) return void socket.once('drain', write);
      }
      if (chunked) socket.write('0\r\n\r\n');
      socket.on('data', (data: Buffer) => received.push(data));
      socket.resume();
    };
    socket.pause();
    write();
  });
}

const JSON_PATH = '/api/v1/colors';
const UPLOAD_PATH = '/api/v1/colors/imports?fileName=c.csv';

describe('a body over the size limit', () => {
  it.each([
    ['a JSON endpoint', false, JSON_PATH, 'application/json', 1_048_576],
    ['a JSON endpoint', true, JSON_PATH, 'application/json', 1_048_576],
    ['an import upload', false, UPLOAD_PATH, 'text/csv', IMPORT_MAX_BYTES],
    ['an import upload', true, UPLOAD_PATH, 'text/csv', IMPORT_MAX_BYTES],
  ])('sent to %s (chunked: %s) is answered 413, not a reset', async (...test) => {
    const [, chunked, path, type, limit] = test;
    const answer = await send(path, type, limit + 16 * 1_048_576, chunked);
    expect(answer).toMatchObject({ head: expect.stringMatching(/^HTTP\/1\.1 413 /) });
    expect(JSON.parse((answer as { body: string }).body)).toEqual({
      code: 413,
      message: 'Request body is too large',
      requestId: expect.any(String),
    });
  });
});
