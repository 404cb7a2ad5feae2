// Starter templates: listed for the home page, created in a space through their kind's own import.
import { ApiError, ErrorCode, languageOf } from '@tessera/sdk';
import { defineExtension, ErrorTexts, ResourceKinds } from '@tessera/sdk/server';
import { ListTemplates, UseTemplate } from '../shared/api.ts';
import type { Template } from './catalogue.ts';

// The catalogue (the templates' texts) is read with the first call, not at start.
let catalogue: Promise<Template[]> | undefined;
const templates = () => (catalogue ??= import('./catalogue.ts').then((m) => m.TEMPLATES));

export default defineExtension({
  id: 'templates',
  register(ctx) {
    // Its refusals in the caller's language.
    ctx.register(ErrorTexts, {
      key: 'templates.missing',
      texts: { 'en-US': "There is no template '{{id}}'.", 'zh-CN': '没有模板“{{id}}”。' },
    });
    ctx.register(ErrorTexts, {
      key: 'templates.kindOff',
      texts: {
        'en-US': 'The template "{{name}}" needs resources of kind {{kind}}, which this studio does not run.',
        'zh-CN': '模板“{{name}}”需要 {{kind}} 类资源，但本工作室没有启用它。',
      },
    });
    const usable = async () => (await templates()).filter((t) => ctx.registry(ResourceKinds).get(t.kind)?.importInto);
    ctx.route({
      ...ListTemplates,
      auth: 'user',
      handler: async () => ({
        templates: (await usable()).map((t) => ({
          template_id: t.id,
          kind: t.kind,
          name: t.name,
          description: t.description,
        })),
      }),
    });
    ctx.route({
      ...UseTemplate,
      auth: { space: { from: 'body', field: 'space_id' } },
      handler: async ({ body, caller, headers }) => {
        const language = languageOf(headers['accept-language']);
        const t = (await templates()).find((x) => x.id === body.template_id);
        if (!t)
          throw new ApiError(404, ErrorCode.NOT_FOUND, `There is no template '${body.template_id}'.`, '', {
            text: { key: 'templates.missing', params: { id: body.template_id } },
          });
        const kind = ctx.registry(ResourceKinds).get(t.kind);
        if (!kind?.importInto) {
          throw new ApiError(
            400,
            ErrorCode.INVALID_PARAMS,
            `The template "${t.name['en-US']}" needs resources of kind ${t.kind}, which this studio does not run.`,
            '',
            { text: { key: 'templates.kindOff', params: { name: t.name[language], kind: t.kind } } },
          );
        }
        const id = await kind.importInto(t.package(language), {
          spaceId: body.space_id,
          userId: caller!.userId,
          ids: new Map(),
        });
        return { kind: t.kind, id };
      },
    });
  },
});
