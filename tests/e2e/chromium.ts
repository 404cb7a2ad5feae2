// Debian's Chromium for the browser tests and the canvas benchmark (no test runner needed here).
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, headless, with the flags this closed network needs. */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const executablePath =
    process.env.TESSERA_CHROMIUM ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
  if (!executablePath) throw new Error('Chromium is not installed: apt-get install chromium (or set TESSERA_CHROMIUM)');
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
