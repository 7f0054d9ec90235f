import { describe, expect, it } from 'vitest';
import { PageWindow } from './page-window.js';

const KiB = 1024;

/** Sends requests while the window has room; answers how many it sent. */
function fill(window: PageWindow): number {
  let sent = 0;
  while (window.hasRoom) {
    window.enter();
    sent++;
  }
  return sent;
}

describe('the bytes a window holds', () => {
  it('count a page in flight as its cap and a page arrived as what it weighed, until the sync takes it', () => {
    // Four in flight at most, each capped at a quarter of 64 KiB.
    const window = new PageWindow(4, 4, 64 * KiB, 64 * KiB);
    expect(window.pageBytes).toBe(16 * KiB);
    expect(fill(window)).toBe(4);
    // A page of 1 KiB arrives: its cap's room is freed but for its weight, so one more may go.
    window.arrived(KiB);
    expect(fill(window)).toBe(0);
    window.arrived(KiB);
    window.arrived(KiB);
    // Three pages held (3 KiB) and one in flight (16 KiB): room for two more at their cap, not three.
    expect(fill(window)).toBe(2);
    // The sync takes them: the fourth page in flight fits again.
    window.taken(KiB);
    window.taken(KiB);
    expect(window.hasRoom).toBe(false);
    window.taken(KiB);
    expect(fill(window)).toBe(1);
  });

  it('hold at most twice the bound in pages, however light they are', () => {
    const window = new PageWindow(2, 2, 1 << 20, 1 << 20);
    let held = 0;
    for (let round = 0; round < 20; round++) {
      const sent = fill(window);
      for (let page = 0; page < sent; page++) window.arrived(100);
      held += sent;
    }
    expect(held).toBe(4);
    window.taken(100);
    expect(fill(window)).toBe(1);
  });

  it('let one page come when none is held, even one whose cap passes the bytes held', () => {
    const window = new PageWindow(4, 4, 8 * KiB, 2 * KiB);
    expect(window.heavier()).toBe(true);
    expect(window.pageBytes).toBe(8 * KiB);
    expect(fill(window)).toBe(1);
    window.failed();
    expect(fill(window)).toBe(1);
  });
});
