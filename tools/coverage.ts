// Line coverage per folder (core, sdk, workflow-sdk, host/server, host/web, each extension) against the floors in
// tests/coverage-floors.json: a folder below its floor fails the run; a floor only goes up (`./tessera coverage
// --raise` lifts each floor to what the last full run measured, less a point of slack for what timing decides).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths.ts';

export const SUMMARY = path.join(ROOT, 'test-results/coverage/coverage-summary.json');
export const FLOORS = path.join(ROOT, 'tests/coverage-floors.json');
/** Points under the measured coverage a raised floor is set at: a run's paths differ a little with timing. */
const SLACK = 1;

interface Counts {
  covered: number;
  total: number;
}

/** The folder a source file's coverage counts for. */
function folderOf(file: string): string {
  const parts = path.relative(ROOT, file).split(path.sep);
  return parts[0] === 'extensions' || parts[0] === 'host' ? parts.slice(0, 2).join('/') : parts[0];
}

/** Lines covered and in all, per folder, from vitest's json-summary report. */
export function coverageByFolder(summaryFile = SUMMARY): Map<string, Counts> {
  const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as Record<string, { lines: Counts }>;
  const folders = new Map<string, Counts>();
  for (const [file, { lines }] of Object.entries(summary)) {
    if (file === 'total') continue;
    const key = folderOf(file);
    const c = folders.get(key) ?? { covered: 0, total: 0 };
    c.covered += lines.covered;
    c.total += lines.total;
    folders.set(key, c);
  }
  return folders;
}

const pct = (c: Counts) => (c.total ? (100 * c.covered) / c.total : 100);
const readFloors = (): Record<string, number> =>
  existsSync(FLOORS) ? (JSON.parse(readFileSync(FLOORS, 'utf8')) as Record<string, number>) : {};

export interface CoverageCheck {
  /** Folders under their floor, as lines to print. */
  below: string[];
  /** Folders two or more points over their floor (a raise is due), and folders with no floor yet. */
  raisable: string[];
  totalPct: number;
}

/** Compares the last run's coverage with the floors. */
export function checkCoverage(summaryFile = SUMMARY): CoverageCheck {
  const floors = readFloors();
  const folders = coverageByFolder(summaryFile);
  const below: string[] = [];
  const raisable: string[] = [];
  let covered = 0;
  let total = 0;
  for (const [folder, c] of [...folders].sort(([a], [b]) => a.localeCompare(b))) {
    covered += c.covered;
    total += c.total;
    const floor = floors[folder];
    const now = pct(c);
    if (floor === undefined) raisable.push(`${folder} ${now.toFixed(1)} % (no floor yet)`);
    else if (now < floor) below.push(`${folder} ${now.toFixed(1)} % of lines, under its floor of ${floor} %`);
    else if (now - floor >= 2 * SLACK) raisable.push(`${folder} ${now.toFixed(1)} % (floor ${floor} %)`);
  }
  return { below, raisable, totalPct: pct({ covered, total }) };
}

/** Lifts each floor to the last run's coverage less the slack (never lowers one); returns the folders raised. */
export function raiseFloors(summaryFile = SUMMARY): string[] {
  const floors = readFloors();
  const raised: string[] = [];
  for (const [folder, c] of coverageByFolder(summaryFile)) {
    const next = Math.max(0, Math.floor((pct(c) - SLACK) * 10) / 10);
    if (floors[folder] === undefined || next > floors[folder]) {
      raised.push(`${folder}: ${floors[folder] ?? 'none'} -> ${next}`);
      floors[folder] = next;
    }
  }
  const sorted = Object.fromEntries(Object.entries(floors).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(FLOORS, `${JSON.stringify(sorted, null, 2)}\n`);
  return raised;
}

/** `./tessera coverage [--raise]`: the last full run's coverage against the floors. */
export function coverageCommand(args: string[]): number {
  if (!existsSync(SUMMARY)) {
    console.error('coverage: no report yet; ./tessera test (the whole suite) writes test-results/coverage');
    return 1;
  }
  if (args.includes('--raise')) {
    const raised = raiseFloors();
    console.log(raised.length ? raised.join('\n') : 'coverage: every floor is where the last run allows');
    return 0;
  }
  for (const [folder, c] of [...coverageByFolder()].sort(([a], [b]) => a.localeCompare(b)))
    console.log(`${folder.padEnd(40)} ${pct(c).toFixed(1).padStart(5)} %  (${c.covered}/${c.total} lines)`);
  const check = checkCoverage();
  for (const b of check.below) console.log(`coverage: ${b}`);
  return check.below.length ? 1 : 0;
}
