import { orDash } from '../lib/format';

/** A text a narrow table cell may cut short, whole in its tooltip; a dash when missing. */
export function CutText({ text }: { text: string | null | undefined }) {
  return <span title={text ?? undefined}>{orDash(text)}</span>;
}
