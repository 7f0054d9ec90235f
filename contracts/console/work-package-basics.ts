/**
 * The values of work packages (work-packages.ts) the console's bundle reads too: free of zod.
 */

/** A ticket's status as the console tells it, whatever the ticket system calls it. */
export const ticketStatuses = ['ticketed', 'in-progress', 'done', 'wont-do'] as const;
export type TicketStatus = (typeof ticketStatuses)[number];

/** The words the console shows for each status. */
export const ticketStatusLabels: Record<TicketStatus | 'not-ticketed' | 'still-vulnerable', string> = {
  'not-ticketed': 'not yet ticketed',
  ticketed: 'ticketed',
  'in-progress': 'in progress',
  done: 'done',
  'wont-do': "won't do",
  'still-vulnerable': 'done but still vulnerable',
};

/** What the work packages can be filtered by: a status, none yet, or done but still vulnerable. */
export const workPackageStatusFilters = ['not-ticketed', ...ticketStatuses, 'still-vulnerable'] as const;
export type WorkPackageStatusFilter = (typeof workPackageStatusFilters)[number];

/** The ticket systems whose CSV exports a status import reads. */
export const ticketSystems = ['jira', 'servicenow'] as const;
export type TicketSystem = (typeof ticketSystems)[number];

/** The export's formats. */
export const workPackageExportFormats = ['jira', 'servicenow', 'json'] as const;
export type WorkPackageExportFormat = (typeof workPackageExportFormats)[number];

/** A suggested priority, as Jira names its top four. */
export const workPackagePriorities = ['highest', 'high', 'medium', 'low'] as const;
export type WorkPackagePriority = (typeof workPackagePriorities)[number];

/** `rc-` and 20 lower-case hex digits (80 bits of a SHA-256). */
export const externalIdPattern = /^rc-[0-9a-f]{20}$/;

/** Bounds of the local fields and of what a record lists. */
export const workPackageTextBounds = { owner: 200, note: 4_000, hostnamesListed: 50 } as const;

/** How a status import gave a row its status: the organization's mapping, Jira's status category, the names the import knows, or nothing. */
export const statusMappedBy = ['setting', 'status-category', 'built-in', 'none'] as const;
export type StatusMappedBy = (typeof statusMappedBy)[number];

/** How an import mapped a status, in the words of its report (the console's and the command line's). */
export const statusMappedByWords: Record<StatusMappedBy, string> = {
  setting: "by the organization's status names",
  'status-category': "by Jira's status category",
  'built-in': 'by the default workflows',
  none: 'by nothing',
};

/** The bounds of an organization's mapping of status names: names as long as a Jira status's (255), a few hundred of them. */
export const statusMappingBounds = { entries: 500, name: 255 } as const;

/** The bounds of a status import: an untrusted file. */
export const ticketStatusImportBounds = { bytes: 8 * 1024 * 1024, rows: 20_000, cell: 4_000 } as const;
