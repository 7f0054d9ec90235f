import { describe, expect, it } from 'vitest';
import { compareVersions, parseVersion } from './version-order.js';

/**
 * Versions as products really ship them, each list oldest first: every pair of a list must
 * compare in the list's order, both ways round.
 */
const ascending: Record<string, string[]> = {
  'Chrome (four numbers, the last of different lengths)': ['109.0.5414.120', '116.0.5845.96', '116.0.5845.110', '116.0.5845.187', '117.0.5938.92', '120.0.6099.109', '141.0.7390.122'],
  'Windows builds': ['6.1.7601.24544', '10.0.17763.4499', '10.0.19045.3086', '10.0.19045.4529', '10.0.22631.2861', '10.0.26100.1742', '10.0.26100.6899', '10.0.26200.7171'],
  'Windows feature updates': ['21H2', '22H2', '23H2', '24H2'],
  'Office (Click-to-Run and MSI builds)': ['16.0.4266.1001', '16.0.5387.1000', '16.0.10337.12109', '16.0.14332.20503', '16.0.17928.20538', '16.0.18827.20176'],
  'Acrobat Reader (zero-padded middle)': ['22.003.20282', '22.003.20310', '23.001.20093', '23.006.20320', '24.002.20933'],
  'semver with pre-releases and build metadata': ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0', '1.0.1', '1.2.0', '1.10.0', '2.0.0'],
  'Python pre-releases': ['3.12.0a1', '3.12.0a7', '3.12.0b1', '3.12.0rc1', '3.12.0', '3.12.1'],
  'Tomcat milestones': ['9.0.0.M1', '9.0.0.M26', '9.0.0', '9.0.98', '9.0.102', '10.1.0-M1', '10.1.0', '10.1.34', '11.0.0-M1', '11.0.2'],
  'OpenSSL letter releases': ['1.0.1', '1.0.1a', '1.0.1f', '1.0.1g', '1.0.2', '1.0.2z', '1.0.2za', '1.0.2zd', '1.1.1', '1.1.1a', '1.1.1n', '3.0.0', '3.0.7'],
  'OpenSSH and sudo portable releases': ['8.9p1', '9.2p1', '9.3', '9.3p1', '9.3p2', '9.6', '9.6p1', '9.8p1'],
  'sudo': ['1.8.31p2', '1.9.0', '1.9.5p1', '1.9.5p2', '1.9.13p3', '1.9.15p5', '1.9.16p2'],
  'PAN-OS hotfixes': ['10.2.7', '10.2.9', '10.2.9-h1', '10.2.9-h12', '11.0.3', '11.1.2', '11.1.2-h3', '11.1.6'],
  'Ivanti Connect Secure': ['9.1R18', '9.1R18.3', '22.4R2', '22.5R2.1', '22.7R2.6'],
  'NetScaler builds': ['13.1-37.38', '13.1-49.13', '13.1-49.15', '14.1-8.50', '14.1-43.56'],
  'Debian and Ubuntu packages (epoch, ~ before the release)': [
    '2.4.62-1~deb12u2',
    '2.4.62-1',
    '2.4.65-1~deb12u1',
    '1:8.9p1-3ubuntu0.4',
    '1:8.9p1-3ubuntu0.10',
    '1:8.9p1-3ubuntu0.13',
    '1:9.2p1-2+deb12u6',
    '1:9.6p1-3ubuntu13',
    '1:9.6p1-3ubuntu13.5',
  ],
  'RHEL packages': ['5.14.0-284.11.1.el9_2', '5.14.0-362.8.1.el9_3', '5.14.0-427.13.1.el9_4', '5.14.0-570.17.1.el9_6'],
  'Linux kernels': ['5.15.0-88-generic', '5.15.0-101-generic', '6.8.0-31-generic', '6.8.0-71-generic'],
  'Java': ['1.8.0_202', '1.8.0_311', '1.8.0_441', '11.0.14.1+1', '17.0.2+8', '17.0.9+9', '17.0.14+7', '21.0.2+13'],
  'Git for Windows': ['2.34.1.windows.1', '2.39.0.windows.2', '2.43.0.windows.1', '2.51.0.windows.1'],
  'FreeBSD and Ubuntu releases with words': ['14.0-RELEASE', '14.0-RELEASE-p3', '14.1-RELEASE', '22.04.5 LTS', '24.04 LTS', '24.04.1 LTS'],
  'dates': ['2023-12-31', '2024-01-09', '2024-10-01', '20241001', '20250101'],
  'numbers beyond double precision': ['12345678901234567890', '12345678901234567891', '123456789012345678901'],
  'a leading v': ['v1.2.3', 'v1.10.0', 'v2'],
  'more numbers after the same ones': ['1', '1.0', '1.0.0', '1.0.1'],
};

