// The cards of the workflow canvas: a node's card (icon, title, summary, type, ports, run status,
// problem badge) and a comment note. The editor hands them their data through the card store.
import { Handle, NodeResizer, Position, type Node, type NodeProps } from '@xyflow/react';
import { memo, useLayoutEffect, useRef, useState, type ComponentType, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import type { CanvasLink, CanvasNode } from '@tessera/workflow-sdk';
import type { PortInfo } from '@tessera/workflow-sdk/client';
import type { NodeTypeClient } from '../points.ts';
import { portsOf, type Note } from './model.ts';
import { useCard } from './cards.ts';
import { refsToTitles, type RefNames } from '../refs.ts';
import type { NodeRun } from './TestRun.tsx';
import { ProblemBadge } from './Problems.tsx';
import { NodeExecStatus } from '@tessera/workflow-sdk';
/** Cards have one width (a long title is cut): editing a title does not resize the card, which would make the canvas re-measure it and move its links. */
export const CARD_WIDTH = 220;

export interface CardData extends Record<string, unknown> {
  node: CanvasNode;
  links: CanvasLink[];
  label: string;
  client?: NodeTypeClient;
  entry: boolean;
  problems: number;
  run?: NodeRun;
  /** A loop or batch: the card is a container its body nodes sit in. */
  container: boolean;
  /** The node type's summary line, references shown by node title. */
  summary?: string;
  /** Someone else editing the canvas has it selected: their colour and name. */
  peer?: { color: string; name: string };
}
const rawSummaries = new WeakMap<CanvasNode, string | null>();
/**
 * The node type's summary of a node (cached per node object: unchanged nodes are the same objects),
 * its references shown by node title.
 */
export function cardSummary(node: CanvasNode, client: NodeTypeClient | undefined, names: RefNames): string | undefined {
  let raw = rawSummaries.get(node);
  if (raw === undefined) {
    try {
      raw = client?.summary?.(node) ?? null;
    } catch {
      raw = null; // a summary that throws shows nothing rather than breaking the canvas
    }
    rawSummaries.set(node, raw);
  }
  return raw === null ? undefined : refsToTitles(raw, names);
}

type IconComponent = ComponentType<{ style?: CSSProperties }>;
const iconImages = new Map<IconComponent, string>();

/**
 * A node type's icon on its card, as an image: an inline SVG is a paint chunk of its own, one per card,
 * and with hundreds of cards the browser re-sorts them into layers on every frame. The first card of a
 * type draws the icon once; its markup becomes a data URL every card of the type then shows.
 */
function CardIcon({ Icon }: { Icon: IconComponent }) {
  const url = iconImages.get(Icon);
  const host = useRef<HTMLSpanElement>(null);
  const [, redraw] = useState(0);
  useLayoutEffect(() => {
    if (url || !host.current) return;
    const svg = host.current.querySelector('svg');
    if (!svg) return;
    const copy = svg.cloneNode(true) as SVGElement;
    copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
    copy.setAttribute('width', '12');
    copy.setAttribute('height', '12');
    copy.removeAttribute('class');
    iconImages.set(
      Icon,
      `data:image/svg+xml;charset=utf-8,${encodeURIComponent(copy.outerHTML.replace(/currentColor/g, '#fff'))}`,
    );
    redraw((x) => x + 1);
  }, [Icon, url]);
  return url ? (
    <img src={url} width={12} height={12} alt="" style={{ display: 'block' }} />
  ) : (
    <span ref={host} style={{ display: 'inline-flex' }}>
      <Icon />
    </span>
  );
}

/** Width of a text in card units: an ideograph or full-width character counts two. */
export function fitWidth(text: string): number {
  let w = 0;
  for (const ch of text)
    w +=
      /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch) ||
      ch.codePointAt(0)! > 0x1f000
        ? 2
        : 1;
  return w;
}

/**
 * A text cut to `units` with an ellipsis. Cards cut their lines here rather than with CSS: a clip on
 * each line of hundreds of cards is work for the browser on every frame (docs/benchmarks.md, canvas).
 */
