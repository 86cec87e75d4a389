/**
 * Redis glob matching (util.c `stringmatchlen`): `*`, `?`, `[abc]`, `[^a-z]`, `\x` escapes.
 * Used for CONFIG GET patterns and pub/sub patterns. Iterative with backtracking on the last `*`
 * (linear in practice, no exponential blow-up on patterns like `a*a*a*b`).
 */
export function globMatch(pattern: string, text: string, nocase = false): boolean {
  const low = (c: string) => (nocase ? c.toLowerCase() : c);
  let p = 0;
  let t = 0;
  let starP = -1;
  let starT = -1;
  while (t < text.length) {
    if (p < pattern.length) {
      const pc = pattern[p];
      if (pc === '*') {
        while (pattern[p + 1] === '*') p++;
        starP = p++;
        starT = t;
        continue;
      }
      if (pc === '?') {
        p++;
        t++;
        continue;
      }
      if (pc === '[') {
        const res = matchClass(pattern, p, text[t], low);
        if (res.matched) {
          p = res.next;
          t++;
          continue;
        }
      } else {
        let lit = pc;
        let next = p + 1;
        if (pc === '\\' && p + 1 < pattern.length) {
          lit = pattern[p + 1];
          next = p + 2;
        }
        if (low(lit) === low(text[t])) {
          p = next;
          t++;
          continue;
        }
      }
    }
    if (starP < 0) return false;
    p = starP + 1;
    t = ++starT;
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}

/** `[...]` at `p`: whether `c` matches and where the class ends. */
function matchClass(pattern: string, p: number, c: string, low: (c: string) => string): { matched: boolean; next: number } {
  let i = p + 1;
  const not = pattern[i] === '^';
  if (not) i++;
  let match = false;
  for (;;) {
    if (i >= pattern.length) {
      i--; // unterminated: Redis treats the end as the class end
      break;
    }
    const ch = pattern[i];
    if (ch === '\\' && i + 2 < pattern.length) {
      i++;
      if (pattern[i] === c) match = true;
    } else if (ch === ']') {
      break;
    } else if (i + 2 < pattern.length && pattern[i + 1] === '-') {
      let start = low(ch);
      let end = low(pattern[i + 2]);
      if (start > end) [start, end] = [end, start];
      const cc = low(c);
      if (cc >= start && cc <= end) match = true;
      i += 2;
    } else if (low(ch) === low(c)) {
      match = true;
    }
    i++;
  }
  return { matched: not ? !match : match, next: i + 1 };
}
