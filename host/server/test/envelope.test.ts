import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@tessera/sdk';
import { asApiError } from '../src/http/envelope.ts';

// A dependency that drops (PostgreSQL, Redis, a store, the network) answers 503 with a code and a message
// naming it; a fault of the studio's own code stays a 500.
describe('errors of services the studio depends on', () => {
  const pgDown = Object.assign(new Error('terminating connection due to administrator command'), {
    code: '57P01',
    severity: 'FATAL',
  });
  const pgRefused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  const poolTimeout = new Error('timeout exceeded when trying to connect');
  const redis = Object.assign(new Error('Reached the max retries per request limit (which is 20).'), {
    name: 'MaxRetriesPerRequestError',
  });
  const wrapped = new Error('fetch failed', { cause: Object.assign(new Error('socket'), { code: 'UND_ERR_SOCKET' }) });
  const aggregate = new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })], 'all failed');
  it.each([
    ['PostgreSQL shutting down', pgDown, /^The database \(PostgreSQL\) cannot be reached right now/],
    [
      'PostgreSQL refusing connections',
      Object.assign(pgRefused, { severity: undefined }),
      /cannot be reached right now/,
    ],
    ['a pool that cannot connect', poolTimeout, /^The database \(PostgreSQL\) cannot be reached/],
    ['Redis gone', redis, /^The job queue \(Redis\) cannot be reached/],
    ['a socket closed under fetch', wrapped, /cannot be reached right now/],
    ['every address refused', aggregate, /cannot be reached right now/],
  ])('%s: 503 with the unavailable code', (_what, err, message) => {
    const e = asApiError(err);
    expect([e.status, e.code]).toEqual([503, ErrorCode.UNAVAILABLE]);
    expect(e.msg).toMatch(message);
    expect(e.msg).toContain('nothing was changed');
  });

  it('keeps a plain fault of the code a 500', () => {
    const e = asApiError(new TypeError("Cannot read properties of undefined (reading 'model_id')"));
    expect([e.status, e.code]).toEqual([500, ErrorCode.INTERNAL]);
  });
});
