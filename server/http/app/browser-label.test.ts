import { describe, expect, it } from 'vitest';
import { browserLabel } from './browser-label.js';

describe('browserLabel', () => {
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36', 'Headless Chrome 156 on Linux'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0', 'Edge 131 on Windows'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0', 'Firefox 132 on Windows'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15', 'Safari 18 on macOS'],
    ['Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36', 'Chrome 131 on Android'],
    ['curl/8.5.0', 'curl/8.5.0'],
  ])('%s: %s', (userAgent, label) => {
    expect(browserLabel(userAgent)).toBe(label);
  });

  it('shortens an unknown User-Agent and leaves none as none', () => {
    expect(browserLabel('x'.repeat(500))).toHaveLength(80);
    expect(browserLabel(undefined)).toBeUndefined();
    expect(browserLabel('')).toBeUndefined();
  });
});
