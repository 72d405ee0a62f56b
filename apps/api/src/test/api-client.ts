import type { ImportCheck } from '@inventory/contract';
import { expect } from 'vitest';
import { bearer, bodyOf, createTestApp, createUser, login, type TestApp } from './test-app.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Calls the API (paths below /api/v1) as the user the token belongs to. */
export function apiClient(t: TestApp, token: string) {
  const request = (method: Method, url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: bearer(token),
      ...(payload !== undefined && { payload: payload as object }),
    });

  /** Uploads an import file of a resource, such as 'colors'; answers the raw response. */
  const uploadImport = (
    resource: string,
    fileName: string,
    content: Buffer | string,
    contentType = 'text/csv',
  ) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/${resource}/imports?fileName=${encodeURIComponent(fileName)}`,
      headers: { ...bearer(token), 'content-type': contentType },
      payload: content,
    });

  const checkImport = (resource: string, id: number, payload: object = {}) =>
    request('POST', `/${resource}/imports/${id}/check`, payload);

  const commitImport = (resource: string, id: number) =>
    request('POST', `/${resource}/imports/${id}/commit`);

  return {
    get: (url: string) => request('GET', url),
    post: (url: string, payload?: unknown) => request('POST', url, payload),
    put: (url: string, payload: unknown) => request('PUT', url, payload),
    delete: (url: string) => request('DELETE', url),

    /** Sends a write the API must refuse with a 422, and answers its messages by field. */
    async fieldErrors(method: 'POST' | 'PUT', url: string, payload: unknown) {
      const response = await request(method, url, payload);
      expect(response.statusCode, response.body).toBe(422);
      return bodyOf(response).message as Record<string, string[]>;
    },

    uploadImport,
    checkImport,
    commitImport,

    /** Uploads a CSV and checks it, both of which must succeed; answers the batch id and the check. */
    async uploadAndCheck(resource: string, fileName: string, csv: string) {
      const uploaded = await uploadImport(resource, fileName, csv);
      expect(uploaded.statusCode, uploaded.body).toBe(201);
      const { id } = bodyOf<{ id: number }>(uploaded).data;
      const check = await checkImport(resource, id);
      expect(check.statusCode, check.body).toBe(200);
      return { id, check: bodyOf<ImportCheck>(check).data };
    },

    /** Asks for a download link, then follows it as a browser would: without the bearer token. */
    async download(url: string, payload: unknown) {
      const link = bodyOf<{ url: string }>(await request('POST', url, payload)).data;
      return t.app.inject({ method: 'GET', url: link.url });
    },
  };
}

export type ApiClient = ReturnType<typeof apiClient>;

type Answer = { statusCode: number; body: string; json: () => unknown };

/** An answer that must have `status` (200 unless said): its data. */
export async function dataOf<T = unknown>(
  answer: Promise<Answer> | Answer,
  status = 200,
): Promise<T> {
  const response = await answer;
  expect(response.statusCode, response.body).toBe(status);
  return (response.json() as { data: T }).data;
}

/** An answer that must be refused with `status`: its message, in words. */
export async function refusalOf(answer: Promise<Answer> | Answer, status: number): Promise<string> {
  const response = await answer;
  expect(response.statusCode, response.body).toBe(status);
  return (response.json() as { message: string }).message;
}

/** A test app with a signed-in admin, and an API client acting as that admin. */
export async function createAdminTestApp(
  userName = 'pi',
  password = `${userName}-password-1`,
): Promise<{ t: TestApp; admin: ApiClient }> {
  const t = await createTestApp();
  await createUser(t.db, { userName, password, roles: ['admin'] });
  const token = await login(t.app, userName, password);
  return { t, admin: apiClient(t, token) };
}

/** A user holding these roles, made and signed in: an API client acting as them. */
export async function signedInClient(
  t: TestApp,
  userName: string,
  roles: string[],
): Promise<ApiClient> {
  const password = `${userName}-password-1`;
  await createUser(t.db, { userName, password, roles });
  return apiClient(t, await login(t.app, userName, password));
}
