import { orDash } from '../lib/format';

/**
 * A text a narrow table cell may cut short, whole in its tooltip; a dash when missing. Its class
 * marks the cut as deliberate (e2e/layout.spec.ts holds every other cell to showing its content whole).
 */
export function CutText({ text, className = '' }: { text: string | null | undefined; className?: string }) {
  return (
    <span className={`cut-text ${className}`.trim()} title={text ?? undefined}>
      {orDash(text)}
    </span>
  );
}
