/** Constants of the floating error panel (spec 000 sections 8 and 9). */
export const POPUP_AUTO_HIDE_MS = 2000;
export const PANEL_WIDTH = 338;
export const LIST_MAX_HEIGHT = 460;
export const DRAG_THRESHOLD_PX = 3;
export const FALLBACK_SIZE = { width: 200, height: 100 };
export const COPIED_TICK_MS = 2000;
export const DEFAULT_POSITION = { corner: 'top-right' as const, x: 40, y: 40 };
export const STORAGE_PREFIX = 'error-tip-store-';
export const CHANNEL_NAME = 'error-tip-sync';
export const SYNC_LOOP_LIMIT = 50;
export const SYNC_LOOP_WINDOW_MS = 1000;
/** How many of the newest messages the popup shows; the rest are behind the "more" link. */
export const POPUP_VISIBLE = 3;
