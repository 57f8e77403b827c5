import { RE2JS } from 're2js';

/**
 * A `$regex` pattern compiled for RE2 (linear-time matching), so a pattern such as `(a+)+$` cannot make one request
 * hold the process. Throws on anything mongo would reject (bad pattern, unknown option, non-string) and on patterns
 * longer than `maxLength`, which bounds compile time; the caller treats a throw as an incorrect filter.
 */
export function compileSafeRegex(pattern: unknown, options: unknown, maxLength: number): RE2JS {
  if (typeof pattern !== 'string') throw new Error('$regex has to be a string');
  if (options !== undefined && typeof options !== 'string') throw new Error('$options has to be a string');
  let flags = 0;
  let extended = false;
  for (const option of options ?? '') {
    switch (option) {
      case 'i':
        flags |= RE2JS.CASE_INSENSITIVE;
        break;
      case 'm':
        flags |= RE2JS.MULTILINE;
        break;
      case 's':
        flags |= RE2JS.DOTALL;
        break;
      case 'x':
        extended = true;
        break;
      case 'u':
        // RE2 always matches by code point.
        break;
      default:
        throw new Error(`invalid flag in regex options: ${option}`);
    }
  }
  const source = extended ? stripExtended(pattern) : pattern;
  if (source.length > maxLength) throw new Error(`$regex pattern longer than ${maxLength} characters`);
  return RE2JS.compile(source, flags);
}

/**
 * Mongo's `x` option (PCRE extended mode), which RE2 lacks: unescaped white space outside a character class is
 * dropped, and an unescaped `#` outside a class starts a comment that runs to the end of the line.
 */
function stripExtended(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      out += c + (pattern[i + 1] ?? '');
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
      // A `]` right after `[` or `[^` is a literal member of the class.
      if (pattern[i + 1] === '^') out += pattern[++i];
      if (pattern[i + 1] === ']') out += pattern[++i];
    } else if (c === '#') {
      while (i + 1 < pattern.length && pattern[i + 1] !== '\n') i++;
    } else if (!/\s/.test(c)) {
      out += c;
    }
  }
  return out;
}
