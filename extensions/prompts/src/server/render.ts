// Filling a prompt's messages: normal templates replace {{name}}; jinja2 ones are Liquid templates (loops and
// conditions, close to Jinja), run without access to anything but the variables given, and with limits.
import { describeError, fieldOf } from '@tessera/sdk';
import type { PromptDetail } from '../shared/index.ts';

type Out = { role: 'system' | 'user' | 'assistant'; content: string };
let engine: import('liquidjs').Liquid | undefined;

/** Tags that read other templates (from files, by default): a prompt renders from its variables only. */
const FILE_TAGS = ['include', 'render', 'layout'] as const;

async function liquid() {
  if (engine) return engine;
  const { Liquid } = await import('liquidjs');
  // `templates: {}` puts lookups in an empty map instead of the file system; the file tags are refused when
  // parsed anyway, so the message names the tag rather than a missing file.
  const e = new Liquid({
    ownPropertyOnly: true,
    strictFilters: true,
    parseLimit: 200_000,
    renderLimit: 2_000,
    memoryLimit: 10_000_000,
    cache: 500,
    templates: {},
    relativeReference: false,
  });
  for (const tag of FILE_TAGS)
    e.registerTag(tag, {
      parse() {
        throw new Error(
          `{% ${tag} %} is not allowed: a prompt renders from its variables only, never from files or other templates`,
        );
      },
      render() {},
    });
  engine = e;
  return engine;
}

export class RenderError extends Error {}

/**
 * The first problem that stops a template from parsing, or undefined. A draft (`refusedOnly`) may hold
 * unfinished syntax while it is written, but never a refused tag.
 */
export async function templateProblem(
  detail: PromptDetail,
  opts: { refusedOnly?: boolean } = {},
): Promise<string | undefined> {
  if (detail.prompt_template.template_type !== 'jinja2') return undefined;
  const e = await liquid();
  for (const m of detail.prompt_template.messages) {
    if (m.role === 'placeholder') continue;
    try {
      e.parse(m.content);
    } catch (err) {
      if (opts.refusedOnly && !FILE_TAGS.some((t) => describeError(err).includes(`{% ${t} %} is not allowed`)))
        continue;
      return `The template of a ${m.role} message does not parse: ${describeError(err).split('\n')[0]}`;
    }
  }
  return undefined;
}

export async function render(
  detail: PromptDetail,
  variables: Record<string, unknown>,
): Promise<{ messages: Out[]; missing: string[] }> {
  const t = detail.prompt_template;
  const missing = new Set<string>();
  for (const v of t.variable_defs) if (variables[v.key] === undefined || variables[v.key] === null) missing.add(v.key);
  const messages: Out[] = [];
  for (const m of t.messages) {
    if (m.role === 'placeholder') {
      const list = variables[m.content.trim()];
      if (list === undefined) {
        missing.add(m.content.trim());
        continue;
      }
      if (!Array.isArray(list))
        throw new RenderError(`The placeholder ${m.content.trim()} takes a list of messages ({ role, content }).`);
      for (const x of list) {
        const role = fieldOf(x, 'role');
        if (role !== 'system' && role !== 'user' && role !== 'assistant')
          throw new RenderError(`A message of ${m.content.trim()} has no role system, user or assistant.`);
        messages.push({ role, content: String(fieldOf(x, 'content') ?? '') });
      }
      continue;
    }
    let content: string;
    if (t.template_type === 'jinja2') {
      try {
        content = await (await liquid()).parseAndRender(m.content, variables);
      } catch (e) {
        throw new RenderError(
          `The template of a ${m.role} message does not render: ${describeError(e).split('\n')[0]}`,
        );
      }
    } else
      content = m.content.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (whole, name: string) => {
        const v = variables[name];
        if (v === undefined || v === null) {
          missing.add(name);
          return '';
        }
        return typeof v === 'string' ? v : JSON.stringify(v);
      });
    messages.push({ role: m.role, content });
  }
  return { messages, missing: [...missing] };
}
