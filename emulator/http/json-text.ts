/**
 * `JSON.stringify` for text that ends up inside a JSONP script. U+2028 and U+2029 are valid in JSON but
 * were line terminators in JavaScript before ES2019, so older script engines choke on them unescaped.
 */
export function jsonText(value: unknown): string {
  const json = JSON.stringify(value);
  return LINE_SEPARATORS.test(json) ? json.replace(LINE_SEPARATORS_ALL, escapeSeparator) : json;
}

const LINE_SEPARATORS = /[\u2028\u2029]/;
const LINE_SEPARATORS_ALL = /[\u2028\u2029]/g;
const escapeSeparator = (char: string): string => (char === '\u2028' ? '\\u2028' : '\\u2029');
