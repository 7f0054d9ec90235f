import fs from 'node:fs';
import GithubSlugger from 'github-slugger';
import { type Token, type Tokens, lexer } from 'marked';

/** What the documentation tests read of one Markdown file, as GitHub renders it. */
export interface MarkdownDocument {
  /** Every link and image target, in order. */
  links: string[];
  /** The anchors of its headings, by GitHub's rules (duplicates numbered). */
  anchors: Set<string>;
  /** Fenced code blocks with their language. */
  codeBlocks: { lang: string; text: string }[];
  /** Tables under each level-2 heading (by its text): each row's cells as plain text and the inline code of its first cell. */
  tables: { heading: string; rows: { cells: string[]; firstCode: string | undefined }[] }[];
}

/** The text a reader sees of inline tokens (links by their text, code by its content). */
function plainText(tokens: Token[] | undefined): string {
  return (tokens ?? [])
    .map((token) => ('tokens' in token && token.tokens ? plainText(token.tokens) : 'text' in token ? String(token.text) : ''))
    .join('');
}

/** Calls `visit` on every token of the tree, depth first, in document order. */
function walk(tokens: readonly unknown[], visit: (token: Token) => void): void {
  for (const value of tokens) {
    if (value === null || typeof value !== 'object') continue;
    if ('type' in value) visit(value as Token);
    for (const child of Object.values(value)) {
      if (Array.isArray(child)) walk(child, visit);
      else if (child !== null && typeof child === 'object') walk([child], visit);
    }
  }
}

/** Parses a Markdown file with marked's GitHub-flavoured lexer. */
export function readMarkdown(file: string): MarkdownDocument {
  const tokens = lexer(fs.readFileSync(file, 'utf8'), { gfm: true });
  const slugger = new GithubSlugger();
  const document: MarkdownDocument = { links: [], anchors: new Set(), codeBlocks: [], tables: [] };
  let section = '';
  walk(tokens, (token) => {
    if (token.type === 'link' || token.type === 'image') document.links.push((token as Tokens.Link).href);
    if (token.type === 'code') document.codeBlocks.push({ lang: (token as Tokens.Code).lang ?? '', text: (token as Tokens.Code).text });
    if (token.type === 'heading') {
      const text = plainText((token as Tokens.Heading).tokens);
      document.anchors.add(slugger.slug(text));
      if ((token as Tokens.Heading).depth === 2) section = text;
    }
    if (token.type === 'table') {
      const table = token as Tokens.Table;
      document.tables.push({
        heading: section,
        rows: table.rows.map((cells) => ({
          cells: cells.map((cell) => plainText(cell.tokens)),
          firstCode: (cells[0]?.tokens.find((inline) => inline.type === 'codespan') as Tokens.Codespan | undefined)?.text,
        })),
      });
    }
  });
  return document;
}
