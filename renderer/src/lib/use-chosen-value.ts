import { useState } from 'react';

/**
 * What a control whose value lives elsewhere (the URL) shows: the user's choice at once, then
 * `value` whenever it changes. The router applies a URL change in a transition, which React
 * renders when it can; a control given `value` alone snaps back to the old one meanwhile (an
 * unchecked box shows checked again until the list behind it has rendered).
 */
export function useChosenValue<T>(value: T): [T, (chosen: T) => void] {
  const [chosen, setChosen] = useState(value);
  // A value changed elsewhere (Back, a link, the change chosen here arriving) replaces the choice.
  const [followed, setFollowed] = useState(value);
  if (followed !== value) {
    setFollowed(value);
    setChosen(value);
  }
  return [chosen, setChosen];
}
