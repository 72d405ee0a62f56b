import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openPglite } from './db/pglite.js';

/** Writes the OpenAPI document of every registered endpoint to the path given (docs/api). */
const target = resolve(process.argv[2] ?? 'openapi.json');
const db = await openPglite(null);
const app = await buildApp({ ...loadConfig({ LOG_LEVEL: 'silent' }), webDist: null }, db);
const document = (await app.inject({ url: '/api/v1/openapi.json' })).json<unknown>();
await app.close();
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, `${JSON.stringify(document, null, 2)}\n`);
process.stdout.write(`OpenAPI document written to ${target}\n`);
