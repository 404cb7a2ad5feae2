import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderNodeForm } from '@tessera/ext-workflow/testing';
import enUS from '../src/locales/en-US.json';
import zhCN from '../src/locales/zh-CN.json';
import { DatabaseForm, SqlForm } from '../src/client/forms.tsx';

afterEach(cleanup);

const tables = {
  code: 0,
  msg: '',
  data: {
    database_info_list: [
      {
        id: 't1',
        table_name: 'orders',
        field_list: [
          { name: 'customer', type: 1 },
          { name: 'total', type: 4 },
        ],
      },
    ],
  },
};
const fetch = (async () =>
  new Response(JSON.stringify(tables), {
    headers: { 'content-type': 'application/json' },
  })) as unknown as typeof globalThis.fetch;
const inputs = [{ name: 'who', type: 'string', value: { kind: 'literal', value: '' } }];

describe('database node forms', () => {
  it('picks the table, a condition on a field compared with an input, and an order', async () => {
    const form = await renderNodeForm({
      extension: 'node-database',
      locales: { 'en-US': enUS, 'zh-CN': zhCN },
      Form: DatabaseForm({ conditions: true, order: true }),
      param: { inputs: inputs as never, settings: { database_id: '', conditions: [], order_by: [], limit: 100 } },
      fetch,
    });
    fireEvent.click(screen.getByTestId('db-node-table'));
    fireEvent.click(await screen.findByText('orders'));
    await waitFor(() => expect(form.settings()).toMatchObject({ database_id: 't1', database_name: 'orders' }));
    fireEvent.click(screen.getByText('Add condition'));
    await waitFor(() => expect(form.settings()!.conditions).toEqual([{ field: 'customer', op: 'eq', input: 'who' }]));
  });

  it('edits the SQL node statement, in Chinese', async () => {
    const form = await renderNodeForm({
      extension: 'node-database',
      locales: { 'en-US': enUS, 'zh-CN': zhCN },
      Form: SqlForm,
      param: { settings: { sql: '' } },
      fetch,
      language: 'zh-CN',
    });
    fireEvent.change(screen.getByTestId('db-sql-text'), {
      target: { value: 'SELECT * FROM orders WHERE customer = {{who}}' },
    });
    await waitFor(() => expect(form.settings()).toEqual({ sql: 'SELECT * FROM orders WHERE customer = {{who}}' }));
    expect(await screen.findByText(/数据表：\s*orders/)).toBeTruthy();
  });
});
