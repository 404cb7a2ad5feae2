import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// Addresses outbound HTTP from workflows may not reach unless the configuration allows private networks.
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['100::', 64],
  ['2001:db8::', 32],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** IPv6 forms that carry an IPv4 address, with where it sits: mapped and compatible (last 32 bits), NAT64 (last 32 bits), 6to4 (bits 16-48). */
const EMBEDS_V4: { net: string; prefix: number; at: 'last' | '6to4' }[] = [
  { net: '::ffff:0:0', prefix: 96, at: 'last' },
  { net: '::', prefix: 96, at: 'last' },
  { net: '64:ff9b::', prefix: 96, at: 'last' },
  { net: '64:ff9b:1::', prefix: 48, at: 'last' },
  { net: '2002::', prefix: 16, at: '6to4' },
];
const embedding = EMBEDS_V4.map((e) => {
  const list = new BlockList();
  list.addSubnet(e.net, e.prefix, 'ipv6');
  return { ...e, list };
});

/** The 16 bytes of an IPv6 address (any textual form, IPv4 tail included). */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase();
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail[1].split('.').map(Number);
    text = `${text.slice(0, -tail[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest !== undefined && rest !== '' ? rest.split(':') : [];
  const groups = rest === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.flatMap((g) => {
    const n = parseInt(g || '0', 16);
    return [n >> 8, n & 255];
  });
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  if (blocked.check(address, 'ipv6')) return true;
  // An IPv4 address inside an IPv6 one is judged as that IPv4 address.
  for (const e of embedding) {
    if (!e.list.check(address, 'ipv6')) continue;
    const b = ipv6Bytes(address);
    const v4 = e.at === '6to4' ? b.slice(2, 6) : b.slice(12, 16);
    if (e.net === '::' && v4.every((x) => x === 0)) return true;
    return blocked.check(v4.join('.'), 'ipv4');
  }
  return false;
}

export class OutboundRefused extends Error {
  readonly code = 'OUTBOUND_REFUSED';
}

const refusedAddress = (host: string, address: string) =>
  new OutboundRefused(
    `${host} resolves to the private or loopback address ${address}; outbound requests there are refused (set security.allowPrivateNetwork to allow them).`,
  );

/**
 * Hosts and networks that outbound requests may reach although they are private (an intranet API a
 * plugin calls): names match exactly (case-insensitive), addresses and CIDR ranges by address.
 */
export class OutboundAllowList {
  private names = new Set<string>();
  private nets = new BlockList();
  private any = false;
  constructor(entries: string[] = []) {
    for (const raw of entries) {
      const e = raw
        .trim()
        .toLowerCase()
        .replace(/^\[|\]$/g, '');
      if (!e) continue;
      const [net, prefix] = e.split('/');
      const family = isIP(net);
      if (family) {
        this.nets.addSubnet(net, prefix ? Number(prefix) : family === 4 ? 32 : 128, family === 4 ? 'ipv4' : 'ipv6');
        this.any = true;
      } else this.names.add(e);
    }
  }
  name(host: string): boolean {
    return this.names.has(host.toLowerCase());
  }
  address(address: string): boolean {
    const family = isIP(address);
    return this.any && family !== 0 && this.nets.check(address, family === 4 ? 'ipv4' : 'ipv6');
  }
}
const NOBODY = new OutboundAllowList();

/** Parses a URL and refuses what is not http(s); an IP literal host is judged at once (no DNS). */
function parseTarget(target: string | URL, allowPrivate: boolean, allow: OutboundAllowList = NOBODY): URL {
  let parsed: URL;
  try {
    parsed = new URL(String(target));
  } catch {
    throw new OutboundRefused(`'${target}' is not a valid URL.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new OutboundRefused(`Only http and https URLs are allowed, not ${parsed.protocol}`);
  // The URL parser has already turned 2130706433, 0x7f.1 and 017700000001 into 127.0.0.1.
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(host) && isPrivateAddress(host) && !allow.address(host))
    throw refusedAddress(parsed.hostname, host);
  return parsed;
}

/** Refuses a URL that is not http(s) or whose host resolves to a private, loopback or link-local address. */
export async function checkOutbound(
  target: string | URL,
  allowPrivate: boolean,
  allow: OutboundAllowList = NOBODY,
): Promise<URL> {
  const parsed = parseTarget(target, allowPrivate, allow);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && !isIP(host) && !allow.name(host)) {
    const addresses = (
      await lookup(host, { all: true }).catch(() => {
        throw new OutboundRefused(`The host ${host} could not be resolved.`);
      })
    ).map((a) => a.address);
    const bad = addresses.find((a) => isPrivateAddress(a) && !allow.address(a));
    if (bad) throw refusedAddress(parsed.hostname, bad);
  }
  return parsed;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

/**
 * The DNS lookup the guarded connections use: the address checked is the address connected to (no
 * window between a check and a second resolution that a rebinding name could use).
 */
