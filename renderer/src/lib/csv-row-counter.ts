/**
 * Counts the records of a CSV as its text streams in: a line break inside a quoted field (a
 * description of several lines) is part of its record, not the end of one. A doubled quote
 * inside a field toggles twice, so it leaves the count as it was.
 * @returns a function fed each piece of text in order, answering the complete records so far,
 *   header included
 */
export function csvRecordCounter(): (text: string) => number {
  let quoted = false;
  let records = 0;
  const marks = /["\n]/g;
  return (text) => {
    marks.lastIndex = 0;
    for (let mark = marks.exec(text); mark; mark = marks.exec(text)) {
      if (mark[0] === '"') quoted = !quoted;
      else if (!quoted) records += 1;
    }
    return records;
  };
}
