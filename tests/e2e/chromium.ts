// Debian's Chromium for the browser tests and the benchmarks (no test runner needed here).
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * The browsers tried in turn: Debian's headless shell first (Chromium's engine without the desktop browser around
 * it, which Playwright too runs for headless tests: the same pages for about a fifth less CPU, most of it the
 * browser process's), then the full browser.
 */
export const CHROMIUM_PATHS = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** Debian's Chromium, headless, with the flags this closed network needs. */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const executablePath = process.env.TESSERA_CHROMIUM ?? CHROMIUM_PATHS.find((p) => existsSync(p));
  if (!executablePath) {
    throw new Error(
      'Chromium is not installed: apt-get install chromium-headless-shell (or chromium, or set TESSERA_CHROMIUM)',
    );
  }
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      // A fake microphone (a tone) that needs no prompt, and audio that plays without a click: the voice tests.
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      '--autoplay-policy=no-user-gesture-required',
      ...extraArgs,
    ],
  });
}
