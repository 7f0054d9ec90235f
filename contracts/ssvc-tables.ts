/**
 * CERT/CC's two SSVC decision tables, carried as the product's own data with their version and
 * the SEI's notice: CISA's BOD 26-04 remediation timelines and the CISA Coordinator decision
 * tree. Rows are in CERT/CC's order (their CSVs, `data/` of CERTCC/SSVC);
 * server/test/ssvc-tables.test.ts checks them against the published CSVs. Free of zod, for
 * the renderer's bundle.
 *
 * Notice (the SEI's licence asks that it be kept): Copyright 2026 Carnegie Mellon University.
 * Licensed under a MIT (SEI)-style license. Permission is hereby granted, free of charge, to any
 * person obtaining a copy of this software and associated documentation files (the "Software"),
 * to deal in the Software without restriction, including without limitation the rights to use,
 * copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and
 * to permit persons to whom the Software is furnished to do so, subject to the following
 * conditions: The above copyright notice and this permission notice shall be included in all
 * copies or substantial portions of the Software. NO WARRANTY. THIS CARNEGIE MELLON UNIVERSITY
 * AND SOFTWARE ENGINEERING INSTITUTE MATERIAL IS FURNISHED ON AN "AS-IS" BASIS. CARNEGIE MELLON
 * UNIVERSITY MAKES NO WARRANTIES OF ANY KIND, EITHER EXPRESSED OR IMPLIED, AS TO ANY MATTER
 * INCLUDING, BUT NOT LIMITED TO, WARRANTY OF FITNESS FOR PURPOSE OR MERCHANTABILITY, EXCLUSIVITY,
 * OR RESULTS OBTAINED FROM USE OF THE MATERIAL. [DISTRIBUTION STATEMENT A] This material has been
 * approved for public release and unlimited distribution. DM24-0278.
 */

/** The notice the console shows beside the tables' outcomes. */
export const ssvcNotice = 'SSVC decision tables © 2026 Carnegie Mellon University, MIT (SEI)-style licence (CERT/CC, DM24-0278).';

/** BOD 26-04's five outcomes, the most urgent first. */
export const bod2604Outcomes = ['3 days & forensic investigation', '3 days', '14 days', '60 days', 'fix on system upgrade'] as const;
export type Bod2604Outcome = (typeof bod2604Outcomes)[number];

/** The CISA Coordinator's four decisions, the least urgent first. */
export const ssvcDecisions = ['track', 'track*', 'attend', 'act'] as const;
export type SsvcDecision = (typeof ssvcDecisions)[number];

/** The days of each outcome; null for "fix on system upgrade", which has no date. */
export const bod2604OutcomeDays: Readonly<Record<Bod2604Outcome, number | null>> = {
  '3 days & forensic investigation': 3,
  '3 days': 3,
  '14 days': 14,
  '60 days': 60,
  'fix on system upgrade': null,
};

/** The values of the tables' decision points, as CERT/CC writes them. */
export const yesNo = ['no', 'yes'] as const;
export const technicalImpacts = ['partial', 'total'] as const;
export const exploitations = ['none', 'public poc', 'active'] as const;
export const missionImpacts = ['low', 'medium', 'high'] as const;
export type YesNo = (typeof yesNo)[number];
export type TechnicalImpact = (typeof technicalImpacts)[number];
export type Exploitation = (typeof exploitations)[number];
export type MissionImpact = (typeof missionImpacts)[number];

/** The BOD 26-04 table: its key, version and rows `[In KEV, Publicly Exposed, Automatable, Technical Impact, outcome]`. */
export const bod2604Table = {
  key: 'cisa:DT_BOD2604',
  version: '1.0.0',
  name: 'CISA BOD 26-04',
  rows: [
    ['no', 'no', 'no', 'partial', 'fix on system upgrade'],
    ['yes', 'no', 'no', 'partial', '14 days'],
    ['no', 'yes', 'no', 'partial', '60 days'],
    ['no', 'no', 'yes', 'partial', '60 days'],
    ['no', 'no', 'no', 'total', 'fix on system upgrade'],
    ['yes', 'yes', 'no', 'partial', '14 days'],
    ['yes', 'no', 'yes', 'partial', '14 days'],
    ['no', 'yes', 'yes', 'partial', '14 days'],
    ['yes', 'no', 'no', 'total', '14 days'],
    ['no', 'yes', 'no', 'total', '14 days'],
    ['no', 'no', 'yes', 'total', '60 days'],
    ['yes', 'yes', 'yes', 'partial', '3 days'],
    ['yes', 'yes', 'no', 'total', '3 days & forensic investigation'],
    ['yes', 'no', 'yes', 'total', '3 days & forensic investigation'],
    ['no', 'yes', 'yes', 'total', '3 days'],
    ['yes', 'yes', 'yes', 'total', '3 days & forensic investigation'],
  ] as const satisfies readonly (readonly [YesNo, YesNo, YesNo, TechnicalImpact, Bod2604Outcome])[],
} as const;

