import { describe, expect, it } from 'vitest';
import { PromptDetail } from '../src/shared/index.ts';
import { RenderError, render, templateProblem } from '../src/server/render.ts';

// Liquid (Jinja-like) prompts render from their variables only: the tags that would read other templates,
// which default to files of the working directory, are refused with the tag's name.
const jinja = (content: string) =>
  PromptDetail.parse({ prompt_template: { template_type: 'jinja2', messages: [{ role: 'system', content }] } });

describe('prompt templates', () => {
  it.each([
    ['include', "{% include 'package.json' %}"],
    ['render', "{% render 'package.json' %}"],
    ['layout', "{% layout 'package.json' %}"],
    ['include', "{% liquid\n  include 'package.json'\n%}"],
    ['include', "{% if true %}{% include 'package.json' %}{% endif %}"],
  ])('refuses {%% %s %%} when rendered, and reads no file', async (tag, content) => {
    const err = await render(jinja(content), {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RenderError);
    expect((err as Error).message).toContain(`{% ${tag} %} is not allowed`);
    expect((err as Error).message).not.toContain('tessera');
    expect(await templateProblem(jinja(content), { refusedOnly: true })).toContain(`{% ${tag} %} is not allowed`);
  });

  it('still renders loops, conditions and filters', async () => {
    const r = await render(jinja('{% for i in items %}{% if i != "b" %}{{ i | upcase }}{% endif %}{% endfor %}'), {
      items: ['a', 'b', 'c'],
    });
    expect(r.messages[0].content).toBe('AC');
    expect(await templateProblem(jinja('{% if x %}open'), { refusedOnly: true })).toBeUndefined();
    expect(await templateProblem(jinja('{% if x %}open'))).toMatch(/does not parse/);
  });
});
