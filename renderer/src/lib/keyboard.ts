import { useEffect, useEffectEvent } from 'react';

const notTyped = new Set(['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file', 'image']);

/** Whether a key event's target takes keys itself (a text field, a select): a page shortcut stays out of its way. */
export function isEditing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !notTyped.has(target.type);
}

/**
 * Calls `handler` when `key` (if any) is pressed anywhere on the page while the component is mounted:
 * not while the user types in a field, not with Ctrl, Alt or Meta (the browser's and the
 * system's shortcuts), and not when an element handled the key already (`preventDefault`, as a
 * combobox does with the Escape that closes its suggestions).
 */
export function useShortcut(key: string | undefined, handler: () => void): void {
  const onShortcut = useEffectEvent(handler);
  useEffect(() => {
    if (!key) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== key || event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey || isEditing(event.target)) return;
      event.preventDefault();
      onShortcut();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [key]);
}
