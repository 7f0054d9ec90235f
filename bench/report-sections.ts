/**
 * The last report with the `## ` sections of a partial run put in place of the ones with the
 * same heading (a new heading is appended); the other sections and the header stay as measured.
 */
export function spliceSections(previous: string, partial: string): string {
  const sections = (text: string) => text.split(/^(?=## )/m);
  const heading = (section: string) => section.slice(0, section.indexOf('\n'));
  const fresh = new Map(sections(partial).slice(1).map((section) => [heading(section), section]));
  const kept = sections(previous).map((section) => {
    const replacement = fresh.get(heading(section));
    fresh.delete(heading(section));
    return replacement ?? section;
  });
  return [...kept, ...fresh.values()]
    .map((section) => section.replace(/\n*$/, '\n\n'))
    .join('')
    .replace(/\n*$/, '\n');
}
