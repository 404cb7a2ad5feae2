// Annotation by people (/api/ml_flow/v2/annotation_jobs/...): a dataset version's items labelled by the annotators a
// job names, each item by blind_count of them who do not see each other's labels; their agreement (Fleiss' and
// Cohen's kappa), a reviewer's decision where they differ, and the agreed labels written back into the dataset's
// draft as fields.
import { badRequest, conflict, forbidden, notFound, parseStoredObject, parseStoredStrings } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { SpacesService } from '@tessera/ext-spaces/shared';
import { AnnotationsService, TracesService } from '@tessera/ext-observability/shared';
import { sql } from 'kysely';
import {
  AnnotationAgreement,
  CreateAnnotationJob,
  GetAnnotationJob,
  NextAnnotationItem,
  ReviewAnnotation,
  SearchAnnotationJobs,
  SubmitAnnotation,
  TerminateAnnotationJob,
  WriteBackAnnotations,
  type AnnotationJobView,
  type Field,
  type LabelSpec,
} from '../shared/api.ts';
import { iso, secs, type DatasetStore } from './store.ts';

interface JobRow {
  id: string;
  space_id: string;
  dataset_id: string;
  version_id: string;
  name: string;
  labels: string;
  annotators: string;
  blind_count: number;
  status: 'running' | 'done' | 'terminated';
  source_type: 'dataset' | 'traces';
  created_by: string;
  created_at: string;
}
interface LabelRow {
  job_id: string;
  item_id: string;
  annotator_id: string;
  position: number;
  label_values: string;
  created_at: string;
}
interface ReviewRow {
  job_id: string;
  item_id: string;
  label_values: string;
  reviewer_id: string;
  created_at: string;
}
interface AnnotationDb {
  annotation_job: JobRow;
  annotation_label: LabelRow;
  annotation_review: ReviewRow;
  dataset_version_item: { version_id: string; item_id: string; position: number; data: string };
  /** A traces job's items: its root spans as they were when it was made (version_id is the job's id). */
  annotation_trace_item: {
    version_id: string;
    item_id: string;
    position: number;
    data: string;
    trace_id: string;
    span_id: string;
  };
  dataset_version: { id: string; dataset_id: string; item_count: number };
}

/** A span label's value: the marked parts of the item's text, in order, each inside it and of the label's options. */
function checkSpans(l: LabelSpec, raw: string | number, item: Record<string, unknown>): string {
  const field = item[l.field];
  const text = typeof field === 'string' ? field : '';
  let list: unknown;
  try {
    list = JSON.parse(String(raw));
  } catch {
    list = undefined;
  }
  if (!Array.isArray(list))
    throw badRequest(`${l.key} is a JSON list of { start, end, label }.`, { field: `values.${l.key}` });
  const spans = list.map((x: { start?: unknown; end?: unknown; label?: unknown }) => {
    const start = Number(x?.start);
    const end = Number(x?.end);
    const label = String(x?.label ?? '');
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end <= start || end > text.length)
      throw badRequest(
        `${l.key}: a span runs from 0 to ${text.length} (the length of ${l.field}), its end after its start.`,
      );
    if (!l.options.includes(label)) throw badRequest(`${l.key}: a span's label is one of ${l.options.join(', ')}.`);
    return { start, end, label, text: text.slice(start, end) };
  });
  spans.sort((a, b) => a.start - b.start || a.end - b.end);
  return JSON.stringify(spans);
}

/**
 * Values checked against the labels' schema: every label given, a choice of its options, a score in its range, spans
 * inside the item's text (the item is needed for span labels).
 */
export function checkValues(
  labels: LabelSpec[],
  values: Record<string, string | number>,
  item: Record<string, unknown> = {},
): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const l of labels) {
    const v = values[l.key];
    if (v === undefined || v === '') throw badRequest(`Give the label ${l.key}.`, { field: `values.${l.key}` });
    if (l.type === 'span') {
      out[l.key] = checkSpans(l, v, item);
      continue;
    }
    if (l.type === 'choice') {
      if (!l.options.includes(String(v))) throw badRequest(`${l.key} is one of ${l.options.join(', ')}.`);
      out[l.key] = String(v);
    } else if (l.type === 'score') {
      const n = Number(v);
      if (!Number.isFinite(n) || n < l.min || n > l.max)
        throw badRequest(`${l.key} is a score from ${l.min} to ${l.max}.`);
      out[l.key] = n;
    } else out[l.key] = String(v);
  }
  for (const k of Object.keys(values))
    if (!labels.some((l) => l.key === k)) throw badRequest(`The job has no label ${k}.`);
  return out;
}

