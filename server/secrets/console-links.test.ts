import { describe, expect, it } from 'vitest';
import { consoleLinks } from './console-links.js';

describe('consoleLinks', () => {
  const token = 'a'.repeat(43);

  it('names the data directory under .localhost for a loopback server, with the 127.0.0.1 link and its cost after it', () => {
    const link = consoleLinks('http://127.0.0.1:7300', 'rc-0123456789ab.localhost', token);
    expect(link.named).toBe(`http://rc-0123456789ab.localhost:7300/#token=${token}`);
    expect(link.fallback.join(' ')).toContain(`http://127.0.0.1:7300/#token=${token}`);
    expect(link.fallback.join(' ')).toContain('every other service on 127.0.0.1');
  });

  it('gives the plain link alone for a server at another machine\'s address, whose Host guard does not take the .localhost name', () => {
    const link = consoleLinks('http://192.0.2.10:7300', 'rc-0123456789ab.localhost', token);
    expect(link).toEqual({ named: `http://192.0.2.10:7300/#token=${token}`, fallback: [] });
    expect(consoleLinks('http://[::1]:7300', 'rc-0123456789ab.localhost', token).named).toContain('rc-0123456789ab.localhost:7300');
  });
});
