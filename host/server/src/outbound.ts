import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// Addresses outbound HTTP from workflows may not reach unless the configuration allows private networks.
const blocked = new BlockList();
for (const [net, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4]] as const) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8], ['100::', 64], ['2001:db8::', 32]] as const) blocked.addSubnet(net, prefix, 'ipv6');

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

export class OutboundRefused extends Error {}

/**
 * Outbound HTTP for extensions (workflow nodes, plugins, model providers): http(s) only; every address
 * the host resolves to is checked and private, loopback and link-local ones are refused unless the
 * configuration allows them (or a trusted caller, such as a platform admin's model endpoint, says so).
 * Redirects are followed by hand so each hop is checked too.
 */
/** Refuses a URL that is not http(s) or whose host resolves to a private, loopback or link-local address. */
export async function checkOutbound(target: string | URL, allowPrivate: boolean): Promise<URL> {
  let parsed: URL;
  try {
    parsed = new URL(String(target));
  } catch {
    throw new OutboundRefused(`'${target}' is not a valid URL.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new OutboundRefused(`Only http and https URLs are allowed, not ${parsed.protocol}`);
  if (!allowPrivate) {
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    const addresses = isIP(host) ? [host] : (await lookup(host, { all: true }).catch(() => { throw new OutboundRefused(`The host ${host} could not be resolved.`); })).map((a) => a.address);
    const bad = addresses.find(isPrivateAddress);
    if (bad) throw new OutboundRefused(`${parsed.hostname} resolves to the private or loopback address ${bad}; outbound requests there are refused (set security.allowPrivateNetwork to allow them).`);
  }
  return parsed;
}

export function guardedFetch(allowPrivateByConfig: () => boolean) {
  return async function fetchGuarded(url: string | URL, init: RequestInit & { timeoutMs?: number; allowPrivate?: boolean } = {}): Promise<Response> {
    const allowPrivate = () => allowPrivateByConfig() || init.allowPrivate === true;
    let target = String(url);
    for (let hop = 0; hop < 5; hop++) {
      const parsed = await checkOutbound(target, allowPrivate());
      const signal = init.timeoutMs ? AbortSignal.any([...(init.signal ? [init.signal] : []), AbortSignal.timeout(init.timeoutMs)]) : init.signal;
      const { timeoutMs: _t, allowPrivate: _a, ...rest } = init;
      const res = await fetch(parsed, { ...rest, signal, redirect: 'manual' });
      if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
        target = new URL(res.headers.get('location')!, parsed).toString();
        continue;
      }
      return res;
    }
    throw new OutboundRefused('Too many redirects.');
  };
}
