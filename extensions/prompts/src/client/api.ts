import type { PromptDetail } from '../shared/index.ts';

export type {
  CommitView as CommitInfo,
  PromptFullView as PromptFull,
  PromptView as PromptItem,
} from '../shared/api.ts';
export type { PromptDetail };

/** The variables a template uses ({{name}}, and for jinja2 the first name of each {{ … }} and {% for x in name %}). */
export function variablesOf(detail: PromptDetail): string[] {
  const found = new Set<string>();
  const loopVars = new Set<string>();
  for (const m of detail.prompt_template.messages) {
    if (m.role === 'placeholder') {
      if (m.content.trim()) found.add(m.content.trim());
      continue;
    }
    for (const x of m.content.matchAll(/\{%\s*for\s+([A-Za-z_]\w*)\s+in\s+([A-Za-z_]\w*)/g)) {
      loopVars.add(x[1]);
      found.add(x[2]);
    }
    for (const x of m.content.matchAll(/\{\{\s*([A-Za-z_]\w*)/g)) if (!loopVars.has(x[1])) found.add(x[1]);
  }
  return [...found];
}