export function fitText(text: string, units: number): string {
  if (fitWidth(text) <= units) return text;
  let w = 0;
  let out = '';
  for (const ch of text) {
    const cw = fitWidth(ch);
    if (w + cw > units - 1) break;
    out += ch;
    w += cw;
  }
  return `${out}…`;
}

/** What the canvas library holds for a node card: nothing but a fixed marker (the card reads the rest from the card store). */
export type NodeRef = Record<string, never>;
export const NODE_REF: NodeRef = Object.freeze({}) as NodeRef;
export interface NoteData extends Record<string, unknown> {
  note: Note;
  onText(id: string, text: string): void;
}

export const STATUS_COLOR: Record<number, string> = {
  [NodeExecStatus.Running]: 'rgb(var(--primary-6))',
  [NodeExecStatus.Success]: 'rgb(var(--success-6))',
  [NodeExecStatus.Fail]: 'rgb(var(--danger-6))',
};

/** A node's card on the canvas: icon, title, type; an input handle and one output handle per port. */
const NodeCard = memo(function NodeCard({ id, selected }: NodeProps<Node<NodeRef>>) {
  const data = useCard<CardData>(id);
  if (!data) return null;
  return <CardBody data={data} selected={!!selected} />;
});

function cardBorder(data: CardData, selected: boolean): string {
  return `1px solid ${data.problems ? 'rgb(var(--danger-6))' : data.run ? STATUS_COLOR[data.run.status] : selected ? 'rgb(var(--primary-6))' : data.peer ? data.peer.color : 'var(--color-border-2)'}`;
}

function CardBody({ data, selected }: { data: CardData; selected: boolean }) {
  const { node, links, label, client, entry, problems, run, container, summary } = data;
  const { t } = useTranslation('workflow');
  const ports = portsOf(node, client, links);
  const Icon = client?.icon;
  return (
    <div
      data-testid="canvas-node"
      data-node-id={node.node_id}
      data-run-status={run?.status ?? ''}
      data-container={container ? 'true' : undefined}
      style={{
        position: 'relative',
        ...(container
          ? {
              minWidth: 180,
              width: '100%',
              height: '100%',
              boxSizing: 'border-box',
              background: 'rgba(var(--primary-1), .35)',
            }
          : { width: CARD_WIDTH, boxSizing: 'border-box', background: 'var(--color-bg-2)' }),
        border: cardBorder(data, selected),
        borderRadius: 8,
        boxShadow: selected
          ? '0 0 0 2px rgba(22,93,255,.15)'
          : data.peer
            ? `0 0 0 2px ${data.peer.color}`
            : '0 1px 3px rgba(0,0,0,.08)',
        padding: '8px 12px',
      }}
    >
      {data.peer && (
        <span
          data-testid="peer-selection"
          style={{
            position: 'absolute',
            top: -20,
            right: 0,
            padding: '0 6px',
            borderRadius: 4,
            background: data.peer.color,
            color: 'white',
            fontSize: 11,
            lineHeight: '18px',
            whiteSpace: 'nowrap',
          }}
        >
          {data.peer.name}
        </span>
      )}
      {container && <NodeResizer isVisible={selected} minWidth={260} minHeight={160} />}
      {problems > 0 && <ProblemBadge count={problems} />}
      {!entry && <Handle type="target" position={Position.Left} />}
      <div style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
        <span
          style={{
            width: 20,
            height: 20,
            borderRadius: 4,
            background: client?.color ?? '#165DFF',
            display: 'inline-flex',
            alignItems: 'center',
            justifyContent: 'center',
            color: '#fff',
            fontSize: 12,
          }}
        >
          {Icon ? <CardIcon Icon={Icon} /> : label.slice(0, 1)}
        </span>
        <strong
          style={{ fontSize: 13, minWidth: 0, whiteSpace: 'nowrap' }}
          title={node.node_param.title || node.node_id}
        >
          {fitText(node.node_param.title || node.node_id, 23)}
        </strong>
      </div>
      {summary && (
        <div
          data-testid="canvas-node-summary"
          style={{ fontSize: 12, color: 'var(--color-text-2)', marginTop: 2, whiteSpace: 'nowrap' }}
          title={summary}
        >
          {fitText(summary, 30)}
        </div>
      )}
      <div style={{ fontSize: 11, color: 'var(--color-text-3)', marginTop: 2 }}>
        {label}
        {run && (
          <span style={{ float: 'right', color: STATUS_COLOR[run.status] }} data-testid="canvas-node-status">
            {t(`run.node.${run.status}`)}
            {run.status !== NodeExecStatus.Running && ` · ${run.duration_ms} ms`}
          </span>
        )}
      </div>
      {ports.map((p) => (
        <div
          key={p.id}
          style={{
            position: 'relative',
            textAlign: 'right',
            fontSize: 11,
            color: p.id === 'error' ? 'rgb(var(--danger-6))' : 'var(--color-text-3)',
            minHeight: ports.length > 1 ? 16 : 0,
          }}
        >
          {ports.length > 1 && <PortLabel port={p} />}
          <Handle
            type="source"
            id={p.id}
            position={Position.Right}
            style={ports.length > 1 ? { top: 4, right: -17 } : undefined}
            data-testid={`port-${node.node_id}-${p.id}`}
          />
        </div>
      ))}
      {container && (
        <div style={{ fontSize: 11, color: 'var(--color-text-3)', marginTop: 6 }} data-testid="container-hint">
          {t('editor.bodyHint')}
        </div>
      )}
    </div>
  );
}

