// What the agent is told: how to plan, how to carry out a step, how to sum up; and the plan read from its answer.
import type { BotTool } from '@tessera/ext-bots/shared';
import type { Expert, PlanStep } from '../shared/api.ts';
import type { MessageRow } from './store.ts';

const MAX_STEPS = 12;

export function planPrompt(tools: BotTool[], experts: Expert[], files: string[]): string {
  return [
    'You plan the work of an agent that carries out a task step by step with tools. Break the goal into 1 to 8 ' +
      'concrete steps, in order; each step is something the agent can do with its tools and then report on. The last ' +
      'step delivers what the person asked for (a file for a document, a table or a chart).',
    `The agent's tools:\n${tools.map((t) => `- ${t.name}: ${t.description.split('\n')[0]}`).join('\n')}`,
    experts.length
      ? `Experts a step may be handed to (name them in "expert"; leave it empty for the agent itself):\n${experts
          .map((e) => `- ${e.name}: ${e.description}`)
          .join('\n')}`
      : '',
    files.length ? `Files the person gave: ${files.join(', ')}` : '',
    'Answer with JSON only: {"steps": [{"title": "...", "detail": "what to do and what to hand on", "expert": ""}]}',
  ]
    .filter(Boolean)
    .join('\n\n');
}

/**
 * The plan in the model's answer (JSON, in a code block or not; a numbered list will do). An expert is matched by
 * name or id; an unknown one leaves the step to the agent. Nothing usable: one step, the goal itself.
 */
export function readPlan(text: string, experts: Expert[], goal: string, newId: () => string): PlanStep[] {
  const step = (title: string, detail = '', expert = ''): PlanStep => {
    const who = expert.trim().toLowerCase();
    const e = who ? experts.find((x) => x.name.toLowerCase() === who || x.expert_id === expert.trim()) : undefined;
    return {
      step_id: newId(),
      title: title.trim().slice(0, 200),
      detail: detail.trim().slice(0, 4000),
      expert_id: e?.expert_id ?? '',
      status: 'pending',
      result: '',
    };
  };
  const at = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (at >= 0 && end > at) {
    try {
      const parsed = JSON.parse(text.slice(at, end + 1)) as { steps?: unknown };
      if (Array.isArray(parsed.steps)) {
        const steps = parsed.steps
          .map((s) =>
            typeof s === 'string'
              ? step(s)
              : step(
                  String((s as { title?: unknown }).title ?? ''),
                  String((s as { detail?: unknown }).detail ?? ''),
                  String((s as { expert?: unknown }).expert ?? ''),
                ),
          )
          .filter((s) => s.title);
        if (steps.length) return steps.slice(0, MAX_STEPS);
      }
    } catch {
      // Not JSON after all: read it as a list below.
    }
  }
  const listed = [...text.matchAll(/^\s*(?:\d+[.)]|[-*])\s+(.+)$/gm)].map((m) => step(m[1]));
  if (listed.length) return listed.slice(0, MAX_STEPS);
  return [step(goal.split('\n')[0].slice(0, 200) || 'Do the task', goal)];
}

export function stepPrompt(s: {
  goal: string;
  plan: PlanStep[];
  index: number;
  expert?: Expert;
  files: string[];
  notes: string[];
  earlier: MessageRow[];
  instructions: string[];
}): string {
  const plan = s.plan
    .map((p, i) => {
      const mark = i === s.index ? '[now]' : p.status === 'done' ? '[done]' : '[later]';
      return `${i + 1}. ${mark} ${p.title}${p.status === 'done' && p.result ? ` — ${p.result.slice(0, 600)}` : ''}`;
    })
    .join('\n');
  const before = s.earlier
    .filter((m) => m.kind !== 'file')
    .map((m) =>
      m.kind === 'tool_call'
        ? `You called ${m.tool_name} with ${m.data.slice(0, 500)}`
        : m.kind === 'tool_result'
          ? `${m.tool_name} answered ${m.data.slice(0, 1000)}`
          : m.kind === 'question'
            ? `You asked the person: ${m.content}`
            : m.kind === 'user'
              ? `The person said: ${m.content}`
              : `${m.kind}: ${m.content.slice(0, 1000)}`,
    );
  const step = s.plan[s.index];
  return [
    s.expert
      ? `You are ${s.expert.name}, an expert the agent handed this step to. ${s.expert.persona}`
      : 'You are an agent carrying out a task step by step with tools.',
    `The task's goal: ${s.goal}`,
    `The plan:\n${plan}`,
    s.files.length ? `The task's files: ${s.files.join('; ')}` : 'The task has no files yet.',
    s.notes.length ? `The person added:\n${s.notes.map((n) => `- ${n}`).join('\n')}` : '',
    before.length ? `What happened in this step so far:\n${before.join('\n')}` : '',
    ...s.instructions,
    `Now carry out step ${s.index + 1}: ${step.title}\n${step.detail}\n` +
      'Use the tools when they help. Keep what the person should have in files (write_file, or return files from ' +
      'run_code). When the step is done, answer in a few sentences with what it came to. If you cannot go on without ' +
      'the person, call ask_user.',
  ]
    .filter(Boolean)
    .join('\n\n');
}

export function summaryPrompt(): string {
  return (
    'You report to the person who gave an agent a task. From the goal, the steps and what they came to, write the ' +
    'answer to the goal: what was found or made, the files to look at, and anything left undone. Be brief; use ' +
    'Markdown.'
  );
}
