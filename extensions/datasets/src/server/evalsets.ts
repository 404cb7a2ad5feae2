// Evaluation sets from a dataset version, and datasets from an evaluation set (the evaluation extension's sets, when
// it is on): the fields become the set's columns (an image or file its address as text) and the reverse.
import { badRequest, parseStoredObject } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { EvaluationSetsService, type EvalColumn } from '@tessera/ext-evaluation/shared';
import { FromEvalSet, ToEvalSet, type Field } from '../shared/api.ts';
import { iso, type DatasetRow, type DatasetStore } from './store.ts';

const toColumn = (f: Field): EvalColumn => ({
  name: f.name,
  type: f.type === 'number' ? 'number' : f.type === 'json' ? 'json' : f.type === 'messages' ? 'messages' : 'string',
  description: f.description,
});
const toField = (c: EvalColumn): Field => ({
  name: c.name,
  type:
    c.type === 'number'
      ? 'number'
      : c.type === 'json' || c.type === 'boolean'
        ? 'json'
        : c.type === 'messages'
          ? 'messages'
          : 'text',
  description: c.description ?? '',
  required: false,
});

export function registerEvalSets(ctx: ServerContext, store: DatasetStore): void {
  const sets = () => {
    const s = ctx.optionalService(EvaluationSetsService);
    if (!s) throw badRequest('Evaluation is off in this studio: there are no evaluation sets.');
    return s;
  };
  ctx.route({
    ...ToEvalSet,
    auth: {
      space: async (r: { params?: { datasetID?: unknown } }) =>
        (await store.get(String(r.params?.datasetID ?? ''))).space_id,
    },
    handler: async ({ params, body, caller }) => {
      const d = await store.get(params.datasetID);
      const v = await store.version(d, body.versionID);
      const rows = await store.db
        .selectFrom('dataset_version_item')
        .select('data')
        .where('version_id', '=', v.id)
        .orderBy('position')
        .execute();
      const fields = store.fields(v);
      const items = rows.map((r) => {
        const data = parseStoredObject(r.data, "an item's data");
        return Object.fromEntries(fields.map((f) => [f.name, data[f.name]]));
      });
      const r = await sets().create({
        spaceId: d.space_id,
        userId: caller!.userId,
        name: body.name,
        description: `From the dataset ${d.name}, version ${v.version}.`,
        columns: fields.map(toColumn),
        items,
      });
      return { setID: r.setId, items: items.length };
    },
  });
  ctx.route({
    ...FromEvalSet,
    auth: { space: { from: 'body', field: 'spaceID' } },
    handler: async ({ body, caller }) => {
      const set = await sets().read(body.spaceID, body.setID, body.version);
      const fields = set.columns.map(toField);
      const at = iso();
      const row: DatasetRow = {
        id: store.newId(),
        space_id: body.spaceID,
        name: body.name,
        description: `From the evaluation set ${set.name}${body.version ? `, version ${body.version}` : ''}.`,
        icon_uri: '',
        fields: JSON.stringify(fields),
        item_count: 0,
        next_position: 0,
        latest_version: 0,
        creator_id: caller!.userId,
        created_at: at,
        updated_at: at,
      };
      await store.db.insertInto('dataset').values(row).execute();
      await store.insert(
        row,
        set.items.map((it) => ({
          data: Object.fromEntries(fields.map((f) => [f.name, it.data[f.name] ?? null])),
          sourceItemID: it.id,
        })),
      );
      return { dataset: store.view(await store.get(row.id)) };
    },
  });
}
