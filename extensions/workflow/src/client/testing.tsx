// @tessera/ext-workflow/testing: renders a node type's settings form alone, the way the node panel
// does, and records what it saves (for the component tests of node-type extensions).
import { defineExtension } from '@tessera/sdk/client';
import { renderExtension, type RenderExtensionOptions, type RenderedExtension } from '@tessera/sdk/testing/client';
import { useState, type ComponentType } from 'react';
import enUS from '../locales/en-US.json';
import zhCN from '../locales/zh-CN.json';
import type { CanvasNode } from '@tessera/workflow-sdk';
import { FORM_WIDGETS } from './widgets.tsx';
import { NodeTypeClients, type NodeFormProps, type NodeTypeClient, type UpstreamOutput } from './points.ts';

export interface RenderNodeFormOptions extends Omit<RenderExtensionOptions, 'path' | 'others'> {
  /** The id of the extension the form belongs to (its translations live in that namespace). */
  extension: string;
  locales: { 'en-US': Record<string, unknown>; 'zh-CN': Record<string, unknown> };
  Form: ComponentType<NodeFormProps>;
  param?: Partial<CanvasNode['node_param']>;
  upstream?: UpstreamOutput[];
  body?: UpstreamOutput[];
  problems?: Record<string, string>;
  spaceId?: string;
  workflowId?: string;
  /** Translations of other extensions the form uses (models ...), by extension id. */
  namespaces?: Record<string, { 'en-US': Record<string, unknown>; 'zh-CN': Record<string, unknown> }>;
}

export interface RenderedNodeForm extends RenderedExtension {
  /** The settings the form saved last (undefined until it saves). */
  settings(): Record<string, unknown> | undefined;
  /** The whole node_param as the form left it. */
  param(): CanvasNode['node_param'];
}

export async function renderNodeForm(opts: RenderNodeFormOptions): Promise<RenderedNodeForm> {
  let last: Record<string, unknown> | undefined;
  let lastParam: CanvasNode['node_param'] | undefined;
  const {
    extension,
    locales,
    Form,
    param = {},
    upstream = [],
    body = [],
    problems = {},
    spaceId = '1',
    workflowId = '1',
    namespaces = {},
    ...rest
  } = opts;
  function Harness() {
    const [p, setP] = useState<CanvasNode['node_param']>({ inputs: [], outputs: [], settings: {}, ...param });
    lastParam = p;
    const node: CanvasNode = { node_id: 'node', type: 'x', node_param: p, layout: { x: 0, y: 0 } };
    return (
      <Form
        node={node}
        upstream={upstream}
        body={body}
        problems={problems}
        spaceId={spaceId}
        workflowId={workflowId}
        widgets={FORM_WIDGETS}
        onSettings={(settings) => (setP((x) => ({ ...x, settings })), (last = settings))}
        onParam={(patch) => setP((x) => ({ ...x, ...patch }))}
      />
    );
  }
  const harness = defineExtension({
    id: extension,
    register: (ctx) => (ctx.i18n(locales), void ctx.route({ path: '/', component: Harness })),
  });
  // The shared inputs (templates, field lists) translate in the workflow namespace.
  const workflow = defineExtension({ id: 'workflow', register: (ctx) => ctx.i18n({ 'en-US': enUS, 'zh-CN': zhCN }) });
  const others = Object.entries(namespaces).map(([id, l]) => defineExtension({ id, register: (ctx) => ctx.i18n(l) }));
  const rendered = await renderExtension(harness, {
    ...rest,
    path: '/',
    others: extension === 'workflow' ? others : [workflow, ...others],
  });
  return Object.assign(rendered, { settings: () => last, param: () => lastParam! });
}

/**
 * The NodeTypeClients an extension's client half registers, by key (to test cards: summaries, ports).
 * Its register() runs against a context that records registrations and ignores the rest.
 */
export function nodeTypeClientsOf(extension: { register?(ctx: never): void }): Record<string, NodeTypeClient> {
  const out: Record<string, NodeTypeClient> = {};
  const ctx = new Proxy(
    {},
    {
      get: (_t, prop) =>
        prop === 'register'
          ? (point: unknown, item: NodeTypeClient) => {
              if (point === NodeTypeClients) out[item.key] = item;
              return { dispose() {} };
            }
          : () => ({ dispose() {} }),
    },
  );
  extension.register?.(ctx as never);
  return out;
}
