import fs from 'node:fs';
import path from 'node:path';

/** Where the decision records are, for the tests that read them: one file per record under docs/decisions/, listed by its index README.md. */
/** The one page the records were split from (issue 35); nothing may point to it any more. The only mention of it left. */
export const formerDecisionsPage = 'docs/decisions.md';
export const decisionsFolder = 'docs/decisions';
export const decisionsIndex = 'docs/decisions/README.md';

/** Every record's file under docs/decisions/, relative to `root`, the index left out. */
export function recordFiles(root: string): string[] {
  return fs
    .readdirSync(path.join(root, decisionsFolder), { recursive: true, encoding: 'utf8' })
    .map((name) => path.posix.join(decisionsFolder, name.split(path.sep).join('/')))
    .filter((name) => name.endsWith('.md') && name !== decisionsIndex);
}

/** The text of the record titled `title` (from its heading to the next record), or undefined when none has it. */
export function decisionRecordText(root: string, title: string): string | undefined {
  const heading = `# ${title}\n`;
  return recordFiles(root)
    .map((name) => fs.readFileSync(path.join(root, name), 'utf8'))
    .find((text) => text.startsWith(heading));
}
