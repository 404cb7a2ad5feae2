import { DRAG_THRESHOLD_PX, FALLBACK_SIZE } from './constants.ts';

export type Corner = 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';

/** Where the panel sits: a corner and its distances from that corner's two edges. */
export interface PanelPosition {
  corner: Corner;
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

/** A drag starts after more than 3 px of movement. */
export function isDrag(dx: number, dy: number, threshold = DRAG_THRESHOLD_PX): boolean {
  return Math.hypot(dx, dy) > threshold;
}

/** The element's size, or 200x100 when it cannot be measured. */
export function measure(
  el: { getBoundingClientRect?: () => { width: number; height: number } } | null | undefined,
): Size {
  const r = el?.getBoundingClientRect?.();
  return r && r.width > 0 && r.height > 0 ? { width: r.width, height: r.height } : { ...FALLBACK_SIZE };
}

/** Top-left pixel coordinates of a position, for a given element and viewport size. */
export function toTopLeft(pos: PanelPosition, size: Size, viewport: Size): { left: number; top: number } {
  const left = pos.corner.endsWith('left') ? pos.x : viewport.width - size.width - pos.x;
  const top = pos.corner.startsWith('top') ? pos.y : viewport.height - size.height - pos.y;
  return clampTopLeft({ left, top }, size, viewport);
}

/** Keeps the element inside the viewport, at least 0 from every edge. */
export function clampTopLeft(
  p: { left: number; top: number },
  size: Size,
  viewport: Size,
): { left: number; top: number } {
  return {
    left: Math.max(0, Math.min(p.left, viewport.width - size.width)),
    top: Math.max(0, Math.min(p.top, viewport.height - size.height)),
  };
}

/** On release: the nearest corner (by the element's centre) and the distances from its edges, never below 0. */
export function snapToCorner(topLeft: { left: number; top: number }, size: Size, viewport: Size): PanelPosition {
  const p = clampTopLeft(topLeft, size, viewport);
  const cx = p.left + size.width / 2;
  const cy = p.top + size.height / 2;
  const horizontal = cx < viewport.width / 2 ? 'left' : 'right';
  const vertical = cy < viewport.height / 2 ? 'top' : 'bottom';
  const x = horizontal === 'left' ? p.left : viewport.width - size.width - p.left;
  const y = vertical === 'top' ? p.top : viewport.height - size.height - p.top;
  return { corner: `${vertical}-${horizontal}` as Corner, x: Math.max(0, x), y: Math.max(0, y) };
}
