import { DAY_MS } from './clock.js';
import { cveCatalog } from './cve-catalog.js';
import { Random } from './random.js';

/** The demo's EPSS model version, which marks its figures as generated. */
export const demoEpssModel = 'demo';

/** The demo's KEV catalog version, which marks it as generated. */
export const demoKevCatalogVersion = 'demo';

/** How many of the catalogue's CVEs the demo's EPSS file leaves out: one in six, so that "not scored" shows beside scored ones. */
const notScoredShare = 1 / 6;

const dayText = (ms: number) => new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10);

/**
 * The demo's EPSS file, in FIRST's CSV format, for the day of `dayMs`: the catalogue's CVEs
 * (cve-catalog.ts) but a sixth, with made-up scores marked `model_version:demo` (a KEV CVE
 * scored high, another low, on a log scale as real scores spread) and their percentiles among
 * them. Generated, the same for the same day: not FIRST's figures.
 */
export function demoEpssFile(dayMs: number): string {
  const random = new Random(1, 'demo-epss');
  const scored: { id: string; epss: number }[] = [];
  for (const cve of cveCatalog) {
    const leftOut = random.chance(notScoredShare);
    // From 10^-4.3 (0.00005, FIRST's floor) up: a KEV CVE from 0.1 to 0.97.
    const exponent = cve.kev ? -1 + random.float() : -4.3 + random.float() * 3.3;
    const epss = Math.min(0.97, Number((10 ** exponent).toPrecision(4)));
    if (!leftOut) scored.push({ id: cve.id, epss });
  }
  const ranks = [...scored].sort((a, b) => a.epss - b.epss);
  const percentileOf = new Map(ranks.map((row, index) => [row.id, Number(((index + 1) / ranks.length).toFixed(5))]));
  const lines = [`#model_version:${demoEpssModel},score_date:${dayText(dayMs)}T00:00:00Z`, 'cve,epss,percentile'];
  for (const row of scored) lines.push(`${row.id},${row.epss},${percentileOf.get(row.id)}`);
  return `${lines.join('\n')}\n`;
}

/**
 * The demo's KEV catalog, in CISA's JSON format, version `demo`, released on the day of
 * `dayMs`: an entry for each catalogue CVE that CISA lists (cve-catalog.ts's `kev`), with the
 * catalogue's vendor, product and title, and made-up dates (added up to 900 days before, due 21
 * days after) and ransomware use (one in five). Generated: not CISA's entries.
 */
export function demoKevCatalog(dayMs: number): string {
  const random = new Random(1, 'demo-kev');
  const day = Math.floor(dayMs / DAY_MS) * DAY_MS;
  const vulnerabilities = cveCatalog
    .filter((cve) => cve.kev)
    .map((cve) => {
      const added = day - random.intBetween(1, 900) * DAY_MS;
      return {
        cveID: cve.id,
        vendorProject: cve.vendor,
        product: cve.product,
        vulnerabilityName: cve.title,
        dateAdded: dayText(added),
        shortDescription: cve.description,
        requiredAction: 'Apply mitigations per vendor instructions or discontinue use of the product if mitigations are unavailable.',
        dueDate: dayText(added + 21 * DAY_MS),
        knownRansomwareCampaignUse: random.chance(0.2) ? 'Known' : 'Unknown',
        notes: 'Generated for the demo organization: not an entry of CISA\'s catalog.',
        cwes: [],
      };
    });
  return JSON.stringify({
    title: 'Demo catalog of known exploited vulnerabilities (generated)',
    catalogVersion: demoKevCatalogVersion,
    dateReleased: new Date(day).toISOString(),
    count: vulnerabilities.length,
    vulnerabilities,
  });
}
