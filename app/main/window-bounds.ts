import type { Rectangle } from 'electron';
import type { WindowState } from './desktop-settings.js';

/** The size of a window opened for the first time. */
export const defaultWindowSize = { width: 1280, height: 800 };

// How much of the title bar must lie on a display for the user to grab and move the window.
const graspableWidth = 100;
const titleBarHeight = 40;

/**
 * Where to open the window: the saved bounds when their title bar lies on one of the displays'
 * work areas (shrunk to fit that display), otherwise the default size, centred, which also
 * covers a display unplugged since the last run.
 */
export function restoredBounds(saved: WindowState | undefined, workAreas: Rectangle[]): Partial<Rectangle> & { width: number; height: number } {
  if (saved) {
    const area = workAreas.find(
      (a) =>
        saved.y >= a.y &&
        saved.y + titleBarHeight <= a.y + a.height &&
        Math.min(saved.x + saved.width, a.x + a.width) - Math.max(saved.x, a.x) >= Math.min(graspableWidth, saved.width),
    );
    if (area) {
      return { x: saved.x, y: saved.y, width: Math.min(saved.width, area.width), height: Math.min(saved.height, area.height) };
    }
  }
  return { ...defaultWindowSize };
}
