// The templates' routes, one contract for the server that answers them and the home page that calls them.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

const Texts = z.record(z.string(), z.string());

/** The starter templates this studio can create (their kinds run), with names and descriptions per language. */
export const ListTemplates = defineEndpoint({
  method: 'GET',
  path: '/api/templates/list',
  summary: 'The starter templates this studio can create (their kinds run), with names and descriptions per language',
  response: z.object({
    templates: z.array(z.object({ template_id: z.string(), kind: z.string(), name: Texts, description: Texts })),
  }),
});

/** Creates a template in a space, in the caller's language; answers the new resource. */
export const UseTemplate = defineEndpoint({
  method: 'POST',
  path: '/api/templates/use',
  summary: "Create a template in the space (in the caller's language); answers the new resource",
  body: z.object({ space_id: z.string().min(1).max(32), template_id: z.string().min(1).max(64) }),
  response: z.object({ kind: z.string(), id: z.string() }),
});

export type TemplateView = z.output<typeof ListTemplates.response>['templates'][number];
