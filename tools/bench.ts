// ./tessera bench <name>: benchmarks print figures and ratios against their targets; they never fail a test run.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths.ts';

export async function runBench(args: string[]): Promise<number> {
  const dir = path.join(ROOT, 'bench');
  const names = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.bench.ts'))
        .map((f) => f.replace('.bench.ts', ''))
    : [];
  const [name, ...rest] = args;
  if (!name || name === 'list') {
    console.log(`benchmarks: ${names.join(', ') || '(none)'}\nrun one: ./tessera bench <name>`);
    return name ? 0 : 2;
  }
  if (!names.includes(name)) {
    console.error(`tessera: no benchmark '${name}'. Available: ${names.join(', ')}`);
    return 2;
  }
  const mod = await import(path.join(dir, `${name}.bench.ts`));
  await mod.default(rest);
  return 0;
}
