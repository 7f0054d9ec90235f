/** One documented `curl` command, as the documentation tests send it. */
export interface CurlRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** `-b FILE`: the cookie jar whose cookies it sends. */
  sendsCookiesOf: string | undefined;
  /** `-c FILE`: the cookie jar it keeps the answer's cookies in. */
  keepsCookiesIn: string | undefined;
  /** `-O`, `-J`, `-o FILE`: the body is saved as a file. */
  savesFile: boolean;
}

/**
 * Splits a shell line into words as sh does for the quoting the documents use: single quotes
 * literal, double quotes with `\"` and `\\` escapes and `$VAR` / `${VAR}` expanded from
 * `variables` (bare words too). An unknown variable throws: an example must say where each value
 * comes from.
 */
export function shellWords(line: string, variables: Record<string, string>): string[] {
  const words: string[] = [];
  let word: string | undefined;
  const expand = (text: string) =>
    text.replace(/\$(?:\{(\w+)\}|(\w+))/g, (_whole, braced: string | undefined, bare: string | undefined) => {
      const name = (braced ?? bare)!;
      if (!Object.hasOwn(variables, name)) throw new Error(`Unknown variable $${name} in: ${line}`);
      return variables[name]!;
    });
  let i = 0;
  while (i < line.length) {
    const char = line[i]!;
    if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      i++;
    } else if (char === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`Unclosed ' in: ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end + 1;
    } else if (char === '"') {
      let text = '';
      i++;
      while (i < line.length && line[i] !== '"') {
        if (line[i] === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\' || line[i + 1] === '$')) i++;
        text += line[i];
        i++;
      }
      if (i >= line.length) throw new Error(`Unclosed " in: ${line}`);
      word = (word ?? '') + expand(text);
      i++;
    } else if (char === '#' && word === undefined) {
      break;
    } else {
      const bare = /^[^\s'"]+/.exec(line.slice(i))![0];
      word = (word ?? '') + expand(bare);
      i += bare.length;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * Reads a `curl` command line of the documents: the options they use (`-s`, `-H`, `-X`, `-d`,
 * `-b`, `-c`, `-o`, `-O`, `-J`, `-OJ`) and one URL. Any other option throws, so that a document
 * cannot show a command this test does not check.
 */
export function parseCurl(line: string, variables: Record<string, string>): CurlRequest {
  const [command, ...words] = shellWords(line, variables);
  if (command !== 'curl') throw new Error(`Not a curl command: ${line}`);
  const request: CurlRequest = { method: '', url: '', headers: {}, body: undefined, sendsCookiesOf: undefined, keepsCookiesIn: undefined, savesFile: false };
  const value = (option: string) => {
    const next = words.shift();
    if (next === undefined) throw new Error(`${option} without a value in: ${line}`);
    return next;
  };
  while (words.length > 0) {
    const word = words.shift()!;
    if (word === '-s') continue;
    if (word === '-O' || word === '-J' || word === '-OJ') request.savesFile = true;
    else if (word === '-o') {
      value(word);
      request.savesFile = true;
    }
    else if (word === '-X') request.method = value(word);
    else if (word === '-d') request.body = value(word);
    else if (word === '-b') request.sendsCookiesOf = value(word);
    else if (word === '-c') request.keepsCookiesIn = value(word);
    else if (word === '-H') {
      const header = value(word);
      const colon = header.indexOf(':');
      if (colon < 1) throw new Error(`A header without a name in: ${line}`);
      request.headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (word.startsWith('-')) throw new Error(`An option the documentation tests do not know (${word}) in: ${line}`);
    else if (request.url) throw new Error(`Two URLs in: ${line}`);
    else request.url = word;
  }
  if (!request.url) throw new Error(`No URL in: ${line}`);
  request.method ||= request.body === undefined ? 'GET' : 'POST';
  return request;
}
