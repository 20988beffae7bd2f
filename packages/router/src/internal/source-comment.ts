/** Text safe inside a `//` comment of generated source. */
export function comment(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]/g, ' ');
}
