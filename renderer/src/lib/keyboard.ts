import { useEffect, useEffectEvent } from 'react';

const notTyped = new Set(['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file', 'image']);

/** Whether a key event's target takes keys itself (a text field, a select): a page shortcut stays out of its way. */
export function isEditing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !notTyped.has(target.type);
}

/**
 * Whether a key event is the page shortcut `key`: not while the user types in a field, not with
 * Ctrl, Alt or Meta (the browser's and the system's shortcuts), and not when an element handled
 * the key already (`preventDefault`, as a combobox does with the Escape that closes its suggestions).
 */
export function isPageShortcut(event: KeyboardEvent, key: string): boolean {
  return event.key === key && !event.defaultPrevented && !event.ctrlKey && !event.altKey && !event.metaKey && !isEditing(event.target);
}

/** Calls `handler` when the page shortcut `key` (if any, see {@link isPageShortcut}) is pressed anywhere on the page while the component is mounted. */
export function useShortcut(key: string | undefined, handler: () => void): void {
  const onShortcut = useEffectEvent(handler);
  useEffect(() => {
    if (!key) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isPageShortcut(event, key)) return;
      event.preventDefault();
      onShortcut();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [key]);
}