/** The Coordinator tree: its key, version and rows `[Exploitation, Automatable, Technical Impact, Mission and Well-Being, decision]`. */
export const coordinatorTable = {
  key: 'cisa:DT_CO',
  version: '2.0.3',
  name: 'CISA Coordinator',
  rows: [
    ['none', 'no', 'partial', 'low', 'track'],
    ['none', 'no', 'partial', 'medium', 'track'],
    ['none', 'no', 'partial', 'high', 'track'],
    ['none', 'no', 'total', 'low', 'track'],
    ['none', 'no', 'total', 'medium', 'track'],
    ['none', 'no', 'total', 'high', 'track*'],
    ['none', 'yes', 'partial', 'low', 'track'],
    ['none', 'yes', 'partial', 'medium', 'track'],
    ['none', 'yes', 'partial', 'high', 'attend'],
    ['none', 'yes', 'total', 'low', 'track'],
    ['none', 'yes', 'total', 'medium', 'track'],
    ['none', 'yes', 'total', 'high', 'attend'],
    ['public poc', 'no', 'partial', 'low', 'track'],
    ['public poc', 'no', 'partial', 'medium', 'track'],
    ['public poc', 'no', 'partial', 'high', 'track*'],
    ['public poc', 'no', 'total', 'low', 'track'],
    ['public poc', 'no', 'total', 'medium', 'track*'],
    ['public poc', 'no', 'total', 'high', 'attend'],
    ['public poc', 'yes', 'partial', 'low', 'track'],
    ['public poc', 'yes', 'partial', 'medium', 'track'],
    ['public poc', 'yes', 'partial', 'high', 'attend'],
    ['public poc', 'yes', 'total', 'low', 'track'],
    ['public poc', 'yes', 'total', 'medium', 'track*'],
    ['public poc', 'yes', 'total', 'high', 'attend'],
    ['active', 'no', 'partial', 'low', 'track'],
    ['active', 'no', 'partial', 'medium', 'track'],
    ['active', 'no', 'partial', 'high', 'attend'],
    ['active', 'no', 'total', 'low', 'track'],
    ['active', 'no', 'total', 'medium', 'attend'],
    ['active', 'no', 'total', 'high', 'act'],
    ['active', 'yes', 'partial', 'low', 'attend'],
    ['active', 'yes', 'partial', 'medium', 'attend'],
    ['active', 'yes', 'partial', 'high', 'act'],
    ['active', 'yes', 'total', 'low', 'attend'],
    ['active', 'yes', 'total', 'medium', 'act'],
    ['active', 'yes', 'total', 'high', 'act'],
  ] as const satisfies readonly (readonly [Exploitation, YesNo, TechnicalImpact, MissionImpact, SsvcDecision])[],
} as const;

/** BOD 26-04's outcome of four known inputs. */
export function bod2604OutcomeOf(inKev: YesNo, exposed: YesNo, automatable: YesNo, impact: TechnicalImpact): Bod2604Outcome {
  return bod2604Table.rows.find((row) => row[0] === inKev && row[1] === exposed && row[2] === automatable && row[3] === impact)![4];
}

/** The Coordinator's decision of four known inputs. */
export function coordinatorDecisionOf(exploitation: Exploitation, automatable: YesNo, impact: TechnicalImpact, mission: MissionImpact): SsvcDecision {
  return coordinatorTable.rows.find((row) => row[0] === exploitation && row[1] === automatable && row[2] === impact && row[3] === mission)![4];
}
