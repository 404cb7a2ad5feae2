// What the streaming benchmarks share: timing a streamed answer, and percentiles.

/** ms until the first chunk containing `marker`, the whole stream's ms and its text (read to its end). */
export async function timedStream(
  url: string,
  init: RequestInit,
  marker: string,
): Promise<{ first: number; total: number; text: string }> {
  const t0 = performance.now();
  const res = await fetch(url, init);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let first = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (!first && text.includes(marker)) first = performance.now() - t0;
  }
  return { first, total: performance.now() - t0, text };
}

/** The q-quantile (0.5 median, 0.95 p95 ...). */
export const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
