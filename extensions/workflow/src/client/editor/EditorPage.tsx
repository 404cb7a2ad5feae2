// The workflow editor: the canvas (@xyflow/react), the node catalogue, the selected node's panel and
// a draft that saves itself (draft.ts: a save made from an older draft is merged; edited together, live).
import { Button, Empty, Spin, Tag, Typography } from '@arco-design/web-react';
import { IconApps, IconPen, IconRedo, IconUndo } from '@arco-design/web-react/icon';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  BackLink,
  MergeDialog,
  Modal,
  type ResourceEditorProps,
  toast,
  useApi,
  usePageTitle,
  useRegistry,
  useStudio,
} from '@tessera/sdk/client';
import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type Connection,
  type Edge,
  type EdgeChange,
  type Node,
  type NodeChange,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import './canvas.css';
import { LINK_LAYER_FROM, LinkLayer, type LayerLink } from './LinkLayer.tsx';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type DragEvent,
  type MouseEvent as PointerMove,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import type { Canvas, CanvasLink, CanvasNode } from '@tessera/workflow-sdk';
import { resolveCanvas } from '@tessera/workflow-sdk/merge';
import type { JsonPath } from '@tessera/sdk/client';
import { useSpaceId } from '../space.ts';
import { EditorPanels, NodeTypeClients } from '../points.ts';
import {
  autoLayout,
  bodyOrder,
  bodyOutputs,
  CONTAINER_SIZE,
  copyNodes,
  linkId,
  linkPort,
  makeLink,
  NOTE_SIZE,
  notesOf,
  pasteNodes,
  removeNodes,
  typeOf,
  upstreamOutputs,
  type NodeTypeInfo,
} from './model.ts';
import { NodePanel } from './NodePanel.tsx';
import { CardStore, CardStoreContext } from './cards.ts';
import { NodeResult, TestRunPanel, useTestRun } from './TestRun.tsx';
import { NodeDebug } from './NodeDebug.tsx';
import { RunHistory, RunTrace } from './RunHistory.tsx';
import { VersionsPanel } from './Versions.tsx';
import { BrokenRunDialog, ProblemsPanel, type CanvasProblem } from './Problems.tsx';
import { CARD_WIDTH, NODE_REF, cardSummary, nodeTypes, type CardData, type NodeRef, type NoteData } from './Cards.tsx';
import { refNames } from '../refs.ts';
import { Catalogue, DRAG_TYPE } from './Catalogue.tsx';
import { cardPlacement, keepIfSame, readClip, sameShallow, writeClip } from './flow-nodes.ts';
import { SaveBadge } from './SaveState.tsx';
import { LiveBar, peerSelections, PeerCursors } from './live.tsx';
import { useCanvasDraft, type LoadedDraft } from './draft.ts';
import { EditorStore, useEditor } from './store.ts';
import {
  movedIntoBody,
  placed,
  planEdgeChanges,
  planNodeChanges,
  relinked,
  withLink,
  withNewNode,
  withNote,
  withNoteText,
  withoutItems,
  withoutLinks,
} from './edits.ts';
import { GetCanvas, ListNodeTypes } from '../../shared/api.ts';

// Props of the canvas are kept the same from render to render: a changed prop makes the canvas library
// update its store, and every node and edge on it checks whether that concerns it.
const DELETE_KEYS = ['Backspace', 'Delete'];
const MULTI_SELECT_KEYS = ['Meta', 'Control', 'Shift'];
const CANVAS_DECOR = (
  <>
    <Background />
    <Controls />
    <MiniMap pannable zoomable />
  </>
);
const NO_LINKS: CanvasLink[] = [];

/** A conflict's place in words: the node by its title and the field, or the link. */
function mergeLabel(
  path: JsonPath,
  canvas: Canvas,
  typeLabel: (n: CanvasNode) => string,
  t: (key: string, o: Record<string, unknown>) => string,
): string {
  if (path[0] === 'nodes') {
    const n = canvas.nodes.find((x) => x.node_id === path[1]);
    const name = n ? n.node_param.title || typeLabel(n) : String(path[1]);
    const rest = path.slice(2).filter((p) => p !== 'node_param' && p !== 'settings');
    return rest.length ? `${t('editor.mergeNode', { name })} › ${rest.join(' › ')}` : t('editor.mergeNode', { name });
  }
  if (path[0] === 'links') return t('editor.mergeLink', { link: String(path[1]) });
  return path.join(' › ');
}

