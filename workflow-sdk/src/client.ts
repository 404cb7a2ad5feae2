// @tessera/workflow-sdk/client: what a node type's client half contributes to the workflow editor.
import { defineRegistryPoint } from '@tessera/sdk';
import type { ComponentType, CSSProperties } from 'react';
import { z } from 'zod';
import type { CanvasNode, FieldDecl } from './schema.ts';

/** An output of a node upstream of the one being edited: what an input may reference. */
export interface UpstreamOutput {
  node_id: string;
  node_title: string;
  field: FieldDecl;
}

export interface NodeFormProps {
  node: CanvasNode;
  /** Replaces the node's settings (node_param.settings). */
  onSettings(settings: Record<string, unknown>): void;
  /** Changes other parts of the node at once (inputs and outputs that follow from a choice in the form). */
  onParam(patch: Partial<CanvasNode['node_param']>): void;
  /** Outputs of the nodes that run before this one (and, in a loop body, what the loop gives it). */
  upstream: UpstreamOutput[];
  /** A loop or batch: the outputs of the nodes in its body (what it may collect). */
  body: UpstreamOutput[];
  /** The space and workflow being edited (forms that list models, workflows ...). */
  spaceId: string;
  workflowId: string;
  /**
   * The server's validation problems of this node, by field path as it names them ('settings.url',
   * 'settings.fields.0.name', 'inputs.query'); show them next to the fields.
   */
  problems: Record<string, string>;
  readOnly?: boolean;
}

/** An output port: `label` as is (an option's text), or `labelKey` translated ('ns:key', with `labelParams`). */
export interface PortInfo {
  id: string;
  label?: string;
  labelKey?: string;
  labelParams?: Record<string, unknown>;
  /** What the branch tests, shown beside the label ("score > 3"): texts as they are and translation keys, joined by spaces. */
  detail?: PortDetail;
}
export type PortDetail = (string | { key: string; params?: Record<string, unknown> })[];

/** The client half of a node type (its server half registers the same key on NodeTypes). */
export interface NodeTypeClient {
  key: string;
  icon?: ComponentType<{ style?: CSSProperties }>;
  /** Accent colour of the node's card. */
  color?: string;
  /** node_param of a node added from the panel. */
  defaults?(): Partial<CanvasNode['node_param']>;
  /** The output branches of the node as it is now (If: one per condition and else); default one port. */
  ports?(node: CanvasNode): PortInfo[];
  /** The settings form in the node panel; without one the settings are edited as JSON. */
  Form?: ComponentType<NodeFormProps>;
  /**
   * What the card says of the node under its title (its key settings: a template's start, a method and
   * URL, a model): one short line, or undefined for nothing. Called on each render of the card: keep it
   * cheap, and a pure function of the node.
   */
  summary?(node: CanvasNode): string | undefined;
}

/** The first `max` characters of a text on one line (card summaries). */
export function oneLine(text: unknown, max = 60): string | undefined {
  if (typeof text !== 'string') return undefined;
  const line = text.replace(/\s+/g, ' ').trim();
  if (!line) return undefined;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export const NodeTypeClients = defineRegistryPoint<NodeTypeClient>({
  id: 'workflow.nodeTypeClients',
  owner: 'workflow',
  description: "A node type's card, ports and settings form in the workflow editor.",
  schema: z.object({ key: z.string().regex(/^[a-z][a-z0-9_.-]*$/) }),
  key: (c) => c.key,
});
