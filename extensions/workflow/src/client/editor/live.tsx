// Editing a canvas together: the canvas as a live document (nodes by id, links by their ends, notes by id; a node's
// fields merge one by one), the others' avatars and status in the toolbar, their pointers on the canvas and their
// selections around the cards. Without an extension providing live documents the editor works alone.
import { Tag, Tooltip } from '@arco-design/web-react';
import { PresenceAvatars, useLiveDocument, type LivePeer, type LiveStatus } from '@tessera/sdk/client';
import type { Canvas } from '@tessera/workflow-sdk';
import { ViewportPortal } from '@xyflow/react';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { CANVAS_SHAPE } from './shape.ts';

/** The live canvas of a workflow while the editor is open (nothing on a phone, where the canvas is only shown). */
export function useLiveCanvas(
  workflowId: string,
  initial: Canvas,
  enabled: boolean,
  onState: (canvas: Canvas, origin: 'remote' | 'undo') => void,
) {
  return useLiveDocument<Canvas>(
    { kind: 'workflow', id: workflowId, initial, shape: CANVAS_SHAPE, enabled },
    (canvas, origin) => onState(withoutDangling(canvas), origin),
  );
}

/**
 * The canvas without links to nodes that are gone: one person linked to a node another removed at the same moment.
 * The next edit saves it so for everyone.
 */
export function withoutDangling(canvas: Canvas): Canvas {
  const ids = new Set(canvas.nodes.map((n) => n.node_id));
  const links = canvas.links.filter((l) => ids.has(l.from_node_id) && ids.has(l.to_node_id));
  return links.length === canvas.links.length ? canvas : { ...canvas, links };
}

/** The others' avatars and, when the connection is lost, that edits wait for it. */
export function LiveBar({ status, peers }: { status: LiveStatus | undefined; peers: LivePeer[] }) {
  const { t } = useTranslation('workflow');
  if (!status) return null;
  // Alone and in step: nothing to show (nor a gap in the toolbar).
  const quiet = !peers.length && status !== 'offline' && status !== 'closed';
  return (
    <span
      style={{ display: quiet ? 'none' : 'inline-flex', alignItems: 'center', gap: 8 }}
      data-testid="live"
      data-status={status}
    >
      <PresenceAvatars peers={peers} />
      {status === 'offline' && (
        <Tooltip content={t('live.offlineHint')}>
          <Tag color="orange" data-testid="live-offline">
            {t('live.offline')}
          </Tag>
        </Tooltip>
      )}
      {status === 'closed' && <Tag color="gray">{t('live.closed')}</Tag>}
    </span>
  );
}

/** The others' pointers on the canvas, in its coordinates, with their names. */
export const PeerCursors = memo(function PeerCursors({ peers }: { peers: LivePeer[] }) {
  const shown = peers.filter((p) => p.cursor);
  if (!shown.length) return null;
  return (
    <ViewportPortal>
      {shown.map((p) => (
        <div
          key={p.clientId}
          data-testid="peer-cursor"
          data-user={p.userId}
          style={{
            position: 'absolute',
            transform: `translate(${p.cursor!.x}px, ${p.cursor!.y}px)`,
            pointerEvents: 'none',
            zIndex: 1000,
          }}
        >
          <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden>
            <path d="M1 1 L1 13 L4.5 9.5 L7 15 L9 14 L6.5 8.5 L11 8.5 Z" fill={p.color} stroke="white" />
          </svg>
          <span
            style={{
              marginLeft: 10,
              padding: '1px 6px',
              borderRadius: 4,
              background: p.color,
              color: 'white',
              fontSize: 12,
              whiteSpace: 'nowrap',
            }}
          >
            {p.name}
          </span>
        </div>
      ))}
    </ViewportPortal>
  );
});

const marks = new Map<string, { color: string; name: string }>();
/**
 * Which card each peer has selected: node id to the first such peer's colour and name (the same object for the same
 * person, so a card redraws only when who selected it changes, not when a pointer moves).
 */
export function peerSelections(peers: LivePeer[]): Map<string, { color: string; name: string }> {
  const m = new Map<string, { color: string; name: string }>();
  for (const p of peers)
    for (const id of p.selection) {
      if (m.has(id)) continue;
      const key = `${p.color}|${p.name}`;
      let mark = marks.get(key);
      if (!mark) marks.set(key, (mark = { color: p.color, name: p.name }));
      m.set(id, mark);
    }
  return m;
}