describe('the order of versions', () => {
  for (const [family, versions] of Object.entries(ascending)) {
    it(`orders ${family}`, () => {
      for (let i = 0; i < versions.length; i++) {
        expect(parseVersion(versions[i]!), versions[i]).toBeDefined();
        for (let j = i + 1; j < versions.length; j++) {
          expect(compareVersions(versions[i]!, versions[j]!), `${versions[i]} < ${versions[j]}`).toBeLessThan(0);
          expect(compareVersions(versions[j]!, versions[i]!), `${versions[j]} > ${versions[i]}`).toBeGreaterThan(0);
        }
      }
      expect([...versions].reverse().sort(compareVersions)).toEqual(versions);
    });
  }

  it('does not compare Chrome versions as text', () => {
    expect(compareVersions('116.0.5845.110', '116.0.5845.96')).toBeGreaterThan(0);
    expect('116.0.5845.110' < '116.0.5845.96').toBe(true);
  });

  it('holds versions that differ only in separators, case or zero padding as one, then orders them by text', () => {
    for (const [a, b] of [
      ['1.0-rc1', '1.0.RC.1'],
      ['22.003.20310', '22.3.20310'],
      ['14.0-release', '14.0-RELEASE'],
      ['V1.2', 'v1.2'],
    ] as const) {
      expect(compareVersions(a, b), `${a} vs ${b}`).toBe(a < b ? -1 : 1);
      expect(compareVersions(b, a)).toBe(a < b ? 1 : -1);
      expect(compareVersions(a, a)).toBe(0);
    }
  });

  it('puts what does not read as a version before every version, and null before that, in a total order', () => {
    const junk = ['', '   ', 'unknown', 'latest', 'N/A', '-', '*', 'beta', 'Version 2406 (Build 17726.20160)', 'v', ':1.0'];
    for (const text of junk) expect(parseVersion(text), JSON.stringify(text)).toBeUndefined();
    const mixed = ['10.0.1', 'unknown', null, '9.8p1', '', 'latest', '1.0.0-rc.1', null, '*'];
    const sorted = [...mixed].sort(compareVersions);
    expect(sorted).toEqual([null, null, '', '*', 'latest', 'unknown', '1.0.0-rc.1', '9.8p1', '10.0.1']);
    // Whatever the input order, the same result.
    expect([...mixed].reverse().sort(compareVersions)).toEqual(sorted);
  });

  it('is a total order on a mixed sample: antisymmetric and transitive', () => {
    const sample = [...new Set([...Object.values(ascending).flat(), 'unknown', '', 'latest', 'x1', '1.0', '1.0.0', '1', '1.0-1', '1.0~1', '1.0a', '1.0-a1', '1.0.0a', '1.0.0~1'])];
    for (const a of sample) {
      for (const b of sample) {
        expect(Math.sign(compareVersions(a, b)), `${a} vs ${b}`).toBe(0 - Math.sign(compareVersions(b, a)) + 0);
        if (a !== b) expect(compareVersions(a, b)).not.toBe(0);
      }
    }
    const sorted = [...sample].sort(compareVersions);
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length; j++) expect(compareVersions(sorted[i]!, sorted[j]!), `${sorted[i]} < ${sorted[j]}`).toBeLessThan(0);
    }
  });
});
