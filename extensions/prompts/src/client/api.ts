import type { PromptDetail } from '../shared/index.ts';

export interface PromptItem {
  id: string;
  workspace_id: string;
  prompt_key: string;
  prompt_basic: { display_name: string; description: string; latest_version: string; updated_at: number };
}
export interface PromptFull extends PromptItem {
  prompt_draft: { draft_info: { base_version: string; is_modified: boolean }; detail: PromptDetail };
  labels: { label: string; version: string }[];
}
export interface CommitInfo {
  version: string;
  description: string;
  committed_at: number;
  labels: string[];
  detail: PromptDetail;
}
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
