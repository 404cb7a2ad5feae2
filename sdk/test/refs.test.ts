import { expect, it } from 'vitest';
import { defineRouteRef, defineViewRef } from '../src/index.ts';

it('names view and route references as <extension id>.<name>, and says so for a name that is not', () => {
  expect(defineViewRef<{ spaceId: string }>('models.modelSelect')).toEqual({ id: 'models.modelSelect' });
  expect(Object.isFrozen(defineRouteRef<{ trace_id: string }>('observability.trace'))).toBe(true);
  expect(() => defineViewRef('modelSelect')).toThrow("view reference 'modelSelect': use '<extension id>.<name>'");
  expect(() => defineRouteRef('Observability.trace')).toThrow(
    "route reference 'Observability.trace': use '<extension id>.<name>'",
  );
});
