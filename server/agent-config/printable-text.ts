/** Text from users (organization names) made safe for XML plists and certificates. */

// eslint-disable-next-line no-control-regex
const controlCharacters = /[\u0000-\u001f\u007f-\u009f]+/g;

/**
 * The text with runs of control characters replaced by a space and trimmed: XML 1.0 cannot hold
 * most of them, and in a name shown by macOS or a certificate viewer they would only mislead.
 */
export function printableText(value: string): string {
  return value.replace(controlCharacters, ' ').trim();
}

/** Whether the text holds a control character, which no setting value may. */
export function hasControlCharacter(value: string): boolean {
  controlCharacters.lastIndex = 0;
  return controlCharacters.test(value);
}
