/**
 * Redis's glob-style pattern matching (util.c `stringmatchlen`, as KEYS, SCAN MATCH and
 * PSUBSCRIBE use it): `*` any run, `?` one character, `[abc]`, `[^abc]`, `[a-z]` classes
 * (bounds in either order), `\x` the character x. An unterminated class ends at the pattern's
 * end. Written from the algorithm's description, not copied.
 *
 * Not exponential: when the rest of the pattern after a `*` matches nowhere in the rest of the
 * text, no earlier `*` can help by matching more (Redis's `skipLongerMatches`, CVE-2022-36021,
 * in 7.0.9+), so `KEYS a*a*a*…b` answers at once; nesting deeper than 1000 `*` fails the match.
 * The empty text matches the empty pattern alone (see globMatch).
 */
export function globMatch(pattern: string, text: string): boolean {
  // stringmatchlen's loop runs while both pattern and text remain: an empty text matches the
  // empty pattern only (not `*`: `PSUBSCRIBE *` never gets `PUBLISH "" m`, `KEYS **` never lists
  // the key ""; KEYS *, SCAN MATCH * and the ACL flags allkeys/allchannels match all without it)
  if (text.length === 0) return pattern.length === 0;
  return matchFrom(pattern, 0, text, 0, 0, { skipLonger: false });
}

function matchFrom(p: string, pi: number, s: string, si: number, depth: number, state: { skipLonger: boolean }): boolean {
  if (depth > 1000) return false; // protection against abusive patterns, as Redis
  while (pi < p.length) {
    const c = p[pi];
    if (c === '*') {
      while (p[pi + 1] === '*') pi++;
      if (pi + 1 === p.length) return true;
      for (let k = si; k <= s.length; k++) {
        if (matchFrom(p, pi + 1, s, k, depth + 1, state)) return true;
        if (state.skipLonger) return false;
      }
      state.skipLonger = true;
      return false;
    }
    if (si >= s.length) return false;
    if (c === '?') {
      si++;
    } else if (c === '[') {
      pi++;
      const negate = p[pi] === '^';
      if (negate) pi++;
      let matched = false;
      for (;;) {
        if (pi >= p.length) {
          pi--; // unterminated: the class ends with the pattern
          break;
        }
        if (p[pi] === '\\' && pi + 1 < p.length) {
          pi++;
          if (p[pi] === s[si]) matched = true;
        } else if (p[pi] === ']') {
          break;
        } else if (p[pi + 1] === '-' && pi + 2 < p.length) {
          let lo = p[pi];
          let hi = p[pi + 2];
          if (lo > hi) [lo, hi] = [hi, lo];
          if (s[si] >= lo && s[si] <= hi) matched = true;
          pi += 2;
        } else if (p[pi] === s[si]) {
          matched = true;
        }
        pi++;
      }
      if (negate) matched = !matched;
      if (!matched) return false;
      si++;
    } else {
      let ch = c;
      if (c === '\\' && pi + 1 < p.length) ch = p[++pi];
      if (ch !== s[si]) return false;
      si++;
    }
    pi++;
  }
  return si === s.length;
}
