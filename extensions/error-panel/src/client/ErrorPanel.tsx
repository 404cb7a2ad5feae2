import { Badge, Button, Link, Tooltip } from '@arco-design/web-react';
import { IconCheck, IconClose, IconCopy, IconDelete, IconExclamation } from '@arco-design/web-react/icon';
import { toast, useStudio } from '@tessera/sdk/client';
import {
  Component,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type CSSProperties,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { COPIED_TICK_MS, DEFAULT_POSITION, LIST_MAX_HEIGHT, PANEL_WIDTH, POPUP_VISIBLE } from './constants.ts';
import { clampTopLeft, isDrag, measure, snapToCorner, toTopLeft, type PanelPosition } from './drag.ts';
import { copyText, sessionId } from './messages.ts';
import type { ErrorPanelStore, PanelMessage } from './store.ts';

const NS = 'error-panel';

function anchorStyle(pos: PanelPosition): CSSProperties {
  const [v, h] = pos.corner.split('-') as ['top' | 'bottom', 'left' | 'right'];
  return { [v]: pos.y, [h]: pos.x };
}

function viewport() {
  return { width: window.innerWidth, height: window.innerHeight };
}

/** Dragging: starts past 3 px, follows the pointer inside the viewport, snaps to a corner on release. */
function useDrag(ref: React.RefObject<HTMLDivElement | null>, pos: PanelPosition, setPos: (p: PanelPosition) => void) {
  const [live, setLive] = useState<{ left: number; top: number } | null>(null);
  const suppress = useRef(false);
  const onPointerDown = (e: React.PointerEvent) => {
    if (e.button !== 0) return;
    // A new press: only the click that ends a drag is swallowed, never a later one.
    suppress.current = false;
    const size = measure(ref.current);
    const origin = ref.current
      ? { left: ref.current.getBoundingClientRect().left, top: ref.current.getBoundingClientRect().top }
      : toTopLeft(pos, size, viewport());
    const sx = e.clientX;
    const sy = e.clientY;
    let dragging = false;
    let last = origin;
    const move = (ev: PointerEvent) => {
      const dx = ev.clientX - sx;
      const dy = ev.clientY - sy;
      if (!dragging && !isDrag(dx, dy)) return;
      dragging = true;
      last = clampTopLeft({ left: origin.left + dx, top: origin.top + dy }, size, viewport());
      setLive(last);
    };
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      if (!dragging) return;
      setPos(snapToCorner(last, measure(ref.current), viewport()));
      setLive(null);
      // The click that ends a drag must not expand or press anything.
      suppress.current = true;
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };
  const onClickCapture = (e: React.MouseEvent) => {
    if (suppress.current) {
      e.stopPropagation();
      e.preventDefault();
    }
  };
  return { live, onPointerDown, onClickCapture };
}

function MessageItem({ m, onDelete, compact }: { m: PanelMessage; onDelete?: () => void; compact?: boolean }) {
  const { t } = useTranslation(NS);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_TICK_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <div className="tessera-ep-item" data-testid="error-panel-item" data-id={m.id}>
      <div className="tessera-ep-item-text">
        <div className="tessera-ep-title" data-testid="error-panel-item-title">
          {m.message}
        </div>
        {m.detail && <div className="tessera-ep-detail">{m.detail}</div>}
      </div>
      {!compact && (
        <div className="tessera-ep-actions">
          <Tooltip content={copied ? t('copied') : t('pop_up_error_7')}>
            <Button
              size="mini"
              type="text"
              aria-label={t('pop_up_error_7')}
              data-testid="error-panel-copy"
              data-copied={copied ? 'true' : 'false'}
              onClick={() => {
                void navigator.clipboard?.writeText(copyText(m, sessionId())).then(
                  () => setCopied(true),
                  (err) => console.warn('[error-panel] copy failed', err),
                );
              }}
            >
              {copied ? <IconCheck /> : <IconCopy />}
            </Button>
          </Tooltip>
          <Tooltip content={t('delete')}>
            <Button
              size="mini"
              type="text"
              aria-label={t('delete')}
              data-testid="error-panel-delete"
              onClick={onDelete}
            >
              <IconDelete />
            </Button>
          </Tooltip>
        </div>
      )}
    </div>
  );
}

