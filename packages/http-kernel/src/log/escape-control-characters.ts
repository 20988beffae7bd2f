/**
 * Characters a terminal or a text viewer acts on instead of showing: C0 controls (line breaks, ESC),
 * DEL, C1 controls (`U+009B` starts an escape sequence on many terminals), the bidirectional
 * marks, embeddings, overrides and isolates (`U+202E` shows text reversed), and the Unicode line
 * and paragraph separators.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is its purpose
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with every control character written as an escape (`\x1b`, `\u202e`), so that request data
 * quoted in a line for people (a header, a path) can neither break the line, nor colour or move
 * the terminal's cursor, nor make the line read other than it is written.
 */
export function escapeControlCharacters(text: string): string {
  CONTROL_CHARACTERS.lastIndex = 0;
  if (!CONTROL_CHARACTERS.test(text)) return text;
  return text.replace(CONTROL_CHARACTERS, (character) => {
    const code = character.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
