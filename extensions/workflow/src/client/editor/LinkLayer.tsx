// The links of a large canvas in one SVG: a link drawn by the canvas library is an <svg> of its own, and
// with hundreds of them every frame (panning, typing in a node's panel) pays for hundreds of paint
// layers. Links that are selected, or touch a selected node, stay the library's (to be reconnected,
// deleted, moved with their node); a click on a link here selects it, which hands it back.
import { ConnectionMode, EdgeLabelRenderer, getBezierPath, useStore, useStoreApi } from '@xyflow/react';
import { getEdgePosition } from '@xyflow/system';
import { memo, useMemo, type MouseEvent } from 'react';

/** Canvases with more links than this draw the unselected ones in one layer. */
export const LINK_LAYER_FROM = 150;

export interface LayerLink {
  id: string;
  source: string;
  target: string;
  sourceHandle: string | null;
  error?: boolean;
}

const ignore = () => undefined;

export const LinkLayer = memo(function LinkLayer({
  links,
  onSelect,
}: {
  links: LayerLink[];
  onSelect(id: string): void;
}) {
  // The library's nodes change when one moves or is measured: the paths follow.
  const nodes = useStore((s) => s.nodes);
  const store = useStoreApi();
  const paths = useMemo(() => {
    const { nodeLookup } = store.getState();
    const out: { id: string; d: string; error?: boolean }[] = [];
    for (const l of links) {
      const sourceNode = nodeLookup.get(l.source);
      const targetNode = nodeLookup.get(l.target);
      if (!sourceNode || !targetNode) continue;
      const pos = getEdgePosition({
        id: l.id,
        sourceNode,
        sourceHandle: l.sourceHandle,
        targetNode,
        targetHandle: null,
        connectionMode: ConnectionMode.Strict,
        onError: ignore,
      });
      if (pos) out.push({ id: l.id, d: getBezierPath(pos)[0], error: l.error });
    }
    return out;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [links, nodes, store]);
  const click = (e: MouseEvent<SVGGElement>) => {
    const id = (e.target as SVGElement).getAttribute('data-id');
    if (id) {
      e.stopPropagation();
      onSelect(id);
    }
  };
  return (
    <EdgeLabelRenderer>
      <svg className="tessera-link-layer" data-testid="link-layer" data-links={paths.length}>
        <g className="lines">
          {paths.map((p) => (
            <path key={p.id} d={p.d} className={p.error ? 'error' : undefined} />
          ))}
        </g>
        <g className="hits nopan" onClick={click}>
          {paths.map((p) => (
            <path key={p.id} d={p.d} data-id={p.id} />
          ))}
        </g>
      </svg>
    </EdgeLabelRenderer>
  );
});
