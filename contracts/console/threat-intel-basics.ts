/**
 * The exploit intelligence's constants the console's bundle needs, free of zod: FIRST's
 * attribution line and how many import changes each organization keeps.
 */

/** FIRST's attribution line, which the console shows beside EPSS figures. */
export const epssAttribution = 'See EPSS at https://www.first.org/epss';

/** How many import changes are kept per organization. */
export const intelChangesKept = 30;
