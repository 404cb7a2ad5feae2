// The playground: a prompt (its draft or a version) filled with variable values and sent to a model, the answer
// streamed; the model and its settings may be overridden (to compare two side by side). Each run is kept in
// the debug history.
import { badRequest, parseStoredJson, describeError } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { ModelsService } from '@tessera/ext-models/shared';
import { z } from 'zod';
import { DebugHistoryItem, DebugRun, ListDebugHistory } from '../shared/api.ts';
import { RenderError, render } from './render.ts';
import { detailOf, now, secs, type PromptStore } from './store.ts';

export function registerDebug(ctx: ServerContext<unknown>, store: PromptStore) {
  const base = '/api/prompt/v1/prompts';
  const ofPrompt = {
    space: async (r: { params: Record<string, unknown> }) =>
      (await store.get(String(r.params?.prompt_id ?? ''))).space_id,
  };

  ctx.route({
    method: 'POST',
    path: `${base}/:prompt_id/debug_streaming`,
    auth: ofPrompt,
    stream: true,
    rateLimit: { max: 60, windowMs: 60_000, key: 'caller' },
    summary:
      "Try the prompt on a model: events message (the answer's text as it comes), done (tokens, latency, the run's id) or error",
    params: z.object({ prompt_id: z.string().min(1).max(32) }),
    body: DebugRun,
    handler: async ({ params, body, caller, signal }, reply) => {
      const p = await store.get(params.prompt_id);
      // The detail being edited may be sent as it is on screen (not yet saved); else the draft or the version.
      let detail = body.detail;
      if (!detail) {
        if (body.version === 'draft') detail = detailOf(p.draft);
        else {
          const c = await store.commit(p.id, body.version);
          if (!c) throw badRequest(`The prompt has no version ${body.version}.`, { field: 'version' });
          detail = detailOf(c.detail);
        }
      }
      const config = { ...detail.model_config, ...body.model_config };
      if (!config.model_id) throw badRequest('Choose a model to try the prompt on.', { field: 'model_config' });
      let rendered;
      try {
        rendered = await render(detail, body.variable_vals);
      } catch (e) {
        if (e instanceof RenderError) throw badRequest(e.message, { field: 'variable_vals' });
        throw e;
      }
      if (!rendered.messages.some((m) => m.role !== 'system')) rendered.messages.push({ role: 'user', content: '' });
      const model = await ctx.service(ModelsService).get(p.space_id, config.model_id);
      const sse = reply.sse();
      const started = performance.now();
      const id = ctx.host.newId();
      let text = '';
      let status = 'success';
      let error = '';
      let usage = { input_tokens: 0, output_tokens: 0 };
      try {
        const { streamText } = await import('ai');
        const system =
          rendered.messages
            .filter((m) => m.role === 'system')
            .map((m) => m.content)
            .join('\n\n') || undefined;
        let failure: unknown;
        const result = streamText({
          model: await model.chat(),
          system,
          messages: rendered.messages.filter((m) => m.role !== 'system'),
          temperature: config.temperature,
          topP: config.top_p,
          maxOutputTokens: config.max_tokens,
          abortSignal: signal,
          maxRetries: 0,
          onError: ({ error: e }) => void (failure ??= e),
        });
        for await (const part of result.fullStream) {
          if (part.type === 'text-delta') {
            text += part.text;
            sse.send('message', { content: part.text });
          } else if (part.type === 'error') failure ??= part.error;
        }
        if (failure) throw failure;
        const u = await result.totalUsage;
        usage = { input_tokens: u.inputTokens ?? 0, output_tokens: u.outputTokens ?? 0 };
        await ctx
          .service(ModelsService)
          .recordUsage({ space_id: p.space_id, model_id: model.model_id, ...usage, source: 'prompt' })
          .catch(() => undefined);
      } catch (e) {
        status = signal.aborted ? 'cancelled' : 'failed';
        error = describeError(e);
      }
      const latency = Math.round(performance.now() - started);
      await store.db
        .insertInto('prompts_debug')
        .values({
          id,
          prompt_id: p.id,
          user_id: caller!.userId,
          version: body.detail ? 'draft' : body.version,
          model_id: model.model_id,
          variables: JSON.stringify(body.variable_vals),
          messages: JSON.stringify(rendered.messages),
          output: text,
          status,
          error: error.slice(0, 2000),
          input_tokens: usage.input_tokens,
          output_tokens: usage.output_tokens,
          latency_ms: latency,
          created_at: now(),
        })
        .execute();
      if (status === 'success')
        sse.send('done', { debug_id: id, ...usage, latency_ms: latency, missing_variables: rendered.missing });
      else sse.send('error', { debug_id: id, msg: error || 'The model did not answer.' });
      sse.close();
    },
  });

  ctx.route({
    ...ListDebugHistory,
    auth: ofPrompt,
    handler: async ({ params, body, caller }) => {
      const p = await store.get(params.prompt_id);
      const since = new Date(Date.now() - body.days_limit * 86_400_000).toISOString();
      const rows = await store.db
        .selectFrom('prompts_debug')
        .selectAll()
        .where('prompt_id', '=', p.id)
        .where('user_id', '=', caller!.userId)
        .where('created_at', '>=', since)
        .orderBy('created_at', 'desc')
        .limit(body.page_size)
        .execute();
      return {
        debug_history: rows.map((r) => ({
          debug_id: r.id,
          version: r.version,
          model_id: r.model_id,
          variable_vals: parseStoredJson(r.variables, "A run's variables", DebugHistoryItem.shape.variable_vals),
          messages: parseStoredJson(r.messages, "A run's messages", DebugHistoryItem.shape.messages),
          output: r.output,
          status: r.status,
          error: r.error,
          input_tokens: Number(r.input_tokens),
          output_tokens: Number(r.output_tokens),
          latency_ms: Number(r.latency_ms),
          created_at: secs(r.created_at),
        })),
      };
    },
  });
}
