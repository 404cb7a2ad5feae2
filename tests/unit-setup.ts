// The unit and client projects run their files one after another in a worker that keeps its modules (vitest
// `isolate: false`, as the host and browser suites do): a test that fakes the clock and fails before it gives it
// back must not leave the next test, or the next file, on a fake one.
import { afterEach, vi } from 'vitest';

afterEach(() => {
  vi.useRealTimers();
});