export function ErrorPanel({ store }: { store: ErrorPanelStore }) {
  const { t } = useTranslation(NS);
  const snap = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const location = useLocation();
  useEffect(() => store.setPath(location.pathname), [store, location.pathname]);
  useEffect(() => store.shown(), [store]);
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<PanelPosition>(DEFAULT_POSITION);
  const drag = useDrag(ref, pos, setPos);
  if (snap.state === 'hidden') return null;

  const style: CSSProperties = {
    position: 'fixed',
    zIndex: 1100,
    touchAction: 'none',
    ...(drag.live ? { left: drag.live.left, top: drag.live.top } : anchorStyle(pos)),
  };
  const shown = snap.popup.slice(0, POPUP_VISIBLE);
  const more = snap.messages.length - shown.length;
  return (
    <div
      ref={ref}
      className={`tessera-ep tessera-ep-${snap.state}`}
      data-testid="error-panel"
      data-state={snap.state}
      data-corner={pos.corner}
      style={style}
      onPointerDown={drag.onPointerDown}
      onClickCapture={drag.onClickCapture}
    >
      {snap.state === 'collapsed' && (
        <Tooltip content={t('pop_up_error_1', { defaultValue: 'Error occurred' })} position="left">
          <Badge count={snap.messages.length} maxCount={99}>
            <button
              type="button"
              className="tessera-ep-icon"
              data-testid="error-panel-icon"
              aria-label={t('pop_up_error_1', { defaultValue: 'Error occurred' })}
              onClick={() => store.expand()}
            >
              <IconExclamation />
            </button>
          </Badge>
        </Tooltip>
      )}
      {snap.state === 'popup' && (
        <div className="tessera-ep-popup" data-testid="error-panel-popup" style={{ width: PANEL_WIDTH }}>
          {shown.map((m) => (
            <MessageItem key={m.id} m={m} compact />
          ))}
          {more > 0 && (
            <Link className="tessera-ep-more" data-testid="error-panel-more" onClick={() => store.expand()}>
              {t('pop_up_error_6', { count: more })}
            </Link>
          )}
        </div>
      )}
      {snap.state === 'expanded' && (
        <div className="tessera-ep-panel" data-testid="error-panel-expanded" style={{ width: PANEL_WIDTH }}>
          <div className="tessera-ep-header">
            <span className="tessera-ep-header-title">{t('pop_up_error_2')}</span>
            <Tooltip content={t('pop_up_error_3')}>
              <Button
                size="mini"
                type="text"
                aria-label={t('pop_up_error_3')}
                data-testid="error-panel-clear"
                onClick={() => {
                  store.clear();
                  toast.success(t('pop_up_error_8'));
                }}
              >
                <IconDelete />
              </Button>
            </Tooltip>
            <Tooltip content={t('pop_up_error_4')}>
              <Button
                size="mini"
                type="text"
                aria-label={t('pop_up_error_4')}
                data-testid="error-panel-close"
                onClick={() => store.collapse()}
              >
                <IconClose />
              </Button>
            </Tooltip>
          </div>
          <div className="tessera-ep-list" style={{ maxHeight: LIST_MAX_HEIGHT, overflowY: 'auto' }}>
            {snap.messages.map((m) => (
              <MessageItem key={m.id} m={m} onDelete={() => store.remove(m.id)} />
            ))}
          </div>
        </div>
      )}
    </div>
  );
}

/** If the panel itself crashes: a red error icon, and a report to the error sinks. */
export class PanelBoundary extends Component<
  { report(e: { source: string; message: string; error: unknown; extensionId?: string }): void; children: ReactNode },
  { crashed: boolean }
> {
  override state = { crashed: false };
  static getDerivedStateFromError() {
    return { crashed: true };
  }
  override componentDidCatch(error: Error) {
    this.props.report({
      source: 'panel',
      message: `the error panel crashed: ${error.message}`,
      error,
      extensionId: 'error-panel',
    });
  }
  override render() {
    if (this.state.crashed) {
      return (
        <div
          className="tessera-ep tessera-ep-crashed"
          data-testid="error-panel-crashed"
          title="Error occurred"
          style={{ position: 'fixed', top: DEFAULT_POSITION.y, right: DEFAULT_POSITION.x, zIndex: 1100 }}
        >
          <span className="tessera-ep-icon tessera-ep-icon-red">
            <IconExclamation />
          </span>
        </div>
      );
    }
    return this.props.children;
  }
}

export function ErrorPanelRoot({ store }: { store: ErrorPanelStore }) {
  const { report } = useStudio();
  return (
    <PanelBoundary report={report}>
      <ErrorPanel store={store} />
    </PanelBoundary>
  );
}
