// @tessera/workflow-sdk/client: what a node type's client half contributes to the workflow editor.
import { defineRegistryPoint } from '@tessera/sdk';
import type { ComponentType, CSSProperties } from 'react';
import { z } from 'zod';
import type { CanvasNode, FieldDecl, InputBinding, ValueExpr } from './schema.ts';

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
  /**
   * The inputs the editor's own forms use, handed to every form (an extension outside the studio cannot
   * import the workflow extension): text with {{references}}, a value or a reference, typed fields.
   */
  widgets: NodeFormWidgets;
}

/** The workflow editor's shared inputs, given to each node form as `widgets`. */
export interface NodeFormWidgets {
  /** A text template with {{ completion of upstream outputs and variables. */
  TemplateInput: ComponentType<{
    value: string;
    onChange(v: string): void;
    node: CanvasNode;
    upstream: UpstreamOutput[];
    placeholder?: string;
    minRows?: number;
    maxRows?: number;
    testId?: string;
    error?: boolean;
    style?: CSSProperties;
  }>;
  /** An input binding's value: a literal of its type, or a reference to an upstream output. */
  ValueInput: ComponentType<{
    binding: InputBinding;
    upstream: UpstreamOutput[];
    onChange(value: ValueExpr): void;
    testId?: string;
    error?: boolean;
  }>;
  /** A list of typed fields (name, type, items, required). */
  FieldsEditor: ComponentType<{
    fields: FieldDecl[];
    onChange(fields: FieldDecl[]): void;
    testId?: string;
    withRequired?: boolean;
    addLabel?: string;
    problemOf?(index: number): string | undefined;
  }>;
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

/** One entry of a catalogue section: a node of `nodeType` with `param` already filled (a plugin's API, an MCP tool). */
export interface CatalogueItem {
  key: string;
  label: string;
  description?: string;
  /** Where it comes from, shown small beside the label (the plugin, the MCP server). */
  group?: string;
  /** The node type key of the node added. */
  nodeType: string;
  /** node_param of the node added (title, inputs, outputs, settings). */
  param(): Partial<CanvasNode['node_param']>;
}

/**
 * A section of the node catalogue listing things of the space as ready-made nodes (the plugin section:
 * one entry per published API). `useItems` is a React hook called while the catalogue shows.
 */
export interface CatalogueSection {
  key: string;
  /** Translation key with its namespace ('plugins:catalogue.title'). */
  label: string;
  order?: number;
  useItems(spaceId: string): { items: CatalogueItem[]; loading: boolean };
  /** Where the user manages what the section lists (a page path), shown when it is empty. */
  managePath?: string;
}

export const CatalogueSections = defineRegistryPoint<CatalogueSection>({
  id: 'workflow.catalogueSections',
  owner: 'workflow',
  description: 'Sections of the node catalogue that list ready-made nodes from the space (plugin APIs, MCP tools).',
  schema: z.object({
    key: z.string().regex(/^[a-z][a-z0-9_.-]*$/),
    label: z.string().min(1),
    useItems: z.custom<CatalogueSection['useItems']>((v) => typeof v === 'function', 'must be a function'),
  }),
  key: (s) => s.key,
});

/** How the run panel asks for an interrupt of a type (OAuth authorisation 7 ...); answering resumes the run. */
export interface InterruptView {
  type: number;
  Component: ComponentType<{ data: Record<string, unknown>; spaceId: string; onAnswer(data: string): void }>;
}

export const InterruptViews = defineRegistryPoint<InterruptView>({
  id: 'workflow.interruptViews',
  owner: 'workflow',
  description: 'What the run panel shows for an interrupt type beyond questions (an OAuth authorise button ...).',
  schema: z.object({
    type: z.number().int().positive(),
    Component: z.custom<ComponentType>(
      (v) => typeof v === 'function' || (typeof v === 'object' && v !== null),
      'must be a component',
    ),
  }),
  key: (v) => String(v.type),
});

/** What a panel of the workflow editor is given: the workflow it is open on. */
export interface EditorPanelProps {
  spaceId: string;
  workflowId: string;
  /** The latest published version, null while the workflow has none. */
  latestVersion: string | null;
  /** The Start node's fields of the draft (the run's inputs). */
  inputs: FieldDecl[];
}

/**
 * A side panel of the workflow editor, opened by a button of its toolbar beside Versions and Test run (the
 * workflow's triggers ...). `label` is an i18n key with its namespace (`triggers:panel.title`).
 */
export interface EditorPanel {
  key: string;
  label: string;
  order?: number;
  Component: ComponentType<EditorPanelProps>;
}

export const EditorPanels = defineRegistryPoint<EditorPanel>({
  id: 'workflow.editorPanels',
  owner: 'workflow',
  description: "Side panels of the workflow editor, each opened from the editor's toolbar.",
  schema: z.object({
    key: z.string().regex(/^[a-z][a-z0-9_.-]*$/),
    label: z.string().min(1),
    order: z.number().optional(),
    Component: z.custom<ComponentType>(
      (v) => typeof v === 'function' || (typeof v === 'object' && v !== null),
      'must be a component',
    ),
  }),
  key: (p) => p.key,
});

/** What a source of a test run's inputs is given: the workflow, its Start fields and the inputs as the form holds them. */
export interface TestRunInputSourceProps {
  spaceId: string;
  workflowId: string;
  fields: FieldDecl[];
  /** The form's values by field (objects and arrays as the JSON text typed). */
  values: Record<string, unknown>;
  /** Fills the form (objects and arrays as JSON text). */
  onPick(values: Record<string, unknown>): void;
}
/** Drawn above the test run's inputs: saved inputs to pick from and save to (the debugger's test cases ...). */
export interface TestRunInputSource {
  key: string;
  order?: number;
  Component: ComponentType<TestRunInputSourceProps>;
}
export const TestRunInputSources = defineRegistryPoint<TestRunInputSource>({
  id: 'workflow.testRunInputSources',
  owner: 'workflow',
  description: "Sources of a workflow test run's inputs, drawn above its form (saved test cases ...).",
  schema: z.object({
    key: z.string().regex(/^[a-z][a-z0-9_.-]*$/),
    order: z.number().optional(),
    Component: z.custom<ComponentType>(
      (v) => typeof v === 'function' || (typeof v === 'object' && v !== null),
      'must be a component',
    ),
  }),
  key: (p) => p.key,
});
