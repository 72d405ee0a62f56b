import { mergeTagEndpoint, tagResource } from '@inventory/contract';
import { ConflictError, fieldError } from '../../http/errors.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { findItem, type ResourceStore } from '../../toolkit/resource.js';
import type { ModuleContext } from '../module.js';
import { stampColumns } from './stamps.js';

export const tagStore: ResourceStore<typeof tagResource> = {
  contract: tagResource,
  reads: ['tag_assignments', 'tags'],
  table: 'tags',
  entity: 'tag',
  list: {
    from: 'tags t',
    id: 't.id',
    columns: `t.id, t.name, t.color, t.scope,
      (SELECT count(*)::int FROM tag_assignments a WHERE a.tag_id = t.id) AS usage_count,
      ${stampColumns('t')}`,
    sorts: {
      name: { sql: 'lower(t.name)', type: 'text' },
      usage_count: {
        sql: '(SELECT count(*) FROM tag_assignments a WHERE a.tag_id = t.id)',
        type: 'bigint',
      },
      updated_at: { sql: 't.updated_at', type: 'timestamptz' },
    },
    search: (pattern) => ['(t.name ILIKE ? OR t.color ILIKE ?)', pattern, pattern],
    filters: (query) => [
      query.active !== undefined && ['t.active = ?', query.active],
      query.scope !== undefined && ['? = ANY (t.scope)', query.scope],
    ],
  },
  uniques: { tags_name_key: ['name', 'A tag with this name exists.'] },
  references: [
    {
      label: 'products, bundles or combos',
      countSql: 'SELECT count(*) FROM tag_assignments WHERE tag_id = $1',
    },
  ],
  imports: { key: { fields: ['name'], conflict: 'lower(name)', match: 'lower(name)' } },
};

/**
 * Merging a tag moves its assignments to the tag kept and deletes it. An entity that carries both
 * tags keeps one assignment (the primary key is tag, entity type, entity id), and the tag kept
 * takes the merged tag's scope, so that every assignment it now has stays in scope.
 */
export function registerTagMerge({ endpoint, db }: ModuleContext): void {
  endpoint(mergeTagEndpoint, ({ principal, params, body, meta }) =>
    db.transaction(async (tx) => {
      if (params.id === body.into) throw new ConflictError('A tag cannot be merged into itself.');
      // Both rows stay put until the end: no concurrent merge or delete sees them half-moved.
      await tx.query('SELECT 1 FROM tags WHERE id = ANY ($1::bigint[]) ORDER BY id FOR UPDATE', [
        [params.id, body.into],
      ]);
      const from = await findItem(tagStore, tx, params.id);
      const into = await findItem(tagStore, tx, body.into);
      if (!into.active) {
        throw fieldError('into', `The tag "${String(into.name)}" is inactive: activate it first.`);
      }
      await tx.query(
        `INSERT INTO tag_assignments (tag_id, entity_type, entity_id)
         SELECT $2, entity_type, entity_id FROM tag_assignments WHERE tag_id = $1
         ON CONFLICT DO NOTHING`,
        [params.id, body.into],
      );
      await tx.query('DELETE FROM tag_assignments WHERE tag_id = $1', [params.id]);
      await tx.query('DELETE FROM tags WHERE id = $1', [params.id]);
      await tx.query(
        `UPDATE tags SET scope = ARRAY(
           SELECT s FROM unnest(ARRAY['product', 'bundle', 'combo']) WITH ORDINALITY AS o(s, n)
           WHERE s = ANY (scope || $2::text[]) ORDER BY n),
           updated_at = now(), updated_by = $3
         WHERE id = $1`,
        [body.into, from.scope, principal.userId],
      );
      const after = await findItem(tagStore, tx, body.into);
      await recordAudit(tx, {
        ...auditActor(principal, meta),
        action: 'tag.merged',
        entityType: 'tag',
        entityId: body.into,
        before: { merged: from, into },
        after,
      });
      return after;
    }),
  );
}
