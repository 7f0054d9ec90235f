import type { ThreatIntelKind } from '../../../contracts/console/threat-intel';

/** Each kind of intelligence file, in words. */
export const intelKindLabels: Record<ThreatIntelKind, string> = {
  epss: 'EPSS scores (FIRST)',
  'cisa-kev': 'KEV catalog (CISA)',
  'eu-kev': 'EU KEV (ENISA)',
  vulnrichment: 'Vulnrichment SSVC (CISA)',
};

/** Each KEV catalog by its source. */
export const kevSourceLabels = { cisa: 'CISA', eu: 'ENISA' } as const;

/** What a file's version is called in its kind. */
export const intelVersionLabels: Record<ThreatIntelKind, string> = { epss: 'model', 'cisa-kev': 'catalog', 'eu-kev': 'version', vulnrichment: 'SSVC' };

/** An EPSS score or change as FIRST writes it, five decimals at most. */
export const formatEpss = (value: number) => String(Math.round(value * 100_000) / 100_000);
