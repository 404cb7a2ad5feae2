import { describe, expect, it } from 'vitest';
import { clampTopLeft, isDrag, measure, snapToCorner, toTopLeft } from '../src/client/drag.ts';

const viewport = { width: 1000, height: 800 };
const size = { width: 40, height: 40 };

describe('drag maths', () => {
  it('starts a drag only after more than 3 px of movement', () => {
    expect(isDrag(3, 0)).toBe(false);
    expect(isDrag(2, 2)).toBe(false);
    expect(isDrag(3, 1)).toBe(true);
    expect(isDrag(0, -4)).toBe(true);
  });

  it('snaps to the nearest corner and keeps the distance from its edges', () => {
    expect(snapToCorner({ left: 100, top: 120 }, size, viewport)).toEqual({ corner: 'top-left', x: 100, y: 120 });
    expect(snapToCorner({ left: 900, top: 30 }, size, viewport)).toEqual({ corner: 'top-right', x: 60, y: 30 });
    expect(snapToCorner({ left: 10, top: 700 }, size, viewport)).toEqual({ corner: 'bottom-left', x: 10, y: 60 });
    expect(snapToCorner({ left: 950, top: 750 }, size, viewport)).toEqual({ corner: 'bottom-right', x: 10, y: 10 });
  });

  it('never leaves the viewport: positions are at least 0 from the edges', () => {
    expect(snapToCorner({ left: -50, top: -20 }, size, viewport)).toEqual({ corner: 'top-left', x: 0, y: 0 });
    expect(snapToCorner({ left: 5000, top: 5000 }, size, viewport)).toEqual({ corner: 'bottom-right', x: 0, y: 0 });
    expect(clampTopLeft({ left: -1, top: 900 }, size, viewport)).toEqual({ left: 0, top: 760 });
  });

  it('places the default position 40/40 from the top-right corner', () => {
    expect(toTopLeft({ corner: 'top-right', x: 40, y: 40 }, size, viewport)).toEqual({ left: 920, top: 40 });
  });

  it('falls back to 200x100 when the element cannot be measured', () => {
    expect(measure(null)).toEqual({ width: 200, height: 100 });
    expect(measure({ getBoundingClientRect: () => ({ width: 0, height: 0 }) })).toEqual({ width: 200, height: 100 });
    expect(measure({ getBoundingClientRect: () => ({ width: 338, height: 120 }) })).toEqual({
      width: 338,
      height: 120,
    });
  });
});
