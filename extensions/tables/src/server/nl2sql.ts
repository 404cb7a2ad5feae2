// NL2SQL: a chat model turns a question into one statement of the checked SQL subset over the given
// tables; the statement is shown and (when asked) run through the same checker as any other.
import { badRequest } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { ModelsService } from '@tessera/ext-models/shared';
import { FieldType } from '../shared/index.ts';
import { fieldsOf, type DatabaseRow } from './store.ts';

const TYPE: Record<number, string> = {
  [FieldType.Text]: 'text',
  [FieldType.Number]: 'integer',
  [FieldType.Date]: "time ('YYYY-MM-DD HH:mm:ss')",
  [FieldType.Float]: 'number',
  [FieldType.Boolean]: 'boolean (1/0)',
};

/** The tables as the model reads them. */
export function describeTables(tables: DatabaseRow[]): string {
  return tables
    .map((t) => {
      const fields = fieldsOf(t).map(
        (f) =>
          `  ${f.name} ${TYPE[f.type] ?? 'text'}${f.must_required ? ' required' : ''}${f.desc ? ` -- ${f.desc}` : ''}`,
      );
      return `TABLE ${t.table_name}${t.table_desc ? ` -- ${t.table_desc}` : ''}\n  id text\n  bstudio_create_time integer (ms)\n${fields.join('\n')}`;
    })
    .join('\n\n');
}

export const SQL_RULES =
  'Answer with exactly one SQL statement and nothing else: SELECT, INSERT, UPDATE or DELETE over one of these tables (no joins, subqueries, comments, WITH, or functions other than COUNT, SUM, AVG, MIN, MAX). UPDATE and DELETE need a WHERE. Quote text with single quotes. Use LIMIT 100 unless the question asks for more.';

/** The statement a model proposes for a question (code fences and a trailing ; removed). */
export async function questionToSql(
  ctx: ServerContext<unknown>,
  spaceId: string,
  modelId: string,
  tables: DatabaseRow[],
  question: string,
  signal?: AbortSignal,
): Promise<string> {
  const models = ctx.optionalService(ModelsService);
  if (!models) throw badRequest('NL2SQL needs the models extension, which is not running.');
  if (!tables.length) throw badRequest('There is no table to ask about.');
  const model = await models.get(spaceId, modelId);
  const { generateText } = await import('ai');
  const r = await generateText({
    model: await model.chat(),
    system: `You write SQL for these tables.\n\n${describeTables(tables)}\n\n${SQL_RULES}`,
    prompt: question,
    temperature: 0,
    abortSignal: signal,
    maxRetries: 1,
  });
  await models
    .recordUsage({
      space_id: spaceId,
      model_id: modelId,
      input_tokens: r.usage?.inputTokens ?? 0,
      output_tokens: r.usage?.outputTokens ?? 0,
      source: 'nl2sql',
    })
    .catch(() => undefined);
  const text = r.text
    .trim()
    .replace(/^```(?:sql)?\s*/i, '')
    .replace(/```\s*$/, '')
    .trim()
    .replace(/;\s*$/, '');
  if (!text) throw badRequest('The model gave no SQL for this question.');
  return text;
}
