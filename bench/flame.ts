// A flame graph (SVG) of a V8 CPU profile: `TESSERA_BENCH_PROFILE=dir ./tessera bench engine` writes one
// next to the studio's profile (flame.svg). Width is inclusive time; each row a call depth; idle and
// (program) are left out. Hover a frame for its name and time.
import { readFileSync, writeFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}
interface Frame {
  name: string;
  self: number;
  total: number;
  children: Map<string, Frame>;
}

const label = (f: ProfileNode['callFrame']) => {
  const file = f.url
    .replace(/^.*\/node_modules\//, '')
    .replace(/^file:\/\/.*?\/(extensions|host|core|sdk|workflow-sdk)\//, '$1/')
    .replace(/^node:/, 'node:');
  return `${f.functionName || '(anonymous)'}${file ? ` ${file.split('/').slice(-2).join('/')}:${f.lineNumber + 1}` : ''}`;
};
const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function flameGraph(profile: Profile, title: string): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const root: Frame = { name: 'all', self: 0, total: 0, children: new Map() };
  // Merge the profile's call tree by frame name along each path.
  const walk = (id: number, into: Frame) => {
    const n = byId.get(id)!;
    const name = label(n.callFrame);
    if (name.startsWith('(idle)') || name.startsWith('(program)') || name.startsWith('(root)')) {
      for (const c of n.children ?? []) walk(c, into);
      return;
    }
    let f = into.children.get(name);
    if (!f) into.children.set(name, (f = { name, self: 0, total: 0, children: new Map() }));
    f.self += self.get(id) ?? 0;
    for (const c of n.children ?? []) walk(c, f);
  };
  walk(profile.nodes[0].id, root);
  const total = (f: Frame): number => (f.total = f.self + [...f.children.values()].reduce((s, c) => s + total(c), 0));
  total(root);
  const W = 1200;
  const H = 16;
  const rects: string[] = [];
  let depth = 0;
  const draw = (f: Frame, x: number, d: number) => {
    const w = (f.total / root.total) * W;
    if (w < 1) return;
    depth = Math.max(depth, d);
    const ms = (f.total / 1000).toFixed(1);
    const hue = f.name.includes('node:')
      ? 200
      : f.name.includes('kysely') || f.name.includes('better-sqlite3')
        ? 30
        : f.name.includes('extensions/')
          ? 10
          : 45;
    rects.push(
      `<g><title>${escape(f.name)}: ${ms} ms (${((f.total / root.total) * 100).toFixed(1)}%)</title><rect x="${x.toFixed(1)}" y="${d * H}" width="${w.toFixed(1)}" height="${H - 1}" fill="hsl(${hue},80%,${60 + (d % 3) * 6}%)"/>${w > 40 ? `<text x="${(x + 3).toFixed(1)}" y="${d * H + 11}" font-size="10" font-family="monospace">${escape(f.name.slice(0, Math.floor(w / 6.2)))}</text>` : ''}</g>`,
    );
    let cx = x;
    for (const c of [...f.children.values()].sort((a, b) => b.total - a.total)) {
      draw(c, cx, d + 1);
      cx += (c.total / root.total) * W;
    }
  };
  draw(root, 0, 0);
  const height = (depth + 1) * H + 24;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}"><text x="4" y="${height - 8}" font-size="11" font-family="sans-serif">${escape(title)} (${(root.total / 1000).toFixed(0)} ms of CPU, idle left out)</text>${rects.join('')}</svg>\n`;
}

/** node bench/flame.ts profile.cpuprofile out.svg [title] */
if (import.meta.main) {
  const [input, output, title = 'CPU profile'] = process.argv.slice(2);
  writeFileSync(output, flameGraph(JSON.parse(readFileSync(input, 'utf8')), title));
  console.log(`flame graph: ${output}`);
}
