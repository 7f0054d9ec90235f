import { orDash } from '../lib/format';

/**
 * A text a cell of a two-line row shows whole, wrapped over both lines where it needs them (a
 * finding's title, an OS or a product with its version after it, in smaller type); longer, it
 * is cut after the second line and whole in its tooltip. Not a `CutText`: e2e/layout.spec.ts
 * holds these to showing the demo's texts whole at 1,280 pixels.
 */
export function WrappedText({ text, minor }: { text: string | null | undefined; minor?: string | null }) {
  const whole = [text, minor].filter(Boolean).join(' ');
  return (
    <span className="wrapped-text" title={whole || undefined}>
      {orDash(text)}
      {minor ? (
        <>
          {' '}
          <span className="minor-text">{minor}</span>
        </>
      ) : null}
    </span>
  );
}
