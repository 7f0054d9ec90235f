import { describe, expect, it } from 'vitest';
import { defaultWindowSize, restoredBounds } from './window-bounds.js';

const laptop = { x: 0, y: 0, width: 1440, height: 900 };
const external = { x: 1440, y: -200, width: 2560, height: 1440 };

describe('restoredBounds', () => {
  it('keeps saved bounds that lie on a display', () => {
    expect(restoredBounds({ x: 1600, y: 0, width: 1200, height: 800, maximized: false }, [laptop, external])).toEqual({
      x: 1600,
      y: 0,
      width: 1200,
      height: 800,
    });
  });

  it('shrinks a window larger than its display', () => {
    expect(restoredBounds({ x: 0, y: 0, width: 2000, height: 1200, maximized: false }, [laptop])).toEqual({ x: 0, y: 0, width: 1440, height: 900 });
  });

  it('drops bounds on a display that is gone, or whose title bar is out of reach', () => {
    const onExternal = { x: 1600, y: 0, width: 1200, height: 800, maximized: false };
    expect(restoredBounds(onExternal, [laptop])).toEqual(defaultWindowSize);
    expect(restoredBounds({ x: 100, y: -300, width: 800, height: 600, maximized: false }, [laptop])).toEqual(defaultWindowSize);
    expect(restoredBounds({ x: 1400, y: 100, width: 800, height: 600, maximized: false }, [laptop])).toEqual(defaultWindowSize);
  });

  it('uses the default size the first time', () => {
    expect(restoredBounds(undefined, [laptop])).toEqual(defaultWindowSize);
  });
});
