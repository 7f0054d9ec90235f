/**
 * Saved views (issue 40, item 1) through the product's /app: made, listed by name, renamed,
 * their filters replaced and deleted; every bad name or filter refused with the field named and
 * nothing stored; a name taken answered 409; a views file exported and imported all or nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savedViewKinds, savedViewLimits, savedViewSection, savedViewsFileFormat } from '../../contracts/console/saved-view-basics.js';
import { savedViewListSchema, savedViewSchema, savedViewsFileSchema } from '../../contracts/saved-views.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { smallInventory } from './support/fixtures.js';

let server: ConsoleTestServer;

beforeAll(async () => {
  server = await startConsoleTestServer([
    { slug: 'acme', inventory: smallInventory(6, 3) },
    { slug: 'other', inventory: smallInventory(3, 1) },
  ]);
});
afterAll(() => server.close());

const views = (slug: string) => `/orgs/${slug}/saved-views`;
const create = (slug: string, body: unknown) => server.app(views(slug), { method: 'POST', body });
const list = async (slug: string) => {
  const { status, body } = await server.app(views(slug));
  expect(status).toBe(200);
  return savedViewListSchema.strict().parse(body).data;
};

describe('saving, listing, renaming and deleting views', () => {
  it('saves a filtered findings view without the table position, and lists it', async () => {
    const made = await create('acme', { name: '  Critical, internet-facing ', view: 'vulnerability-findings', query: '?status=open&criticality=critical&offset=200&row=3' });
    expect(made.status).toBe(201);
    expect(savedViewSchema.strict().parse(made.body)).toMatchObject({ name: 'Critical, internet-facing', view: 'vulnerability-findings', query: 'status=open&criticality=critical' });
    expect(made.body.created_at).toBe(made.body.updated_at);
    expect(await list('acme')).toEqual([made.body]);
    // Another organization's views are its own.
    expect(await list('other')).toEqual([]);
  });

  it("saves a view of every kind, whose route answers its saved query", async () => {
    const queries: Record<(typeof savedViewKinds)[number], string> = {
      dashboard: 'criticality=high',
      endpoints: 'osFamily=linux&sort=hostname',
      'remediation-targets': 'status=active',
      scopes: 'q=scope',
      'vulnerability-findings': 'severity=critical&isKev=true',
      software: 'sort=-risk_score&criticality=high',
      'remediation-plan': 'criticality=critical',
      'remediation-performance': 'criticality=high',
      exceptions: 'state=active&selected=3f0c2a8e-6d1b-4c55-9a0e-2b7f1c9d4e10',
    };
    for (const view of savedViewKinds) {
      const made = await create('other', { name: `Every ${view}`, view, query: queries[view] });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const section = savedViewSection(view) || 'dashboard';
      expect((await server.app(`/orgs/other/${section}?${made.body.query}`)).status, view).toBe(200);
    }
    expect((await list('other')).map((view) => view.view).sort()).toEqual([...savedViewKinds].sort());
  });

  it('refuses a filter its view refuses, naming the field and the parameter, and stores nothing', async () => {
    const before = await list('acme');
    const refusals: [unknown, string, RegExp][] = [
      [{ name: 'A', view: 'vulnerability-findings', query: 'severity=urgent' }, 'query', /"severity"/],
      [{ name: 'A', view: 'dashboard', query: 'status=open' }, 'query', /Unknown query parameter "status"/],
      [{ name: 'A', view: 'endpoints', query: 'osFamily=linux&osFamily=macos' }, 'query', /"osFamily" is given more than once/],
      [{ name: 'A', view: 'software', query: 'q=%E0%A4' }, 'query', /not percent-encoded/],
      [{ name: 'A', view: 'findings', query: '' }, 'view', /must be one of dashboard/],
      [{ name: '', view: 'dashboard', query: '' }, 'name', /must not be empty/],
      [{ name: 'bell\u0007', view: 'dashboard', query: '' }, 'name', /printable/],
      [{ name: 'x'.repeat(savedViewLimits.name + 1), view: 'dashboard', query: '' }, 'name', /at most 100/],
      [{ name: 'A', view: 'dashboard', query: 'tag=a', owner: 'me' }, 'owner', /not a key/],
    ];
    for (const [body, field, message] of refusals) {
      const answer = await create('acme', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.issues[0].field).toBe(field);
      expect(answer.body.issues[0].message).toMatch(message);
    }
    expect(await list('acme')).toEqual(before);
  });

  it('answers a name taken, without case, with 409', async () => {
    const answer = await create('acme', { name: 'CRITICAL, Internet-Facing', view: 'dashboard', query: '' });
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatch(/already named "CRITICAL, Internet-Facing"/);
  });

  it('renames a view and replaces its query, checked against its own view', async () => {
    const [view] = await list('acme');
    const renamed = await server.app(`${views('acme')}/${view!.id}`, { method: 'PATCH', body: { name: 'Critical findings' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: view!.id, name: 'Critical findings', query: view!.query });
    // A findings filter the view takes; a dashboard's filter it does not.
    const refused = await server.app(`${views('acme')}/${view!.id}`, { method: 'PATCH', body: { query: 'bod2604Outcome=soon' } });
    expect(refused.status).toBe(400);
    expect(refused.body.issues).toEqual([{ field: 'query', message: expect.stringMatching(/"bod2604Outcome"/) as string }]);
    const replaced = await server.app(`${views('acme')}/${view!.id}`, { method: 'PATCH', body: { query: 'status=any&isKev=true' } });
    expect(replaced.status).toBe(200);
    expect(replaced.body.query).toBe('status=any&isKev=true');
    expect((await server.app(`${views('acme')}/${view!.id}`, { method: 'PATCH', body: {} })).body.issues[0]).toMatchObject({ field: 'body' });
    await create('acme', { name: 'Dashboard of high', view: 'dashboard', query: 'criticality=high' });
    expect((await server.app(`${views('acme')}/${view!.id}`, { method: 'PATCH', body: { name: 'dashboard OF HIGH' } })).status).toBe(409);
    // An id of another organization's view is not this one's.
    const [theirs] = await list('other');
    expect((await server.app(`${views('acme')}/${theirs!.id}`, { method: 'PATCH', body: { name: 'Mine' } })).status).toBe(404);
  });

  it('deletes a view', async () => {
    const made = await create('acme', { name: 'Short-lived', view: 'scopes', query: '' });
    expect((await server.app(`${views('acme')}/${made.body.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await list('acme')).map((view) => view.name)).not.toContain('Short-lived');
    expect((await server.app(`${views('acme')}/${made.body.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await server.app(`${views('acme')}/not-a-uuid`, { method: 'DELETE' })).status).toBe(400);
  });
});

describe('a views file', () => {
  it('exports one view or all, and imports them into another organization', async () => {
    const all = await server.app(`${views('acme')}/export`);
    expect(all.status).toBe(200);
    expect(all.headers.get('content-disposition')).toBe('attachment; filename="acme-saved-views.json"');
    const file = savedViewsFileSchema.parse(all.body);
    const held = await list('acme');
    expect(file).toMatchObject({ ...savedViewsFileFormat, organization: { slug: 'acme' } });
    expect(file.views).toEqual(held.map(({ name, view, query }) => ({ name, view, query })));

    const one = (await server.app(`${views('acme')}/export?id=${held[0]!.id}`)).body as { views: unknown[] };
    expect(one.views).toEqual([{ name: held[0]!.name, view: held[0]!.view, query: held[0]!.query }]);

    const target = await startConsoleTestServer([{ slug: 'beta', inventory: smallInventory(2, 1) }]);
    try {
      const imported = await target.app('/orgs/beta/saved-views/import', { method: 'POST', body: file });
      expect(imported.status, JSON.stringify(imported.body)).toBe(200);
      expect(imported.body.created).toBe(held.length);
      const listed = (await target.app('/orgs/beta/saved-views')).body.data as { name: string; view: string; query: string; id: string }[];
      expect(listed.map(({ name, view, query }) => ({ name, view, query }))).toEqual(file.views);
      expect(listed.map((view) => view.id)).not.toContain(held[0]!.id);
      // The same file again: every name is taken, nothing is made.
      const again = await target.app('/orgs/beta/saved-views/import', { method: 'POST', body: file });
      expect(again.status).toBe(409);
      expect(again.body.error).toContain(`"${held[0]!.name}"`);
      expect((await target.app('/orgs/beta/saved-views')).body.data).toHaveLength(held.length);
    } finally {
      await target.close();
    }
  });

  it('refuses a file that is not one, or holds a view its view refuses, all or nothing', async () => {
    const before = await list('other');
    const good = { name: 'Imported', view: 'dashboard', query: 'criticality=low' };
    const file = (views: unknown[], extra: object = {}) => ({ ...savedViewsFileFormat, exported_at: '2026-11-01T09:00:00.000Z', organization: { slug: 'x', name: 'X' }, views, ...extra });
    const refusals: [unknown, string][] = [
      [file([good], { format: 'remediation-console-exceptions' }), 'format'],
      [file([good], { version: 2 }), 'version'],
      [file([good, { ...good, query: 'criticality=extreme' }]), 'views.1.query'],
      [file([good, { ...good, name: 'IMPORTED' }]), 'views.1.name'],
      [file(Array.from({ length: savedViewLimits.perFile + 1 }, (_, index) => ({ ...good, name: `View ${index}` }))), 'views'],
    ];
    for (const [body, field] of refusals) {
      const answer = await server.app(`${views('other')}/import`, { method: 'POST', body });
      expect(answer.status, field).toBe(400);
      expect(answer.body.issues.map((issue: { field: string }) => issue.field)).toContain(field);
    }
    expect((await server.app(`${views('other')}/import`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: 'not json' })).status).toBe(400);
    expect(await list('other')).toEqual(before);
  });
});
