import { defineList } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { apiClient, type ApiClient } from '../test/api-client.js';
import {
  bodyOf,
  createRole,
  createTestApp,
  createUser,
  login,
  type TestApp,
} from '../test/test-app.js';
import type { VersionedTable } from './answer-cache.js';
import { registerList, type ListStore } from './resource.js';

/**
 * Lists scoped to the person asking. No table of the app belongs to an agent yet, so this test
 * registers a list of its own on a table it makes: an agent sees their own notes, staff see all.
 * Its answers are kept (the table joins the data versions through `track_data_version`, as a
 * migration's table would), and an answer kept for one scope is never served to another.
 */

const agentNoteList = defineList({
  name: 'agent-notes',
  singular: 'agent note',
  plural: 'Agent notes',
  tag: 'Agent notes',
  view: { permission: 'color.view-list' },
  item: z.object({ id: z.number(), agent_id: z.number(), body: z.string() }),
  filters: {},
  sorts: ['body'],
  defaultSort: 'body',
  exportColumns: [{ key: 'body', header: 'Note', example: 'Called back' }],
});

const agentNoteStore: ListStore<typeof agentNoteList> = {
  contract: agentNoteList,
  // A table of this test only, so not one of the app's versioned tables.
  reads: ['agent_notes' as VersionedTable],
  list: {
    from: 'agent_notes n',
    id: 'n.id',
    columns: 'n.id, n.agent_id, n.body',
    sorts: { body: { sql: 'n.body', type: 'text' } },
  },
  scope: (asker) => (asker.type === 'agent' ? ['n.agent_id = ?', asker.userId] : null),
};

let t: TestApp;
let staff: ApiClient;
let first: ApiClient;
let second: ApiClient;
let noteOfSecond: number;

const signIn = async (userName: string, type: 'staff' | 'agent') => {
  const password = `${userName}-password-1`;
  await createUser(t.db, { userName, password, type, roles: ['Note readers'] });
  const path = type === 'agent' ? '/api/v1/agent/login' : '/api/v1/login';
  return apiClient(t, await login(t.app, userName, password, path));
};

const notesOf = async (client: ApiClient) => {
  const response = await client.get('/agent-notes');
  expect(response.statusCode, response.body).toBe(200);
  return bodyOf<{ items: Array<{ body: string }> }>(response).data.items.map((note) => note.body);
};

const countOf = async (client: ApiClient) =>
  bodyOf<{ total: number }>(await client.get('/agent-notes/count')).data.total;

beforeAll(async () => {
  t = await createTestApp({
    modules: [
      { name: 'agent-notes', register: (context) => registerList(context, agentNoteStore) },
    ],
  });
  await t.db.exec(`
    CREATE TABLE agent_notes (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      agent_id bigint NOT NULL REFERENCES users (id),
      body text NOT NULL);
    SELECT track_data_version('agent_notes');`);
  await createRole(t.db, 'Note readers', ['color.view-list']);
  staff = await signIn('lead', 'staff');
  first = await signIn('agent1', 'agent');
  second = await signIn('agent2', 'agent');
  await t.db.exec(`INSERT INTO agent_notes (agent_id, body)
    SELECT id, CASE user_name WHEN 'agent1' THEN 'first''s note' ELSE 'second''s note' END
    FROM users WHERE user_name IN ('agent1', 'agent2')`);
  const [row] = await t.db.query<{ id: number }>(
    "SELECT id FROM agent_notes WHERE body = 'second''s note'",
  );
  noteOfSecond = row!.id;
});
afterAll(() => t?.close());

describe('a scoped list', () => {
  it('gives askers of different scopes their own answers at the same data versions', async () => {
    expect(await notesOf(first)).toEqual(["first's note"]);
    expect(await notesOf(second)).toEqual(["second's note"]);
    expect(await notesOf(staff)).toEqual(["first's note", "second's note"]);
    expect([await countOf(first), await countOf(second), await countOf(staff)]).toEqual([1, 1, 2]);
  });

  it('keeps each scope its answers until the table is written', async () => {
    // A write that moves no version is not seen by either scope: both answers were kept.
    await t.db.exec(`ALTER TABLE agent_notes DISABLE TRIGGER agent_notes_data_version;
      UPDATE agent_notes SET body = body || ' (edited)';
      ALTER TABLE agent_notes ENABLE TRIGGER agent_notes_data_version;`);
    expect(await notesOf(first)).toEqual(["first's note"]);
    expect(await notesOf(second)).toEqual(["second's note"]);
    await t.db.query("UPDATE agent_notes SET body = body || '!'");
    expect(await notesOf(first)).toEqual(["first's note (edited)!"]);
    expect(await notesOf(second)).toEqual(["second's note (edited)!"]);
  });

  it('does not find a record outside the asker scope (404)', async () => {
    expect((await first.get(`/agent-notes/${noteOfSecond}`)).statusCode).toBe(404);
    expect((await second.get(`/agent-notes/${noteOfSecond}`)).statusCode).toBe(200);
    expect((await staff.get(`/agent-notes/${noteOfSecond}`)).statusCode).toBe(200);
  });

  it('exports only the rows of the asker scope', async () => {
    const file = await first.download('/agent-notes/exports', { format: 'csv' });
    expect(file.statusCode, file.body).toBe(200);
    expect(file.body).toContain('first');
    expect(file.body).not.toContain('second');
  });
});