/** A port's label and, when the node type says, what its branch tests ("If  score > 3"). */
function PortLabel({ port }: { port: PortInfo }) {
  const { t } = useTranslation('workflow');
  const label = port.labelKey
    ? t(port.labelKey, { defaultValue: port.label ?? port.id, ...port.labelParams })
    : port.label;
  const detail = port.detail
    ?.map((part) => (typeof part === 'string' ? part : t(part.key, { defaultValue: part.key, ...part.params })))
    .join(' ');
  if (!detail) return <>{label}</>;
  return (
    <div
      style={{ display: 'flex', justifyContent: 'flex-end', gap: 4, minWidth: 0 }}
      title={`${label} ${detail}`}
      data-testid="port-detail"
    >
      <span style={{ color: 'var(--color-text-2)', whiteSpace: 'nowrap' }}>
        {fitText(detail, 28 - fitWidth(label ?? ''))}
      </span>
      <span style={{ flex: 'none' }}>{label}</span>
    </div>
  );
}

/** A comment note on the canvas: editor-only, kept in canvas.notes. */
const NoteCard = memo(function NoteCard({ data, selected }: NodeProps<Node<NoteData>>) {
  const { t } = useTranslation('workflow');
  const { note, onText } = data;
  return (
    <div
      data-testid="canvas-note"
      data-note-id={note.id}
      style={{
        width: '100%',
        height: '100%',
        minWidth: 160,
        minHeight: 80,
        boxSizing: 'border-box',
        background: '#FFF7E8',
        border: `1px solid ${selected ? '#FF7D00' : '#FFE4BA'}`,
        borderRadius: 6,
        padding: 6,
      }}
    >
      <NodeResizer isVisible={selected} minWidth={160} minHeight={80} />
      <textarea
        className="nodrag nowheel"
        aria-label={t('editor.note')}
        placeholder={t('editor.notePlaceholder')}
        value={note.text}
        onChange={(e) => onText(note.id, e.target.value)}
        style={{
          width: '100%',
          height: '100%',
          border: 'none',
          outline: 'none',
          resize: 'none',
          background: 'transparent',
          fontSize: 12,
          color: '#4E5969',
        }}
        data-testid="note-text"
      />
    </div>
  );
});
export const nodeTypes = { tessera: NodeCard, note: NoteCard };
