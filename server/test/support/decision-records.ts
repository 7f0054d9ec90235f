import fs from 'node:fs';
import path from 'node:path';

/**
 * Where the decision records are, for the tests that read them: one file per record under
 * docs/decisions/, listed by its index README.md (issue 35), or, until that split is made, the one
 * page docs/decisions.md with its Contents block. The only file that names both layouts: the split
 * rewrites every other mention of the one page.
 */
export const decisionsPage = 'docs/decisions.md';
export const decisionsFolder = 'docs/decisions';
export const decisionsIndex = 'docs/decisions/README.md';

/** Whether the records are one file each. */
export function recordsAreSplit(root: string): boolean {
  return fs.existsSync(path.join(root, decisionsFolder));
}

/** The page a reader opens first, relative to `root`: the index, or the one page. */
export function decisionsEntry(root: string): string {
  return recordsAreSplit(root) ? decisionsIndex : decisionsPage;
}

/** Every record's file under docs/decisions/, relative to `root`, the index left out. */
export function recordFiles(root: string): string[] {
  return fs
    .readdirSync(path.join(root, decisionsFolder), { recursive: true, encoding: 'utf8' })
    .map((name) => path.posix.join(decisionsFolder, name.split(path.sep).join('/')))
    .filter((name) => name.endsWith('.md') && name !== decisionsIndex);
}

/** The text of the record titled `title` (from its heading to the next record), or undefined when none has it. */
export function decisionRecordText(root: string, title: string): string | undefined {
  if (recordsAreSplit(root)) {
    const heading = `# ${title}\n`;
    return recordFiles(root)
      .map((name) => fs.readFileSync(path.join(root, name), 'utf8'))
      .find((text) => text.startsWith(heading));
  }
  const page = fs.readFileSync(path.join(root, decisionsPage), 'utf8');
  const start = page.indexOf(`\n### ${title}\n`);
  if (start < 0) return undefined;
  const end = page.slice(start + 1).search(/\n##{1,2} /);
  return end < 0 ? page.slice(start + 1) : page.slice(start + 1, start + 1 + end);
}