type Loaded = LoadedDraft;

/** The editor's page (`/workflows/:workflow_id`), or the editor held by another page (a project's tab). */
export function EditorPage(props: Partial<ResourceEditorProps>) {
  const params = useParams();
  const workflowId = props.id ?? params.workflow_id;
  // The link names the workflow's space (?space_id=), so it opens from anywhere; else the current space.
  const [search] = useSearchParams();
  const current = useSpaceId();
  const spaceId = props.spaceId ?? search.get('space_id') ?? current;
  const api = useApi();
  const { t } = useTranslation('workflow');
  const loaded = useQuery({
    queryKey: ['workflow', 'canvas', spaceId, workflowId],
    enabled: !!spaceId && !!workflowId,
    gcTime: 0,
    queryFn: async (): Promise<Loaded> => {
      const r = await api.call(GetCanvas, { space_id: spaceId ?? '', workflow_id: workflowId ?? '' });
      return {
        canvas: JSON.parse(r.workflow.schema_json) as Canvas,
        revision: r.workflow.revision,
        name: r.workflow.name,
      };
    },
  });
  const types = useQuery({
    queryKey: ['workflow', 'node_types'],
    queryFn: () => api.call(ListNodeTypes, undefined),
  });
  if (!spaceId) return <Typography.Paragraph>{t('noSpace')}</Typography.Paragraph>;
  if (loaded.isError) return <Empty description={t('editor.loadFailed')} />;
  if (!loaded.data || !types.data) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  return (
    <ReactFlowProvider>
      <Editor
        key={workflowId}
        workflowId={workflowId!}
        spaceId={spaceId}
        initial={loaded.data}
        types={types.data.node_types}
        openRun={props.embedded ? undefined : (search.get('execute_id') ?? undefined)}
        backTo={props.embedded?.backTo}
      />
    </ReactFlowProvider>
  );
}

