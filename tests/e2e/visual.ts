// Screenshots compared with the ones kept in tests/e2e/visual/ (PNG), pixel by pixel with a tolerance, so that the
// design language stays: a page that moves, grows a second title size or loses its font fails here.
// TESSERA_UPDATE_SCREENSHOTS=1 writes them anew (after a change meant to be seen); a missing one is written
// outside CI and fails in CI. What differs is kept in test-results/visual/ (the new picture and the difference).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import type { Page } from 'playwright-core';

const KEPT = path.join(import.meta.dirname, 'visual');
const OUT = path.join(import.meta.dirname, '../../test-results/visual');
/** A pixel differs when its colour is this far from the kept one (pixelmatch's YIQ distance, 0 to 1). */
const PIXEL_THRESHOLD = 0.1;
/** At most this share of the pixels may differ (anti-aliasing, a font's hinting). */
export const MAX_DIFF_RATIO = 0.0005;

/** The page once drawn: no request in flight, its fonts loaded, nothing spinning, two frames later. */
export async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page
    .locator('.arco-spin-loading, .arco-skeleton')
    .first()
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(undefined)))));
}

export interface Compared {
  name: string;
  /** Share of the pixels that differ; 0 when written anew. */
  ratio: number;
  written: boolean;
  problem?: string;
}

export async function compareScreenshot(page: Page, name: string): Promise<Compared> {
  await settled(page);
  const shot = await page.screenshot({ animations: 'disabled', caret: 'hide', scale: 'css' });
  const kept = path.join(KEPT, `${name}.png`);
  if (process.env.TESSERA_UPDATE_SCREENSHOTS === '1' || (!existsSync(kept) && !process.env.CI)) {
    mkdirSync(KEPT, { recursive: true });
    writeFileSync(kept, shot);
    return { name, ratio: 0, written: true };
  }
  if (!existsSync(kept))
    return {
      name,
      ratio: 1,
      written: false,
      problem: `no kept screenshot ${path.relative(process.cwd(), kept)}: run TESSERA_UPDATE_SCREENSHOTS=1 ./tessera test tests/e2e/visual.test.ts and commit it`,
    };
  const a = PNG.sync.read(readFileSync(kept));
  const b = PNG.sync.read(shot);
  const save = (diff?: PNG) => {
    mkdirSync(OUT, { recursive: true });
    writeFileSync(path.join(OUT, `${name}.actual.png`), shot);
    if (diff) writeFileSync(path.join(OUT, `${name}.diff.png`), PNG.sync.write(diff));
  };
  if (a.width !== b.width || a.height !== b.height) {
    save();
    return {
      name,
      ratio: 1,
      written: false,
      problem: `${name}: ${b.width}x${b.height}, the kept one is ${a.width}x${a.height}`,
    };
  }
  const diff = new PNG({ width: a.width, height: a.height });
  const differing = pixelmatch(a.data, b.data, diff.data, a.width, a.height, { threshold: PIXEL_THRESHOLD });
  const ratio = differing / (a.width * a.height);
  if (ratio > MAX_DIFF_RATIO) save(diff);
  return {
    name,
    ratio,
    written: false,
    ...(ratio > MAX_DIFF_RATIO
      ? {
          problem: `${name}: ${(ratio * 100).toFixed(2)}% of the pixels differ (at most ${(MAX_DIFF_RATIO * 100).toFixed(2)}%); see test-results/visual/${name}.diff.png`,
        }
      : {}),
  };
}