/** Agreed labels as the dataset keeps them: a span label's JSON text as the list it is. */
function asFields(values: Record<string, string | number>, spanKeys: Set<string>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).map(([k, v]): [string, unknown] => [k, spanKeys.has(k) ? JSON.parse(String(v)) : v]),
  );
}

/** The value most annotators gave (undefined on a tie). */
function majority(values: (string | number)[]): string | number | undefined {
  const counts = new Map<string, { v: string | number; n: number }>();
  for (const v of values) {
    const k = JSON.stringify(v);
    counts.set(k, { v, n: (counts.get(k)?.n ?? 0) + 1 });
  }
  const sorted = [...counts.values()].sort((a, b) => b.n - a.n);
  return sorted.length && (sorted.length === 1 || sorted[0].n > sorted[1].n) ? sorted[0].v : undefined;
}

export function registerAnnotation(ctx: ServerContext, store: DatasetStore): void {
  const db = () => store.db as unknown as import('kysely').Kysely<AnnotationDb>;
  const job = async (id: string) => {
    const j = await db().selectFrom('annotation_job').selectAll().where('id', '=', id).executeTakeFirst();
    if (!j) throw notFound(`There is no annotation job ${id}.`);
    return j;
  };
  const ofJob = {
    space: async (r: { params?: { jobID?: unknown } }) => (await job(String(r.params?.jobID ?? ''))).space_id,
  };
  /** Where a job's items are: a version's items, or the spans a traces job took (both read as `vi`). */
  const itemsOf = (j: JobRow) =>
    (j.source_type === 'traces'
      ? 'annotation_trace_item as vi'
      : 'dataset_version_item as vi') as 'dataset_version_item as vi';
  const annotators = (j: JobRow) => parseStoredStrings(j.annotators, "an annotation job's annotators");
  /** An item's data, where a span label needs its text (nothing is read otherwise). */
  const itemData = async (j: JobRow, itemId: string): Promise<Record<string, unknown>> => {
    if (!labelsOf(j).some((l) => l.type === 'span')) return {};
    const row = await db()
      .selectFrom(itemsOf(j))
      .select('vi.data')
      .where('vi.version_id', '=', j.version_id)
      .where('vi.item_id', '=', itemId)
      .executeTakeFirst();
    return row ? parseStoredObject(row.data, "an item's data") : {};
  };
  const labelsOf = (j: JobRow) => JSON.parse(j.labels) as LabelSpec[];
  /** The job's maker and the space's owner and admins see every label and decide. */
  const mayReview = async (j: JobRow, userId: string) => {
    const role = await ctx.service(SpacesService).roleOf(j.space_id, userId);
    if (j.created_by !== userId && !(role && role <= 2))
      throw forbidden("Only the job's maker or an admin of the space sees every label and decides.");
  };
  const view = async (j: JobRow): Promise<AnnotationJobView> => {
    const v =
      j.source_type === 'traces'
        ? await db()
            .selectFrom('annotation_trace_item')
            .select((eb) => eb.fn.countAll<number>().as('item_count'))
            .where('version_id', '=', j.id)
            .executeTakeFirst()
        : await db()
            .selectFrom('dataset_version')
            .select('item_count')
            .where('id', '=', j.version_id)
            .executeTakeFirst();
    const per = await db()
      .selectFrom('annotation_label')
      .select(['item_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('job_id', '=', j.id)
      .groupBy('item_id')
      .execute();
    return {
      jobID: j.id,
      spaceID: j.space_id,
      sourceType: j.source_type ?? 'dataset',
      datasetID: j.dataset_id,
      versionID: j.version_id,
      name: j.name,
      labels: labelsOf(j),
      annotatorIDs: annotators(j),
      blindCount: Number(j.blind_count),
      status: j.status,
      itemCount: Number(v?.item_count ?? 0),
      doneItems: per.filter((p) => Number(p.n) >= Number(j.blind_count)).length,
      labelCount: per.reduce((s, p) => s + Number(p.n), 0),
      createdBy: j.created_by,
      createdAt: secs(j.created_at),
    };
  };
  /** Items of the version the annotator has not labelled and that still need labels, in order. */
  const open = (j: JobRow, userId: string) =>
    db()
      .selectFrom(itemsOf(j))
      .where('vi.version_id', '=', j.version_id)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('annotation_label as l')
              .select('l.item_id')
              .whereRef('l.item_id', '=', 'vi.item_id')
              .where('l.job_id', '=', j.id)
              .where('l.annotator_id', '=', userId),
          ),
        ),
      )
      .where(
        sql<number>`(select count(*) from annotation_label l2 where l2.job_id = ${j.id} and l2.item_id = vi.item_id)`,
        '<',
        Number(j.blind_count),
      );

  /** The root spans a traces job labels: the ids given, or the space's latest whose name matches. */
  const tracesToLabel = async (
    spaceId: string,
    r: { trace_ids?: string[]; hours: number; name: string; limit: number },
  ) => {
    const traces = ctx.optionalService(TracesService);
    if (!traces) throw badRequest('Traces are not kept in this studio (the observability extension is off).');
    const roots = r.trace_ids?.length
      ? (
          await Promise.all(
            r.trace_ids.map(async (id) => (await traces.spans(spaceId, id)).find((s) => !s.parent_span_id)),
          )
        ).filter((s) => s !== undefined)
      : (await traces.search({ spaceId, from: Date.now() - r.hours * 3_600_000, to: Date.now(), limit: 5000 }))
          .filter((s) => !s.parent_span_id && s.name.toLowerCase().includes(r.name.toLowerCase()))
          .slice(0, r.limit);
    return roots.map((s) => ({
      trace_id: s.trace_id,
      span_id: s.span_id,
      name: s.name,
      input: s.input.slice(0, 20_000),
      output: s.output.slice(0, 20_000),
    }));
  };
  /** A traces job's agreed labels as its root spans' annotations (scores as scores, choices and text as labels). */
  const annotateTraces = async (
    j: JobRow,
    labels: LabelSpec[],
    agreed: Map<string, Record<string, string | number>>,
    prefix: string,
    userId: string,
  ) => {
    const annotations = ctx.optionalService(AnnotationsService);
    if (!annotations) throw badRequest('Traces are not kept in this studio (the observability extension is off).');
    const spans = await db()
      .selectFrom('annotation_trace_item')
      .select(['item_id', 'trace_id', 'span_id'])
      .where('version_id', '=', j.id)
      .execute();
    const list = spans.flatMap((s) =>
      Object.entries(agreed.get(s.item_id) ?? {}).map(([key, v]) => {
        const l = labels.find((x) => `${prefix}${x.key}` === key)!;
        return {
          space_id: j.space_id,
          trace_id: s.trace_id,
          span_id: s.span_id,
          key,
          score: l.type === 'score' ? Number(v) : null,
          label: l.type === 'choice' ? String(v) : '',
          comment: l.type === 'text' || l.type === 'span' ? String(v) : `Agreed in the annotation job ${j.name}`,
          creator_id: userId,
          source: `annotation:${j.id}`,
        };
      }),
    );
    await annotations.add(list);
    return spans.filter((s) => agreed.has(s.item_id)).length;
  };

  ctx.route({
    ...CreateAnnotationJob,
    auth: { space: { from: 'body', field: 'spaceID' } },
    handler: async ({ body, caller }) => {
      const id = store.newId();
      let datasetId = '';
      let versionId = id;
      let spans: { trace_id: string; span_id: string; name: string; input: string; output: string }[] = [];
      if (body.source_type === 'dataset') {
        const d = await store.get(body.datasetID!);
        if (d.space_id !== body.spaceID) throw notFound(`There is no dataset ${body.datasetID} in this space.`);
        await store.version(d, body.versionID!);
        datasetId = d.id;
        versionId = body.versionID!;
      } else {
        spans = await tracesToLabel(body.spaceID, body.source_range);
        if (!spans.length)
          throw badRequest('No trace of this space matches: widen the time or the name.', { field: 'source_range' });
      }
      const keys = body.labels.map((l) => l.key);
      if (new Set(keys).size !== keys.length) throw badRequest('Two labels have the same key.');
      for (const l of body.labels)
        if (l.type === 'choice' && l.options.length < 2) throw badRequest(`${l.key}: give two choices at least.`);
      // A span label marks a text of each item: a text field of the version, or a trace's input or output.
      const texts =
        body.source_type === 'traces'
          ? ['input', 'output']
          : store
              .fields(await store.version(await store.get(body.datasetID!), body.versionID!))
              .filter((f) => f.type === 'text')
              .map((f) => f.name);
      for (const l of body.labels.filter((x) => x.type === 'span')) {
        if (!l.options.length) throw badRequest(`${l.key}: name what a span may be (its labels).`);
        if (!texts.includes(l.field))
          throw badRequest(`${l.key}: mark spans of a text field (${texts.join(', ')}).`, { field: 'labels' });
      }
      const people = [...new Set(body.assign_annotator_ids)];
      for (const u of people)
        if (!(await ctx.service(SpacesService).roleOf(body.spaceID, u)))
          throw badRequest(`The annotator ${u} is not a member of this space.`, { field: 'assign_annotator_ids' });
      if (body.blind_count > people.length)
        throw badRequest(`Each item needs ${body.blind_count} annotators; the job has ${people.length}.`, {
          field: 'blind_count',
        });
      const row: JobRow = {
        id,
        space_id: body.spaceID,
        source_type: body.source_type,
        dataset_id: datasetId,
        version_id: versionId,
        name: body.name,
        labels: JSON.stringify(body.labels),
        annotators: JSON.stringify(people),
        blind_count: body.blind_count,
        status: 'running',
        created_by: caller!.userId,
        created_at: iso(),
      };
      await db().insertInto('annotation_job').values(row).execute();
      for (let i = 0; i < spans.length; i += 200)
        await db()
          .insertInto('annotation_trace_item')
          .values(
            spans.slice(i, i + 200).map((s, k) => ({
              version_id: id,
              position: i + k,
              item_id: store.newId(),
              trace_id: s.trace_id,
              span_id: s.span_id,
              data: JSON.stringify({ span: s.name, input: s.input, output: s.output, trace_id: s.trace_id }),
            })),
          )
          .execute();
      return { job: await view(row) };
    },
  });
  ctx.route({
    ...SearchAnnotationJobs,
    auth: { space: { from: 'body', field: 'spaceID' } },
    handler: async ({ body }) => {
      let q = db().selectFrom('annotation_job').selectAll().where('space_id', '=', body.spaceID);
      if (body.datasetID) q = q.where('dataset_id', '=', body.datasetID);
      if (body.sourceType) q = q.where('source_type', '=', body.sourceType);
      const rows = await q.orderBy('created_at', 'desc').limit(200).execute();
      return { jobs: await Promise.all(rows.map(view)) };
    },
  });
  ctx.route({
    ...GetAnnotationJob,
    auth: ofJob,
    handler: async ({ params }) => ({ job: await view(await job(params.jobID)) }),
  });
  ctx.route({
    ...NextAnnotationItem,
    auth: ofJob,
    handler: async ({ params, caller }) => {
      const j = await job(params.jobID);
      if (!annotators(j).includes(caller!.userId)) throw forbidden('You are not an annotator of this job.');
      const mine = Number(
        (
          await db()
            .selectFrom('annotation_label')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('job_id', '=', j.id)
            .where('annotator_id', '=', caller!.userId)
            .executeTakeFirst()
        )?.n ?? 0,
      );
      if (j.status !== 'running') return { item: null, mine, remaining: 0 };
      const remaining = Number(
        (
          await open(j, caller!.userId)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirst()
        )?.n ?? 0,
      );
      const next = await open(j, caller!.userId)
        .select(['vi.item_id', 'vi.data'])
        .orderBy('vi.position')
        .limit(1)
        .executeTakeFirst();
      return {
        item: next ? { itemID: next.item_id, data: parseStoredObject(next.data, "an item's data") } : null,
        mine,
        remaining,
      };
    },
  });
  ctx.route({
    ...SubmitAnnotation,
    auth: ofJob,
    handler: async ({ params, body, caller }) => {
      const j = await job(params.jobID);
      if (!annotators(j).includes(caller!.userId)) throw forbidden('You are not an annotator of this job.');
      if (j.status !== 'running') throw badRequest('The job is not running any more.');
      const values = checkValues(labelsOf(j), body.values, await itemData(j, body.itemID));
      const it = await open(j, caller!.userId)
        .select(['vi.item_id', 'vi.position'])
        .where('vi.item_id', '=', body.itemID)
        .executeTakeFirst();
      if (!it) throw conflict('This item does not need your label (you labelled it, or it has all its labels).');
      await db()
        .insertInto('annotation_label')
        .values({
          job_id: j.id,
          item_id: body.itemID,
          annotator_id: caller!.userId,
          position: Number(it.position),
          label_values: JSON.stringify(values),
          created_at: iso(),
        })
        .execute();
      const v = await view(j);
      if (v.doneItems >= v.itemCount)
        await db().updateTable('annotation_job').set({ status: 'done' }).where('id', '=', j.id).execute();
      return { labelled: v.doneItems };
    },
  });

  /** Every item's labels (in the version's order) and reviews. */
  const gather = async (j: JobRow) => {
    const labels = await db()
      .selectFrom('annotation_label')
      .selectAll()
      .where('job_id', '=', j.id)
      .orderBy('position')
      .orderBy('annotator_id')
      .execute();
    const reviews = new Map(
      (await db().selectFrom('annotation_review').selectAll().where('job_id', '=', j.id).execute()).map((r) => [
        r.item_id,
        JSON.parse(r.label_values) as Record<string, string | number>,
      ]),
    );
    const byItem = new Map<string, { annotatorID: string; values: Record<string, string | number> }[]>();
    for (const l of labels)
      byItem.set(l.item_id, [
        ...(byItem.get(l.item_id) ?? []),
        { annotatorID: l.annotator_id, values: JSON.parse(l.label_values) as Record<string, string | number> },
      ]);
    return { byItem, reviews };
  };
  ctx.route({
    ...AnnotationAgreement,
    auth: ofJob,
    handler: async ({ params, caller }) => {
      const j = await job(params.jobID);
      await mayReview(j, caller!.userId);
      // Loaded when first asked: nothing at start needs it.
      const { cohensKappa, fleissKappa } = await import('./agreement.ts');
      const { byItem, reviews } = await gather(j);
      const full = [...byItem.entries()].filter(([, ls]) => ls.length >= Number(j.blind_count) && ls.length >= 2);
      const people = annotators(j);
      const labels = labelsOf(j)
        .filter((l) => l.type !== 'text' && l.type !== 'span')
        .map((l) => {
          const counts = full.map(([, ls]) => {
            const c: Record<string, number> = {};
            for (const x of ls) c[String(x.values[l.key])] = (c[String(x.values[l.key])] ?? 0) + 1;
            return c;
          });
          const pairs =
            people.length === 2
              ? full
                  .map(([, ls]) => people.map((p) => ls.find((x) => x.annotatorID === p)?.values[l.key]))
                  .filter((p): p is [string | number, string | number] => p[0] !== undefined && p[1] !== undefined)
                  .map(([a, b]) => [String(a), String(b)] as [string, string])
              : [];
          return {
            key: l.key,
            items: full.length,
            fleiss: fleissKappa(counts),
            cohen: people.length === 2 ? cohensKappa(pairs) : null,
            unanimous: full.length ? counts.filter((c) => Object.keys(c).length === 1).length / full.length : 0,
          };
        });
      const keys = labelsOf(j)
        .filter((l) => l.type !== 'text' && l.type !== 'span')
        .map((l) => l.key);
      const split = full
        .filter(([, ls]) => keys.some((k) => new Set(ls.map((x) => String(x.values[k]))).size > 1))
        .slice(0, 50);
      const data = new Map(
        split.length
          ? (
              await db()
                .selectFrom(itemsOf(j))
                .select(['vi.item_id', 'vi.data'])
                .where('vi.version_id', '=', j.version_id)
                .where(
                  'vi.item_id',
                  'in',
                  split.map(([id]) => id),
                )
                .execute()
            ).map((r) => [r.item_id, parseStoredObject(r.data, "an item's data")])
          : [],
      );
      return {
        labels,
        disagreements: split.map(([itemID, ls]) => ({
          itemID,
          data: data.get(itemID) ?? {},
          labels: ls,
          review: reviews.get(itemID) ?? null,
        })),
      };
    },
  });
  ctx.route({
    ...ReviewAnnotation,
    auth: ofJob,
    handler: async ({ params, body, caller }) => {
      const j = await job(params.jobID);
      await mayReview(j, caller!.userId);
      const values = checkValues(labelsOf(j), body.values, await itemData(j, body.itemID));
      await db()
        .deleteFrom('annotation_review')
        .where('job_id', '=', j.id)
        .where('item_id', '=', body.itemID)
        .execute();
      await db()
        .insertInto('annotation_review')
        .values({
          job_id: j.id,
          item_id: body.itemID,
          label_values: JSON.stringify(values),
          reviewer_id: caller!.userId,
          created_at: iso(),
        })
        .execute();
      return {};
    },
  });
  ctx.route({
    ...WriteBackAnnotations,
    auth: ofJob,
    handler: async ({ params, body, caller }) => {
      const j = await job(params.jobID);
      await mayReview(j, caller!.userId);
      const labels = labelsOf(j);
      const { byItem, reviews } = await gather(j);
      const agreed = new Map<string, Record<string, string | number>>();
      let undecided = 0;
      for (const [itemID, ls] of byItem) {
        const review = reviews.get(itemID);
        const out: Record<string, string | number> = {};
        for (const l of labels) {
          const v = review?.[l.key] ?? majority(ls.map((x) => x.values[l.key]));
          if (v !== undefined) out[`${body.prefix}${l.key}`] = v;
        }
        if (Object.keys(out).length) agreed.set(itemID, out);
        else undecided++;
      }
      if (j.source_type === 'traces') {
        const written = await annotateTraces(j, labels, agreed, body.prefix, caller!.userId);
        return { written, undecided, fields: labels.map((l) => `${body.prefix}${l.key}`) };
      }
      const d = await store.get(j.dataset_id);
      const spanKeys = new Set(labels.filter((l) => l.type === 'span').map((l) => `${body.prefix}${l.key}`));
      const fields = store.fields(d);
      const added: Field[] = labels
        .map((l) => ({
          name: `${body.prefix}${l.key}`,
          type: l.type === 'score' ? ('number' as const) : l.type === 'span' ? ('json' as const) : ('text' as const),
          description: `Labels of the annotation job ${j.name}`,
          required: false,
        }))
        .filter((f) => !fields.some((x) => x.name === f.name));
      const items = agreed.size
        ? await store.db
            .selectFrom('dataset_item')
            .select(['id', 'data'])
            .where('dataset_id', '=', d.id)
            .where('id', 'in', [...agreed.keys()])
            .execute()
        : [];
      await store.db.transaction().execute(async (tx) => {
        if (added.length)
          await tx
            .updateTable('dataset')
            .set({ fields: JSON.stringify([...fields, ...added]), updated_at: iso() })
            .where('id', '=', d.id)
            .execute();
        for (const it of items)
          await tx
            .updateTable('dataset_item')
            .set({
              data: JSON.stringify({ ...(JSON.parse(it.data) as object), ...asFields(agreed.get(it.id)!, spanKeys) }),
              updated_at: iso(),
            })
            .where('id', '=', it.id)
            .execute();
      });
      return { written: items.length, undecided, fields: labels.map((l) => `${body.prefix}${l.key}`) };
    },
  });
  ctx.route({
    ...TerminateAnnotationJob,
    auth: ofJob,
    handler: async ({ params, caller }) => {
      const j = await job(params.jobID);
      await mayReview(j, caller!.userId);
      if (j.status === 'running')
        await db().updateTable('annotation_job').set({ status: 'terminated' }).where('id', '=', j.id).execute();
      return { job: await view(await job(j.id)) };
    },
  });
}