function Editor({
  workflowId,
  spaceId,
  initial,
  types,
  openRun,
  backTo,
}: {
  workflowId: string;
  spaceId: string;
  initial: Loaded;
  types: NodeTypeInfo[];
  /** A run to show at open (?execute_id=, the open API's debug_url). */ openRun?: string;
  /** Held by another page: where the back arrow goes. */ backTo?: string;
}) {
  const { t } = useTranslation('workflow');
  const { language, mobile } = useStudio();
  // On a phone the canvas is shown, not edited: too small to drag ports and fill forms.
  const readOnly = mobile;
  const api = useApi();
  usePageTitle(initial.name);
  const clients = useRegistry(NodeTypeClients);
  // Panels other extensions add to the toolbar (the workflow's triggers ...), in their order.
  const panels = [...useRegistry(EditorPanels)].sort((a, b) => (a.order ?? 100) - (b.order ?? 100));
  const clientOf = useCallback(
    (n: CanvasNode) => clients.find((c) => c.key === typeOf(types, n)?.key),
    [clients, types],
  );
  // What is selected, measured, validated and open beside the canvas (store.ts); the draft is draft.ts's.
  const [store] = useState(() => new EditorStore(openRun ? 'run' : null));
  const selected = useEditor(store, (s) => s.selected);
  const selectedEdges = useEditor(store, (s) => s.selectedEdges);
  const sizes = useEditor(store, (s) => s.sizes);
  const flow = useReactFlow();
  // The draft: the canvas as edited here (and, edited together, by the others), undo, saving, merging.
  const {
    canvas,
    latest,
    change,
    undo,
    redo,
    canUndo,
    canRedo,
    panelPending,
    save,
    flush,
    reload,
    merging,
    setMerging,
    takeMerged,
    live,
    together,
    salt,
  } = useCanvasDraft({ spaceId, workflowId, initial, readOnly });
  // The server's validation of the canvas as it is, by node, and what each node outputs (asked a
  // moment after each change and at open).
  const problems = useEditor(store, (s) => s.problems);
  const computed = useEditor(store, (s) => s.computed);
  const validate = useCallback(
    (schema?: Canvas) => store.validate(api, spaceId, workflowId, schema),
    [store, api, spaceId, workflowId],
  );
  useEffect(() => {
    const timer = setTimeout(() => void validate(canvas).catch(() => undefined), 400);
    return () => clearTimeout(timer);
  }, [validate, canvas]);
  // What a node gives others: the outputs the user declared as they are now, or, for a type that works
  // its outputs out (from its settings), what the last validation computed.
  const lookup = useMemo(
    () => ({
      outputs: (n: CanvasNode) =>
        typeOf(types, n)?.outputs === 'computed'
          ? (computed.outputs[n.node_id] ?? n.node_param.outputs)
          : n.node_param.outputs,
      locals: (n: CanvasNode) => computed.locals[n.node_id],
    }),
    [computed, types],
  );
  useEffect(() => live.doc?.setPresence({ selection: [...selected] }), [live.doc, selected]);
  // Where this person's pointer is on the canvas, for the others.
  const liveDoc = live.doc;
  const onPointer = useCallback(
    (e: PointerMove) => liveDoc?.setPresence({ cursor: flow.screenToFlowPosition({ x: e.clientX, y: e.clientY }) }),
    [flow, liveDoc],
  );
  const onPointerOut = useCallback(() => liveDoc?.setPresence({ cursor: null }), [liveDoc]);
  const peerMarks = useMemo(() => peerSelections(live.peers), [live.peers]);

  const testRun = useTestRun(spaceId, workflowId);
  // The side panel open: the editor's own, or an extension's (`panel:<key>`).
  const side = useEditor(store, (s) => s.side);
  const extensionPanel = side?.startsWith('panel:') ? panels.find((p) => `panel:${p.key}` === side) : undefined;
  const brokenRun = useEditor(store, (s) => s.brokenRun);
  const navigate = useNavigate();
  /** Selects a node and brings it into view (from the problems list). */
  const focusNode = useCallback(
    (nodeId: string) => {
      store.select([nodeId]);
      const n = flow.getNode(nodeId);
      if (n)
        void flow.setCenter(
          n.position.x + (n.measured?.width ?? CARD_WIDTH) / 2,
          n.position.y + (n.measured?.height ?? 60) / 2,
          { zoom: Math.max(flow.getZoom(), 1), duration: 200 },
        );
    },
    [flow, store],
  );
  useEffect(() => {
    // Opened from a run's debug link: that run's results on the canvas, its output and its trace.
    // A run linked from inside the editor (a trigger's firing) opens the run panel on it too.
    if (openRun) {
      store.openSide('run');
      void testRun.open(openRun).catch(() => undefined);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [openRun]);
  const qc = useQueryClient();
  // Statuses of the draft (tested? published?), for the versions panel.
  const meta = useQuery({
    queryKey: ['workflow', 'meta', workflowId],
    enabled: side === 'versions' || !!extensionPanel,
    queryFn: async () => (await api.call(GetCanvas, { space_id: spaceId, workflow_id: workflowId })).workflow,
  });
  const runDraft = async (input: Record<string, unknown>) => {
    // A canvas with errors cannot run: say which instead of starting.
    if (errorCount > 0) return store.refuseRun();
    // A test run runs the saved draft.
    if (!(await flush())) return;
    await testRun.start(input);
    await qc.invalidateQueries({ queryKey: ['workflow', 'meta', workflowId] });
  };
  const label = (n: CanvasNode) => {
    const info = typeOf(types, n);
    return info ? (info.label[language] ?? info.label['en-US'] ?? info.key) : n.type;
  };
  // Every problem with its node's title (what the problems list and the dialog before a run show).
  const problemList = useMemo<CanvasProblem[]>(() => {
    const titles = new Map(canvas.nodes.map((n) => [n.node_id, n.node_param.title || label(n)]));
    return Object.entries(problems).flatMap(([nodeId, list]) =>
      list.map((p) => ({ ...p, node_id: nodeId, node_title: titles.get(nodeId) ?? nodeId })),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [problems, canvas.nodes]);
  const errorCount = problemList.filter((p) => p.level !== 'warning').length;
  const linksFrom = useMemo(() => {
    const m = new Map<string, CanvasLink[]>();
    for (const l of canvas.links) m.set(l.from_node_id, [...(m.get(l.from_node_id) ?? []), l]);
    return m;
  }, [canvas.links]);
  const onNoteText = useCallback(
    (id: string, text: string) => change((c) => withNoteText(c, id, text), `note:${id}`),
    [change],
  );
  // What each card shows lives in a card store, apart from the list of nodes the canvas gets: the list
  // changes only when nodes move, appear, go or change selection or size, and then only the changed
  // objects are new; editing a node (its title, a setting) updates its card alone.
  // While the canvas pans or zooms its cards take no pointer events: the browser then skips them when
  // it hit-tests each mouse move, which with hundreds of cards costs more than the frame.
  const canvasBox = useRef<HTMLDivElement>(null);
  const moveStart = useCallback(() => canvasBox.current?.classList.add('tessera-moving'), []);
  const moveEnd = useCallback(() => canvasBox.current?.classList.remove('tessera-moving'), []);
  const cards = useMemo(() => new CardStore<CardData>(), []);
  const cardCache = useRef(new Map<string, CardData>());
  const cardData = useMemo(() => {
    const next = new Map<string, CardData>();
    const names = refNames(canvas.nodes.map((n) => ({ node_id: n.node_id, node_title: n.node_param.title ?? '' })));
    for (const n of canvas.nodes) {
      const client = clientOf(n);
      const data: CardData = {
        node: n,
        links: linksFrom.get(n.node_id) ?? NO_LINKS,
        label: label(n),
        client,
        entry: typeOf(types, n)?.role === 'entry',
        problems: problems[n.node_id]?.filter((p) => p.level !== 'warning').length ?? 0,
        run: testRun.run.nodes[n.node_id],
        container: !!typeOf(types, n)?.composite,
        summary: cardSummary(n, client, names),
        peer: peerMarks.get(n.node_id),
      };
      const prev = cardCache.current.get(n.node_id);
      next.set(n.node_id, prev && sameShallow(prev, data) ? prev : data);
    }
    cardCache.current = next;
    // New and changed cards are readable at once (a new node's card renders in this pass); the others are told after it.
    cards.replace(next);
    return next;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [canvas.nodes, linksFrom, clientOf, types, language, testRun.run.nodes, problems, cards, peerMarks]);
  useLayoutEffect(() => cards.notify(), [cardData, cards]);

  const built = useRef(new Map<string, Node<NodeRef | NoteData>>());
  const lastList = useRef<Node<NodeRef | NoteData>[]>([]);
  const rfNodes = useMemo<Node<NodeRef | NoteData>[]>(() => {
    if (built.current.size > (canvas.nodes.length + (canvas.notes?.length ?? 0)) * 2) built.current.clear(); // forget deleted nodes now and then
    const absolute = new Map<string, { x: number; y: number }>();
    const list: Node<NodeRef | NoteData>[] = [
      ...notesOf(canvas).map((note): Node<NoteData> => {
        const id = `note:${note.id}`;
        return keepIfSame(built.current, {
          id,
          type: 'note',
          position: { x: note.x, y: note.y },
          width: note.width ?? NOTE_SIZE.width,
          height: note.height ?? NOTE_SIZE.height,
          zIndex: -1,
          selected: selected.has(id),
          measured: sizes[id],
          data: { note, onText: onNoteText },
        });
      }),
      ...bodyOrder(canvas.nodes).map((n): Node<NodeRef> => {
        const container = !!typeOf(types, n)?.composite;
        const parent = n.parent_id ? absolute.get(n.parent_id) : undefined;
        const at = { x: (parent?.x ?? 0) + n.layout.x, y: (parent?.y ?? 0) + n.layout.y };
        absolute.set(n.node_id, at);
        return keepIfSame(built.current, {
          id: n.node_id,
          type: 'tessera',
          position: { x: n.layout.x, y: n.layout.y },
          style: cardPlacement(at),
          selected: selected.has(n.node_id),
          measured: sizes[n.node_id],
          ...(container
            ? { width: n.layout.width ?? CONTAINER_SIZE.width, height: n.layout.height ?? CONTAINER_SIZE.height }
            : {}),
          data: NODE_REF,
          ...(n.parent_id ? { parentId: n.parent_id, extent: 'parent' as const } : {}),
        });
      }),
    ];
    // Nothing the canvas draws changed (only what cards show): hand over the same list.
    const prev = lastList.current;
    if (prev.length === list.length && list.every((x, i) => x === prev[i])) return prev;
    lastList.current = list;
    return list;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [canvas.nodes, canvas.notes, selected, sizes, types, onNoteText]);
  // A large canvas gives the library only the links being worked on; the rest are drawn in one layer.
  const layered = canvas.links.length > LINK_LAYER_FROM;
  const { rfEdges, layerLinks } = useMemo(() => {
    const active = (l: CanvasLink) =>
      !layered || selectedEdges.has(linkId(l)) || selected.has(l.from_node_id) || selected.has(l.to_node_id);
    const edges: Edge[] = [];
    const rest: LayerLink[] = [];
    for (const l of canvas.links) {
      if (active(l))
        edges.push({
          id: linkId(l),
          source: l.from_node_id,
          target: l.to_node_id,
          sourceHandle: linkPort(l),
          selected: selectedEdges.has(linkId(l)),
          style: l.type === 'error' ? { stroke: 'rgb(var(--danger-6))' } : undefined,
        });
      else
        rest.push({
          id: linkId(l),
          source: l.from_node_id,
          target: l.to_node_id,
          sourceHandle: linkPort(l) ?? null,
          error: l.type === 'error',
        });
    }
    return { rfEdges: edges, layerLinks: rest };
  }, [canvas.links, selectedEdges, selected, layered]);
  const selectLink = useCallback((id: string) => store.selectLink(id), [store]);

  const onNodesChange = useCallback(
    (changes: NodeChange<Node<NodeRef | NoteData>>[]) => {
      const plan = planNodeChanges(changes, selected);
      if (plan.selection) store.select(plan.selection);
      store.measured(plan.measured);
      if (plan.moved.size || plan.resized.size)
        change(
          (c) => placed(c, plan.moved, plan.resized),
          `move:${[...plan.moved.keys(), ...plan.resized.keys()].join(',')}`,
        );
      if (plan.removed.size) change((c) => withoutItems(c, plan.removed));
    },
    [change, selected, store],
  );
  const onEdgesChange = useCallback(
    (changes: EdgeChange[]) => {
      const plan = planEdgeChanges(changes, selectedEdges);
      if (plan.selection) store.selectEdges(plan.selection);
      if (plan.removed.size) change((c) => withoutLinks(c, plan.removed));
    },
    [change, selectedEdges, store],
  );
  const onConnect = useCallback(
    (conn: Connection) => {
      if (!conn.source || !conn.target || conn.source === conn.target) return;
      const link = makeLink(conn.source, conn.sourceHandle, conn.target);
      change((c) => withLink(c, link));
    },
    [change],
  );
  const onReconnect = useCallback(
    (old: Edge, conn: Connection) => {
      if (!conn.source || !conn.target || conn.source === conn.target) return;
      const link = makeLink(conn.source, conn.sourceHandle, conn.target);
      change((c) => relinked(c, old.id, link));
    },
    [change],
  );

  /** The container (loop, batch) at a point of the canvas, innermost first. */
  const containerAt = (p: { x: number; y: number }): CanvasNode | undefined => {
    const containers = new Set(latest.current.nodes.filter((c) => typeOf(types, c)?.composite).map((c) => c.node_id));
    const hits = flow.getNodes().filter(
      (n) =>
        containers.has(n.id) &&
        (() => {
          const abs = flow.getInternalNode(n.id)?.internals.positionAbsolute ?? n.position;
          const w = n.width ?? n.measured?.width ?? 0;
          const h = n.height ?? n.measured?.height ?? 0;
          return p.x >= abs.x && p.x <= abs.x + w && p.y >= abs.y && p.y <= abs.y + h;
        })(),
    );
    const last = hits[hits.length - 1];
    return last && latest.current.nodes.find((c) => c.node_id === last.id);
  };
  /** Adds a node of a type: at `at` (a drop), else in the middle of the view, or in the body of the selected container. */
  const add = (info: NodeTypeInfo, at?: { x: number; y: number }, param?: Partial<CanvasNode['node_param']>) => {
    const client = clients.find((c) => c.key === info.key);
    const only = selected.size === 1 ? latest.current.nodes.find((n) => selected.has(n.node_id)) : undefined;
    // Into the container dropped on, or the selected container's body, or the body the selected node is in.
    const into = at
      ? containerAt(at)
      : only && typeOf(types, only)?.composite
        ? only
        : only?.parent_id
          ? latest.current.nodes.find((n) => n.node_id === only.parent_id)
          : undefined;
    const center = at ?? flow.screenToFlowPosition({ x: window.innerWidth / 2, y: window.innerHeight / 2 });
    const absolute = (n: CanvasNode) => flow.getInternalNode(n.node_id)?.internals.positionAbsolute ?? n.layout;
    const title = info.label[language] ?? info.key;
    let id = '';
    change((c) => {
      const r = withNewNode(
        c,
        info,
        { title, ...client?.defaults?.(), ...param },
        { at, center, into, only, absolute, sizes, salt: together.current ? salt : undefined },
      );
      id = r.id;
      return r.canvas;
    });
    setTimeout(() => store.select([id]));
  };
  /** A top-level node dropped onto a container moves into its body (its links, now across levels, go). */
  const onNodeDragStop = useCallback(
    (_: unknown, dragged: Node) => {
      const n = latest.current.nodes.find((x) => x.node_id === dragged.id);
      if (!n || n.parent_id || typeOf(types, n)?.composite) return;
      const abs = flow.getInternalNode(dragged.id)?.internals.positionAbsolute ?? dragged.position;
      const target = containerAt({
        x: abs.x + (dragged.measured?.width ?? 180) / 2,
        y: abs.y + (dragged.measured?.height ?? 60) / 2,
      });
      if (!target || target.node_id === n.node_id) return;
      const at = flow.getInternalNode(target.node_id)?.internals.positionAbsolute ?? target.layout;
      change((c) => movedIntoBody(c, n.node_id, target.node_id, abs, at));
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [change, types],
  );
  const addNote = () => {
    const center = flow.screenToFlowPosition({ x: window.innerWidth / 2, y: window.innerHeight / 3 });
    const id = `n${Date.now().toString(36)}`;
    change((c) => withNote(c, { id, text: '', x: center.x, y: center.y, ...NOTE_SIZE }));
  };
  const onDrop = (e: DragEvent) => {
    const key = e.dataTransfer.getData(DRAG_TYPE);
    const info = types.find((x) => x.key === key);
    if (!info) return;
    e.preventDefault();
    add(info, flow.screenToFlowPosition({ x: e.clientX, y: e.clientY }));
  };

  const copy = useCallback(() => {
    if (!selected.size) return false;
    writeClip(copyNodes(latest.current, selected));
    return true;
  }, [selected, latest]);
  const paste = useCallback(() => {
    const clip = readClip();
    if (!clip?.nodes.length) return;
    let ids: string[] = [];
    change((c) => {
      const r = pasteNodes(c, clip, 40, together.current ? salt : undefined);
      ids = r.ids;
      return r.canvas;
    });
    setTimeout(() => store.select(ids));
  }, [change, salt, together, store]);
  const [tidyCount, setTidyCount] = useState(0);
  const tidy = () => {
    change((c) => autoLayout(c, sizes));
    setTimeout(() => setTidyCount((x) => x + 1));
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement | null;
      if (el && (el.closest('input, textarea, [contenteditable="true"]') || el.isContentEditable)) return;
      if (!(e.metaKey || e.ctrlKey)) return;
      const k = e.key.toLowerCase();
      if (k === 'z' && !e.shiftKey) undo();
      else if ((k === 'z' && e.shiftKey) || k === 'y') redo();
      else if (k === 'c') {
        if (!copy()) return;
      } else if (k === 'v') paste();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [undo, redo, copy, paste]);
  useEffect(() => {
    // A tidy-up or paste moved nodes out of view: follow them.
    void flow.fitView({ duration: 0 });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tidyCount]);

  const only = selected.size === 1 ? canvas.nodes.find((n) => selected.has(n.node_id)) : undefined;
  return (
    <div
      data-testid="workflow-editor"
      style={{ display: 'flex', flexDirection: 'column', height: backTo ? '100%' : '100vh' }}
    >
      <div
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 12,
          padding: '8px 16px',
          borderBottom: '1px solid var(--color-border-2)',
        }}
      >
        <BackLink
          to={backTo ?? '/workflows'}
          label={t('editor.back')}
          testId="editor-back"
          onClick={(e) => {
            // Save what is pending first (the draft saves itself only 0.8 s after the last change).
            e.preventDefault();
            void flush().then((ok) => ok && navigate(backTo ?? '/workflows'));
          }}
        />
        <strong style={{ minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {initial.name}
        </strong>
        {!readOnly && <SaveBadge state={save} />}
        <span style={{ flex: 1 }} />
        <LiveBar status={live.status} peers={live.peers} />
        {readOnly && (
          <Tag color="orange" data-testid="editor-read-only">
            {t('editor.readOnlyMobile')}
          </Tag>
        )}
        {!readOnly && (
          <>
            <Button.Group>
              <Button
                icon={<IconUndo />}
                disabled={!canUndo}
                onClick={undo}
                aria-label={t('editor.undo')}
                title={t('editor.undo')}
                data-testid="undo"
              />
              <Button
                icon={<IconRedo />}
                disabled={!canRedo}
                onClick={redo}
                aria-label={t('editor.redo')}
                title={t('editor.redo')}
                data-testid="redo"
              />
            </Button.Group>
            <Button icon={<IconPen />} onClick={addNote} data-testid="add-note">
              {t('editor.addNote')}
            </Button>
            <Button icon={<IconApps />} onClick={tidy} data-testid="auto-layout">
              {t('editor.tidy')}
            </Button>
            <Button
              type={side === 'problems' ? 'primary' : 'secondary'}
              status={errorCount ? 'danger' : undefined}
              onClick={() => store.toggleSide('problems')}
              data-testid="problems-toggle"
              data-count={errorCount}
            >
              {t('problems.button', { count: errorCount })}
            </Button>
            <Button
              type={side === 'versions' ? 'primary' : 'secondary'}
              onClick={() => store.toggleSide('versions')}
              data-testid="versions-toggle"
            >
              {t('versions.title')}
            </Button>
            <Button
              type={side === 'run' ? 'primary' : 'secondary'}
              onClick={() => store.toggleSide('run')}
              data-testid="test-run-toggle"
            >
              {t('run.title')}
            </Button>
            {panels.map((p) => (
              <Button
                key={p.key}
                type={side === `panel:${p.key}` ? 'primary' : 'secondary'}
                onClick={() => store.toggleSide(`panel:${p.key}`)}
                data-testid={`editor-panel-toggle-${p.key}`}
              >
                {t(p.label)}
              </Button>
            ))}
          </>
        )}
      </div>
      <div style={{ display: 'flex', flex: 1, minHeight: 0 }}>
        {!readOnly && (
          <Catalogue
            types={types}
            clients={clients}
            canvas={canvas}
            onAdd={add}
            spaceId={spaceId}
            onAddItem={(item) => {
              const info = types.find((x) => x.key === item.nodeType);
              if (info) add(info, undefined, item.param());
              else toast.error(t('editor.typeMissing', { type: item.nodeType }));
            }}
          />
        )}
        <div
          ref={canvasBox}
          style={{ flex: 1, minWidth: 0 }}
          data-testid="canvas"
          onMouseMove={live.doc ? onPointer : undefined}
          onMouseLeave={live.doc ? onPointerOut : undefined}
          onDragOver={(e) =>
            e.dataTransfer.types.includes(DRAG_TYPE) && (e.preventDefault(), (e.dataTransfer.dropEffect = 'copy'))
          }
          onDrop={onDrop}
        >
          <CardStoreContext.Provider value={cards}>
            <ReactFlow<Node<NodeRef | NoteData>, Edge>
              className="tessera-flow"
              onMoveStart={moveStart}
              onMoveEnd={moveEnd}
              nodes={rfNodes}
              edges={rfEdges}
              nodeTypes={nodeTypes}
              onNodesChange={onNodesChange}
              onEdgesChange={onEdgesChange}
              onConnect={onConnect}
              onReconnect={onReconnect}
              onNodeDragStop={onNodeDragStop}
              fitView
              minZoom={0.1}
              deleteKeyCode={readOnly ? null : DELETE_KEYS}
              nodesDraggable={!readOnly}
              nodesConnectable={!readOnly}
              elementsSelectable={!readOnly}
              multiSelectionKeyCode={MULTI_SELECT_KEYS}
              onlyRenderVisibleElements
            >
              {layered && <LinkLayer links={layerLinks} onSelect={selectLink} />}
              <PeerCursors peers={live.peers} />
              {CANVAS_DECOR}
            </ReactFlow>
          </CardStoreContext.Provider>
        </div>
        {!readOnly && (only || side) && (
          <div
            style={{
              width: 460,
              borderLeft: '1px solid var(--color-border-2)',
              display: 'flex',
              flexDirection: 'column',
              overflow: 'auto',
            }}
          >
            {side === 'versions' && !only && (
              <VersionsPanel
                spaceId={spaceId}
                workflowId={workflowId}
                draft={canvas}
                latestVersion={meta.data?.latest_version ?? null}
                tested={meta.data ? meta.data.publish_status !== 1 : true}
                beforeWrite={flush}
                onReverted={() => void reload()}
              />
            )}
            {extensionPanel && !only && (
              <extensionPanel.Component
                spaceId={spaceId}
                workflowId={workflowId}
                latestVersion={meta.data?.latest_version ?? null}
                inputs={canvas.nodes.find((n) => typeOf(types, n)?.role === 'entry')?.node_param.outputs ?? []}
              />
            )}
            {side === 'problems' && !only && <ProblemsPanel problems={problemList} onPick={focusNode} />}
            {side === 'run' && !only && (
              <TestRunPanel
                fields={canvas.nodes.find((n) => typeOf(types, n)?.role === 'entry')?.node_param.outputs ?? []}
                exitNodeId={canvas.nodes.find((n) => !n.parent_id && typeOf(types, n)?.role === 'exit')?.node_id}
                run={testRun.run}
                onRun={(input) => void runDraft(input)}
                onCancel={() => void testRun.cancel()}
                onAnswer={(a) => void testRun.answer(a)}
                spaceId={spaceId}
                workflowId={workflowId}
              />
            )}
            {side === 'run' && !only && testRun.run.executeId && testRun.run.status !== 'running' && (
              <RunTrace key={testRun.run.executeId} spaceId={spaceId} executeId={testRun.run.executeId} />
            )}
            {side === 'run' && !only && (
              <RunHistory
                spaceId={spaceId}
                workflowId={workflowId}
                current={testRun.run.executeId}
                refreshKey={`${testRun.run.executeId ?? ''}:${testRun.run.status}`}
                onOpen={(id) => void testRun.open(id)}
              />
            )}
            {only && testRun.run.nodes[only.node_id] && <NodeResult run={testRun.run.nodes[only.node_id]} />}
            {only && typeOf(types, only)?.role !== 'entry' && (
              <NodeDebug
                key={`debug-${only.node_id}`}
                spaceId={spaceId}
                workflowId={workflowId}
                node={only}
                beforeRun={flush}
              />
            )}
            {only && (
              <NodePanel
                key={only.node_id}
                node={only}
                pending={panelPending}
                client={clientOf(only)}
                typeLabel={label(only)}
                upstream={upstreamOutputs(canvas, only.node_id, lookup)}
                body={bodyOutputs(canvas, only.node_id, lookup)}
                problems={problems[only.node_id] ?? []}
                spaceId={spaceId}
                workflowId={workflowId}
                entry={typeOf(types, only)?.role === 'entry'}
                computedOutputs={
                  typeOf(types, only)?.outputs === 'computed' ? (computed.outputs[only.node_id] ?? []) : undefined
                }
                onChange={(node_param) =>
                  change(
                    (c) => ({
                      ...c,
                      nodes: c.nodes.map((n) => (n.node_id === only.node_id ? { ...n, node_param } : n)),
                    }),
                    `param:${only.node_id}`,
                  )
                }
                onDelete={() => {
                  change((c) => removeNodes(c, new Set([only.node_id])));
                  store.select([]);
                }}
              />
            )}
          </div>
        )}
      </div>
      {brokenRun && (
        <Modal
          visible
          size="small"
          title={t('problems.blockingTitle')}
          footer={null}
          onCancel={() => store.closeRefusedRun()}
        >
          <BrokenRunDialog
            problems={problemList}
            onClose={() => store.closeRefusedRun()}
            onShow={() => store.closeRefusedRun(true)}
          />
        </Modal>
      )}
      {save === 'conflict' && merging && (
        <MergeDialog
          conflicts={merging.conflicts}
          label={(path) => mergeLabel(path, merging.merged, label, (k, o) => t(k, o))}
          texts={{
            title: t('editor.conflictTitle'),
            intro: t('editor.conflict'),
            yours: t('editor.conflictMine'),
            theirs: t('editor.conflictTheirs'),
            save: t('editor.mergeSave'),
            discard: t('editor.mergeDiscard'),
          }}
          onResolve={(choices) => {
            const r = resolveCanvas(merging, choices);
            void takeMerged(r.merged, merging.theirs_revision, r.dropped);
          }}
          onDiscard={() => (setMerging(null), void reload())}
        />
      )}
    </div>
  );
}
