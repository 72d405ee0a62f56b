import { defineAttachments, type Attachment } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient } from '../test/api-client.js';
import {
  bearer,
  bodyOf,
  createRole,
  createTestApp,
  createUser,
  login,
  type TestApp,
} from '../test/test-app.js';
import { registerAttachments, type AttachmentStore } from './attachments.js';

/**
 * Attachments of records scoped to the person asking. No record kind of the app with files
 * belongs to an agent yet, so this test registers one of its own on a table it makes: an agent
 * reaches the files of their own claims only, staff those of every claim.
 */

const agentClaimAttachments = defineAttachments({
  kind: 'agent_claim',
  path: '/agent-claims',
  singular: 'agent claim',
  tag: 'Agent claims',
  view: { permission: 'color.view-list' },
  manage: { permission: 'color.manage' },
});

const agentClaimAttachmentStore: AttachmentStore = {
  contract: agentClaimAttachments,
  table: 'agent_claims',
  scope: (asker) => (asker.type === 'agent' ? ['agent_id = ?', asker.userId] : null),
};

let t: TestApp;
let staff: ApiClient;
let staffToken: string;
let first: ApiClient;
let firstToken: string;
let claimOfFirst: number;
let claimOfSecond: number;
let fileOfSecond: Attachment;

const filesOf = (claimId: number) => `/agent-claims/${claimId}/attachments`;

const pdf = (text: string) => Buffer.from(`%PDF-1.4\n1 0 obj << /Title (${text}) >> endobj\n`);

const upload = (token: string, claimId: number, fileName: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1${filesOf(claimId)}?fileName=${encodeURIComponent(fileName)}`,
    headers: { ...bearer(token), 'content-type': 'application/octet-stream' },
    payload: pdf(fileName),
  });

const signIn = async (userName: string, type: 'staff' | 'agent') => {
  const password = `${userName}-password-1`;
  await createUser(t.db, { userName, password, type, roles: ['Claim handlers'] });
  const path = type === 'agent' ? '/api/v1/agent/login' : '/api/v1/login';
  return login(t.app, userName, password, path);
};

beforeAll(async () => {
  t = await createTestApp({
    modules: [
      {
        name: 'agent-claims',
        register: (context) => registerAttachments(context, agentClaimAttachmentStore),
      },
    ],
  });
  await t.db.exec(`
    CREATE TABLE agent_claims (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      agent_id bigint NOT NULL REFERENCES users (id));
    CREATE TRIGGER agent_claims_attachments AFTER DELETE ON agent_claims
      FOR EACH ROW EXECUTE FUNCTION attachments_follow_record('agent_claim');`);
  await createRole(t.db, 'Claim handlers', ['color.view-list', 'color.manage']);
  staffToken = await signIn('lead', 'staff');
  staff = apiClient(t, staffToken);
  firstToken = await signIn('agent1', 'agent');
  first = apiClient(t, firstToken);
  const secondToken = await signIn('agent2', 'agent');
  const claims = await t.db.query<{ id: number; user_name: string }>(
    `INSERT INTO agent_claims (agent_id)
     SELECT id FROM users WHERE user_name IN ('agent1', 'agent2') ORDER BY user_name
     RETURNING id, (SELECT user_name FROM users WHERE users.id = agent_id)`,
  );
  claimOfFirst = claims.find((claim) => claim.user_name === 'agent1')!.id;
  claimOfSecond = claims.find((claim) => claim.user_name === 'agent2')!.id;
  const sent = await upload(secondToken, claimOfSecond, 'proof.pdf');
  expect(sent.statusCode, sent.body).toBe(201);
  fileOfSecond = bodyOf<Attachment>(sent).data;
});
afterAll(() => t?.close());

describe('attachments of a scoped record kind', () => {
  it('let an agent attach, list, download and remove the files of their own claim', async () => {
    const sent = await upload(firstToken, claimOfFirst, 'receipt.pdf');
    expect(sent.statusCode, sent.body).toBe(201);
    const attached = bodyOf<Attachment>(sent).data;
    expect(bodyOf<Attachment[]>(await first.get(filesOf(claimOfFirst))).data).toEqual([attached]);
    const file = await first.download(`${filesOf(claimOfFirst)}/${attached.id}/download`, {});
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(pdf('receipt.pdf'))).toBe(true);
    expect((await first.delete(`${filesOf(claimOfFirst)}/${attached.id}`)).statusCode).toBe(200);
    expect(bodyOf<Attachment[]>(await first.get(filesOf(claimOfFirst))).data).toEqual([]);
  });

  it("answer 404 to an agent for another agent's claim, as for one that does not exist", async () => {
    const listed = await first.get(filesOf(claimOfSecond));
    expect(listed.statusCode).toBe(404);
    expect(bodyOf(listed).message).toBe(`There is no agent claim with id ${claimOfSecond}.`);
    expect((await upload(firstToken, claimOfSecond, 'sneaky.pdf')).statusCode).toBe(404);
    const file = `${filesOf(claimOfSecond)}/${fileOfSecond.id}`;
    expect((await first.post(`${file}/download`)).statusCode).toBe(404);
    expect((await first.delete(file)).statusCode).toBe(404);
    // Nothing was added nor removed: the other agent's claim holds its one file.
    expect(bodyOf<Attachment[]>(await staff.get(filesOf(claimOfSecond))).data).toEqual([
      fileOfSecond,
    ]);
  });

  it('let staff, whose scope is every claim, reach the files of any claim', async () => {
    const file = await staff.download(`${filesOf(claimOfSecond)}/${fileOfSecond.id}/download`, {});
    expect(file.statusCode).toBe(200);
    const sent = await upload(staffToken, claimOfFirst, 'reviewed.pdf');
    expect(sent.statusCode, sent.body).toBe(201);
  });
});
