import { SPECIAL_CODES, type ReportedError } from '@tessera/sdk';
import type { PanelMessage } from './store.ts';

/** What the panel shows of a reported error, or undefined when it should not show it. */
export function toPanelMessage(e: ReportedError): Omit<PanelMessage, 'id' | 'timestamp'> | undefined {
  if (e.source === 'panel') return undefined; // the panel's own crash report
  if (e.source === 'request') {
    if (!e.api?.msg) return undefined; // only failed requests with a message
    if (SPECIAL_CODES.has(e.api.code)) return undefined; // sign-in and quota flows, not errors to read
    if (e.detail?.shown) return undefined; // the error notice showed it: one place per error
    const detail = [e.api.status, e.api.code, e.api.logId].filter((x) => x !== undefined && x !== '').join(' · ');
    return {
      message: e.api.msg,
      detail,
      copyContent: `${e.api.status} ${e.api.code} ${e.api.msg} ${e.api.logId}${e.api.url ? `\n${e.api.url}` : ''}`,
    };
  }
  const detail = [e.source, e.extensionId].filter(Boolean).join(' · ');
  const stack =
    e.error instanceof Error && e.error.stack ? `\n${e.error.stack.split('\n').slice(0, 6).join('\n')}` : '';
  return { message: e.message, detail, copyContent: `${e.message}${stack}` };
}

/** Identifies this browser tab's session in copied reports. */
export function sessionId(): string {
  const key = 'tessera-session-id';
  try {
    let id = sessionStorage.getItem(key);
    if (!id) {
      id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
      sessionStorage.setItem(key, id);
    }
    return id;
  } catch {
    return 'unknown';
  }
}

export function copyText(m: PanelMessage, session: string): string {
  return `${m.copyContent ?? [m.message, m.detail].filter(Boolean).join('\n')}\nsession: ${session}\ntime: ${new Date(m.timestamp).toISOString()}`;
}
