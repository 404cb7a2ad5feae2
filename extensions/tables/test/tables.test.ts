import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import tables from '../src/server/index.ts';
import { TablesService, type Tables } from '../src/shared/index.ts';
import { normalizeDate, toColumn } from '../src/server/values.ts';

// The tables extension alone: the service other extensions use keeps end users' rows apart.
let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(tables, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [{ id: 'identity' }, { id: 'spaces' }],
    users: { ann: { userId: 'ann' } },
    spaces: { s1: { ann: 'member' } },
  });
});
afterAll(() => t.close());

describe('tables alone', () => {
  it("gives each end user their own rows of a per-user table through the service, and everyone's of a shared one", async () => {
    const svc = t.server.host.container.get<Tables>(TablesService.symbol);
    const mine = (
      await t.call(
        'POST',
        '/api/memory/database/add',
        { space_id: 's1', table_name: 'notes', field_list: [{ name: 'text', type: 1 }], rw_mode: 1 },
        'ann',
      )
    ).database_info;
    const shared = (
      await t.call(
        'POST',
        '/api/memory/database/add',
        { space_id: 's1', table_name: 'board', field_list: [{ name: 'text', type: 1 }], rw_mode: 3 },
        'ann',
      )
    ).database_info;
    for (const id of [mine.id, shared.id]) {
      await svc.insert({ tableId: id, tableType: 2, uuid: 'u1', connectorId: '1024' }, [{ text: 'from u1' }]);
      await svc.insert({ tableId: id, tableType: 2, uuid: 'u2', connectorId: '1024' }, [{ text: 'from u2' }]);
    }
    expect((await svc.select({ tableId: mine.id, tableType: 2, uuid: 'u1' })).rows.map((r) => r.text)).toEqual([
      'from u1',
    ]);
    expect((await svc.select({ tableId: shared.id, tableType: 2, uuid: 'u1' })).rows.map((r) => r.text).sort()).toEqual(
      ['from u1', 'from u2'],
    );
    expect((await svc.select({ tableId: mine.id, tableType: 1, uuid: 'u1' })).total).toBe(0);
    expect((await svc.list('s1')).map((x) => x.table_name)).toEqual(['board', 'notes']);
  });

  it('converts values by field type', () => {
    expect(normalizeDate('2026-11-23T09:30:00Z')).toBe('2026-11-23 09:30:00');
    expect(normalizeDate('2026-11-23 09:30')).toBe('2026-11-23 09:30:00');
    expect(normalizeDate('soon')).toBeUndefined();
    expect(toColumn(5, 'TRUE', 'b')).toBe(1);
    expect(() => toColumn(2, '1.5', 'n')).toThrow('n takes a whole number, not "1.5".');
    expect(toColumn(1, { a: 1 }, 't')).toBe('{"a":1}');
  });
});
