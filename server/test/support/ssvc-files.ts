import fs from 'node:fs';
import path from 'node:path';

/** CERT/CC's two decision tables as published (CSV and JSON) with their licence: read from `../shared`, never copied into the repository. */
export const sharedSsvcDir = path.resolve(import.meta.dirname, '..', '..', '..', '..', 'shared', 'intel', 'ssvc');

/** CISA's Vulnrichment records of the demo's CVEs that have one, and four with capitalised values (snapshot of 2024-10-24). */
export const sharedVulnrichmentDir = path.resolve(import.meta.dirname, '..', '..', '..', '..', 'shared', 'intel', 'vulnrichment');

/** The shared Vulnrichment records: file name and bytes, in name order. */
export function sharedVulnrichmentFiles(): { name: string; bytes: Buffer }[] {
  return fs
    .readdirSync(sharedVulnrichmentDir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({ name, bytes: fs.readFileSync(path.join(sharedVulnrichmentDir, name)) }));
}

/** Where the Vulnrichment repository keeps a CVE's record: `2024/1xxx/CVE-2024-1086.json`. */
export function repositoryPath(fileName: string): string {
  const [, year, number] = /^CVE-(\d{4})-(\d+)\.json$/.exec(fileName)!;
  return `${year}/${number!.slice(0, -3)}xxx/${fileName}`;
}

/** A published table's CSV as rows of cells, its header first. */
export function sharedTableCsv(file: string): string[][] {
  return fs
    .readFileSync(path.join(sharedSsvcDir, file), 'utf8')
    .trim()
    .split(/\r?\n/)
    .map((line) => line.split(','));
}

/** A CVE JSON 5 record with CISA's ADP SSVC block, in Vulnrichment's form, for CVEs the shared records do not cover. */
export function vulnrichmentRecord(cveId: string, options: { Exploitation: string; Automatable: string; 'Technical Impact': string }, timestamp: string) {
  return {
    dataType: 'CVE_RECORD',
    dataVersion: '5.1',
    cveMetadata: { cveId, state: 'PUBLISHED' },
    containers: {
      cna: { providerMetadata: { shortName: 'example' } },
      adp: [
        {
          providerMetadata: { orgId: '134c704f-9b21-4f2e-91b3-4a467353bcc0', shortName: 'CISA-ADP', dateUpdated: timestamp },
          metrics: [{ other: { type: 'ssvc', content: { id: cveId, role: 'CISA Coordinator', options: Object.entries(options).map(([key, value]) => ({ [key]: value })), version: '2.0.3', timestamp } } }],
        },
      ],
    },
  };
}
