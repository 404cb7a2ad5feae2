import { Writable } from 'node:stream';

const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
const COLORS: Record<string, string> = {
  debug: '\x1b[90m',
  info: '\x1b[36m',
  warn: '\x1b[33m',
  error: '\x1b[31m',
  fatal: '\x1b[31m',
};
const SKIP = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'v']);

/** One JSON log line as a person reads it on a terminal: `12:04:05 warn  extension 'x' disabled  extensionId=x`. */
export function prettyLine(json: string, color = true): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(json);
  } catch {
    return json;
  }
  const level = LEVELS[Number(o.level)] ?? String(o.level ?? 'info');
  const time = new Date(Number(o.time ?? Date.now())).toTimeString().slice(0, 8);
  const extra = Object.entries(o)
    .filter(([k, v]) => !SKIP.has(k) && v !== undefined && k !== 'err')
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  const err = o.err as { message?: string; stack?: string } | undefined;
  const tag = color ? `${COLORS[level] ?? ''}${level.padEnd(5)}\x1b[0m` : level.padEnd(5);
  return `${time} ${tag} ${String(o.msg ?? '')}${extra ? `  ${color ? '\x1b[90m' : ''}${extra}${color ? '\x1b[0m' : ''}` : ''}${err?.stack ? `\n${err.stack}` : err?.message ? `  ${err.message}` : ''}`;
}

/** A destination for the server's JSON log lines that writes them readably (used when stdout is a terminal). */
export function prettyStream(out: NodeJS.WriteStream = process.stdout): Writable {
  let buffer = '';
  return new Writable({
    write(chunk, _enc, done) {
      buffer += String(chunk);
      let i: number;
      while ((i = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 1);
        if (line.trim()) out.write(`${prettyLine(line, !!out.isTTY)}\n`);
      }
      done();
    },
  });
}