export function guardedLookup(allow: OutboundAllowList = NOBODY) {
  return (hostname: string, options: { all?: boolean; family?: number } | number, callback: LookupCallback): void => {
    const opts = typeof options === 'number' ? { family: options } : (options ?? {});
    lookup(hostname, { all: true, family: (opts.family as 0 | 4 | 6 | undefined) ?? 0 }).then(
      (addresses) => {
        const bad = allow.name(hostname)
          ? undefined
          : addresses.find((a) => isPrivateAddress(a.address) && !allow.address(a.address));
        if (bad) return callback(Object.assign(refusedAddress(hostname, bad.address), { hostname }), '', 0);
        if (opts.all) return callback(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      },
      (e) => callback(e, '', 0),
    );
  };
}

export interface OutboundOptions {
  /** Redirects followed at most (each hop checked again). */
  maxRedirects: number;
  /** Largest response body read, in bytes; a longer one fails the read. */
  maxBytes: number;
  /** Private hosts and networks that may be reached all the same (security.outboundAllow). */
  allow?: string[];
}
export const OUTBOUND_DEFAULTS: OutboundOptions = { maxRedirects: 5, maxBytes: 20 * 1024 * 1024 };

let undici: Promise<typeof import('undici')> | undefined;
/** A dispatcher whose connections resolve names through guardedLookup (undici loads with the first call). */
function guardedDispatcher(allow: OutboundAllowList): () => Promise<import('undici').Dispatcher> {
  let agent: Promise<import('undici').Dispatcher> | undefined;
  return () =>
    (agent ??= (undici ??= import('undici')).then(
      (u) => new u.Agent({ connect: { lookup: guardedLookup(allow) as never } }),
    ));
}

/** A body that fails once more than `max` bytes have passed. */
function limitBody(res: Response, max: number, url: string): Response {
  const length = Number(res.headers.get('content-length') ?? NaN);
  const tooLarge = () =>
    new OutboundRefused(
      `The response from ${new URL(url).host} is larger than ${max} bytes, the limit for outbound responses.`,
    );
  if (length > max) {
    void res.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  // A declared length within the limit is held to by the HTTP client (a longer body fails the read).
  if (!res.body || (Number.isFinite(length) && !res.headers.get('content-encoding'))) return res;
  let seen = 0;
  const limited = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > max) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
  const out = new Response(limited, { status: res.status, statusText: res.statusText, headers: res.headers });
  Object.defineProperty(out, 'url', { value: res.url });
  return out;
}

export type OutboundInit = RequestInit & {
  timeoutMs?: number;
  allowPrivate?: boolean;
  maxRedirects?: number;
  maxBytes?: number;
};

/**
 * Outbound HTTP for extensions (workflow nodes, plugins, MCP servers, model providers): http(s) only; an
 * IP literal is judged before connecting and a name is resolved by the connection itself through
 * guardedLookup, which refuses private, loopback, link-local and metadata addresses (IPv4 inside IPv6
 * included) unless the configuration allows them (or a trusted caller, such as a platform admin's model
 * endpoint, says so). Redirects are followed by hand, at most `maxRedirects`, each hop checked again (a
 * 303, or a 301/302 after a POST, continues as GET; credentials are not sent to another origin). The body
 * read is limited to `maxBytes`.
 */
export function guardedFetch(allowPrivateByConfig: () => boolean, defaults: OutboundOptions = OUTBOUND_DEFAULTS) {
  const allow = new OutboundAllowList(defaults.allow);
  const dispatcher = guardedDispatcher(allow);
  return async function fetchGuarded(url: string | URL, init: OutboundInit = {}): Promise<Response> {
    const {
      timeoutMs,
      allowPrivate: allowFlag,
      maxRedirects = defaults.maxRedirects,
      maxBytes = defaults.maxBytes,
      ...rest
    } = init;
    const allowPrivate = allowPrivateByConfig() || allowFlag === true;
    const signal = timeoutMs
      ? AbortSignal.any([...(rest.signal ? [rest.signal] : []), AbortSignal.timeout(timeoutMs)])
      : rest.signal;
    let target = String(url);
    let request: RequestInit = { ...rest, signal, redirect: 'manual' };
    for (let hop = 0; hop <= maxRedirects; hop++) {
      const parsed = parseTarget(target, allowPrivate, allow);
      const guard = allowPrivate ? undefined : await dispatcher();
      let res: Response;
      try {
        res = await fetch(parsed, { ...request, ...(guard ? { dispatcher: guard } : {}) });
      } catch (e) {
        // The guarded lookup's refusal arrives as the cause of undici's "fetch failed".
        for (let x: any = e, i = 0; x && i < 4; x = x.cause, i++) if (x instanceof OutboundRefused) throw x;
        throw e;
      }
      const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
      if (location) {
        void res.body?.cancel().catch(() => undefined);
        const next = new URL(location, parsed);
        const method = (request.method ?? 'GET').toUpperCase();
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST'))
          request = { ...request, method: 'GET', body: undefined };
        if (next.origin !== parsed.origin) {
          const headers = new Headers(request.headers);
          for (const h of ['authorization', 'cookie', 'proxy-authorization']) headers.delete(h);
          request = { ...request, headers };
        }
        target = next.toString();
        continue;
      }
      return maxBytes > 0 ? limitBody(res, maxBytes, target) : res;
    }
    throw new OutboundRefused(`More than ${maxRedirects} redirects from ${String(url)}.`);
  };
}
