export interface Logger {
  debug(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
  child(bindings: Record<string, unknown>): Logger;
}

export function consoleLogger(
  bindings: Record<string, unknown> = {},
  level: 'debug' | 'info' | 'warn' | 'error' | 'silent' = 'info',
): Logger {
  const order = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 };
  const out = (lvl: keyof typeof order, msg: string, data?: Record<string, unknown>) => {
    if (order[lvl] < order[level]) return;
    const line = JSON.stringify({ level: lvl, time: Date.now(), ...bindings, msg, ...data });
    (lvl === 'error' || lvl === 'warn' ? console.error : console.log)(line);
  };
  return {
    debug: (m, d) => out('debug', m, d),
    info: (m, d) => out('info', m, d),
    warn: (m, d) => out('warn', m, d),
    error: (m, d) => out('error', m, d),
    child: (b) => consoleLogger({ ...bindings, ...b }, level),
  };
}

export const silentLogger: Logger = consoleLogger({}, 'silent');
