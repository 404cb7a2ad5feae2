// Filling a prompt's messages: normal templates replace {{name}}; jinja2 ones are Liquid templates (loops and
// conditions, close to Jinja), run without access to anything but the variables given, and with limits.
import type { PromptDetail } from '../shared/index.ts';

type Out = { role: 'system' | 'user' | 'assistant'; content: string };
let engine: import('liquidjs').Liquid | undefined;

async function liquid() {
  if (engine) return engine;
  const { Liquid } = await import('liquidjs');
  engine = new Liquid({ ownPropertyOnly: true, strictFilters: true, parseLimit: 200_000, renderLimit: 2_000, memoryLimit: 10_000_000, cache: 500 });
  return engine;
}

export class RenderError extends Error {}

export async function render(detail: PromptDetail, variables: Record<string, unknown>): Promise<{ messages: Out[]; missing: string[] }> {
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
      if (!Array.isArray(list)) throw new RenderError(`The placeholder ${m.content.trim()} takes a list of messages ({ role, content }).`);
      for (const x of list) {
        const role = (x as { role?: unknown })?.role;
        if (role !== 'system' && role !== 'user' && role !== 'assistant') throw new RenderError(`A message of ${m.content.trim()} has no role system, user or assistant.`);
        messages.push({ role, content: String((x as { content?: unknown }).content ?? '') });
      }
      continue;
    }
    let content: string;
    if (t.template_type === 'jinja2') {
      try {
        content = await (await liquid()).parseAndRender(m.content, variables);
      } catch (e) {
        throw new RenderError(`The template of a ${m.role} message does not render: ${(e as Error).message.split('\n')[0]}`);
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
