import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { FieldDecl } from '@tessera/workflow-sdk';
import type { NodeFormProps } from '@tessera/workflow-sdk/client';
import { renderNodeForm } from '../src/client/testing.tsx';

afterEach(cleanup);

// A form written as an extension outside the studio writes it: it imports nothing of the workflow extension
// and takes the editor's inputs from its props.
function OutsideForm({ node, onSettings, upstream, widgets }: NodeFormProps) {
  const fields = (node.node_param.settings.fields as FieldDecl[] | undefined) ?? [];
  const { FieldsEditor, TemplateInput } = widgets;
  return (
    <div>
      <FieldsEditor
        fields={fields}
        onChange={(next) => onSettings({ ...node.node_param.settings, fields: next })}
        testId="out"
      />
      <TemplateInput
        value={String(node.node_param.settings.template ?? '')}
        onChange={(template) => onSettings({ ...node.node_param.settings, template })}
        node={node}
        upstream={upstream}
        testId="tpl"
      />
    </div>
  );
}

describe('the inputs a node form gets as props.widgets', () => {
  it("lets a form from outside the studio edit typed fields and a template with the editor's own inputs", async () => {
    const r = await renderNodeForm({
      extension: 'outside',
      locales: { 'en-US': {}, 'zh-CN': {} },
      Form: OutsideForm,
      language: 'en-US',
    });
    fireEvent.click(await screen.findByTestId('out-add'));
    await waitFor(() => expect(r.settings()?.fields).toEqual([{ name: 'field1', type: 'string' }]));
    expect(screen.getByTestId('out-0-name')).toBeTruthy();
    expect(screen.getByTestId('tpl')).toBeTruthy();
  });
});
