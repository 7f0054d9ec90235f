import type { ReactNode } from 'react';

/**
 * A row's action that asks first: the button (`label`, with `hiddenName` for screen readers,
 * which the row's other cells show to the eye), then, while `confirming`, the confirming
 * button (`confirmLabel`) and Cancel. The view keeps which row is confirming, so that one
 * row at a time is.
 */
export function ConfirmedAction(props: {
  confirming: boolean;
  label: string;
  hiddenName: ReactNode;
  confirmLabel: ReactNode;
  onAsk: () => void;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  if (!props.confirming) {
    return (
      <button type="button" onClick={props.onAsk}>
        {props.label}
        <span className="visually-hidden"> {props.hiddenName}</span>
      </button>
    );
  }
  return (
    <>
      <button type="button" className="danger" onClick={props.onConfirm}>
        {props.confirmLabel}
      </button>{' '}
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
    </>
  );
}
