import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// Addresses outbound HTTP from workflows may not reach unless the configuration allows private networks.
const blocked = new BlockList();
for (const [net, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4]] as const) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) blocked.addSubnet(net, prefix, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const v4mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (v4mapped) return blocked.check(v4mapped[1], 'ipv4');
  const family = isIP(address);
  return family === 4 ? blocked.check(address, 'ipv4') : family === 6 ? blocked.check(address, 'ipv6') : true;
}

export class OutboundRefused extends Error {}

/**
 * Outbound HTTP for extensions (workflow nodes, plugins, model providers): http(s) only; every address
 * the host resolves to is checked and private, loopback and link-local ones are refused unless the
 * configuration allows them (or a trusted caller, such as a platform admin's model endpoint, says so).
 * Redirects are followed by hand so each hop is checked too.
 */
export function guardedFetch(allowPrivateByConfig: () => boolean) {
  return async function fetchGuarded(url: string | URL, init: RequestInit & { timeoutMs?: number; allowPrivate?: boolean } = {}): Promise<Response> {
    const allowPrivate = () => allowPrivateByConfig() || init.allowPrivate === true;
    let target = String(url);
    for (let hop = 0; hop < 5; hop++) {
      let parsed: URL;
      try {
        parsed = new URL(target);
      } catch {
        throw new OutboundRefused(`'${target}' is not a valid URL.`);
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new OutboundRefused(`Only http and https URLs are allowed, not ${parsed.protocol}`);
      if (!allowPrivate()) {
        const host = parsed.hostname.replace(/^\[|\]$/g, '');
        const addresses = isIP(host) ? [host] : (await lookup(host, { all: true }).catch(() => { throw new OutboundRefused(`The host ${host} could not be resolved.`); })).map((a) => a.address);
        const bad = addresses.find(isPrivateAddress);
        if (bad) throw new OutboundRefused(`${parsed.hostname} resolves to the private or loopback address ${bad}; outbound requests there are refused (set security.allowPrivateNetwork to allow them).`);
      }
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
