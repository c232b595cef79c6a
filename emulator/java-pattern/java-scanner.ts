/**
 * The cursor over a Java pattern's code points, with `java.util.regex.Pattern`'s own moves (`peek`, `next`,
 * `read`, `unread`), so the translator can follow Java's parser step by step and fail where it fails.
 */

/** Why a pattern is refused: Java's syntax error, or (`unsupported`) a construct the emulator cannot run. */
export class JavaPatternError extends Error {
  readonly unsupported: boolean;

  constructor(message: string, unsupported: boolean) {
    super(message);
    this.unsupported = unsupported;
  }
}

/** Case-insensitivity and the other inline flags in effect at the cursor. */
export interface JavaFlags {
  /** `(?i)`: ASCII case-insensitive. */
  i: boolean;
  /** `(?s)`: `.` matches line terminators. */
  s: boolean;
  /** `(?m)`: `^` and `$` at line boundaries. */
  m: boolean;
  /** `(?u)`: Unicode case folding (only meaningful with `i`). */
  u: boolean;
}

/** A Java pattern being read. Past the end, the cursor reads 0, as Java's padded buffer does. */
export class JavaScanner {
  readonly points: readonly number[];
  pos = 0;
  flags: JavaFlags = { i: false, s: false, m: false, u: false };

  constructor(pattern: string) {
    this.points = Array.from(pattern, (char) => char.codePointAt(0) ?? 0);
  }

  get atEnd(): boolean {
    return this.pos >= this.points.length;
  }
  at(index: number): number {
    return this.points[index] ?? 0;
  }
  peek(): number {
    return this.at(this.pos);
  }
  next(): number {
    return this.at(++this.pos);
  }
  read(): number {
    return this.at(this.pos++);
  }
  unread(): void {
    this.pos--;
  }

  /** A syntax error, worded as Java's `PatternSyntaxException` words it. */
  error(description: string): JavaPatternError {
    return new JavaPatternError(`${description} near index ${this.pos}`, false);
  }
  /** A valid Java construct the emulator refuses to run. */
  unsupported(description: string): JavaPatternError {
    return new JavaPatternError(description, true);
  }
}

/** `\Q…\E` quoting removed the way Java does before parsing: quoted punctuation escaped, digits as `\x3d`. */
export function removeQuoting(pattern: string): string {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const char = pattern.charAt(i);
    if (char !== '\\' || i + 1 >= pattern.length) {
      out += char;
      i++;
      continue;
    }
    if (pattern.charAt(i + 1) !== 'Q') {
      out += pattern.slice(i, i + 2);
      i += 2;
      continue;
    }
    i += 2;
    while (i < pattern.length) {
      if (pattern.startsWith('\\E', i)) {
        i += 2;
        break;
      }
      const quoted = pattern.charAt(i++);
      if (/[0-9]/.test(quoted)) out += `\\x3${quoted}`;
      else if (quoted.charCodeAt(0) < 0x80 && !/[A-Za-z]/.test(quoted)) out += `\\${quoted}`;
      else out += quoted;
    }
  }
  return out;
}
