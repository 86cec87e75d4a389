/**
 * Redis's pqsort.c (from NetBSD's qsort): a quicksort that only sorts the partitions overlapping
 * the index range [lrange, rrange], used by GEORADIUS & co. when COUNT keeps fewer elements than
 * were found. Not stable: elements the comparator calls equal end up in the order this exact
 * algorithm leaves them, so it is ported step for step (pointers as indexes).
 */
export function pqsort<T>(a: T[], cmp: (x: T, y: T) => number, lrange: number, rrange: number): void {
  const swap = (i: number, j: number) => {
    const t = a[i];
    a[i] = a[j];
    a[j] = t;
  };
  const vecswap = (i: number, j: number, n: number) => {
    for (let k = 0; k < n; k++) swap(i + k, j + k);
  };
  const med3 = (i: number, j: number, k: number): number =>
    cmp(a[i], a[j]) < 0 ? (cmp(a[j], a[k]) < 0 ? j : cmp(a[i], a[k]) < 0 ? k : i) : cmp(a[j], a[k]) > 0 ? j : cmp(a[i], a[k]) < 0 ? i : k;

  const sort = (base: number, n: number): void => {
    for (;;) {
      if (n < 7) {
        for (let pm = base + 1; pm < base + n; pm++) {
          for (let pl = pm; pl > base && cmp(a[pl - 1], a[pl]) > 0; pl--) swap(pl, pl - 1);
        }
        return;
      }
      let pm = base + Math.floor(n / 2);
      if (n > 7) {
        let pl = base;
        let pn = base + n - 1;
        if (n > 40) {
          const d = Math.floor(n / 8);
          pl = med3(pl, pl + d, pl + 2 * d);
          pm = med3(pm - d, pm, pm + d);
          pn = med3(pn - 2 * d, pn - d, pn);
        }
        pm = med3(pl, pm, pn);
      }
      swap(base, pm);
      let pa = base + 1;
      let pb = pa;
      let pc = base + n - 1;
      let pd = pc;
      for (;;) {
        let r: number;
        while (pb <= pc && (r = cmp(a[pb], a[base])) <= 0) {
          if (r === 0) {
            swap(pa, pb);
            pa++;
          }
          pb++;
        }
        while (pb <= pc && (r = cmp(a[pc], a[base])) >= 0) {
          if (r === 0) {
            swap(pc, pd);
            pd--;
          }
          pc--;
        }
        if (pb > pc) break;
        swap(pb, pc);
        pb++;
        pc--;
      }
      const pn = base + n;
      let r = Math.min(pa - base, pb - pa);
      vecswap(base, pb - r, r);
      r = Math.min(pd - pc, pn - pd - 1);
      vecswap(pb, pn - r, r);
      // a partition is sorted only when it overlaps [lrange, rrange]
      const overlaps = (lo: number, len: number) => !(rrange < lo || lrange > lo + len - 1);
      if ((r = pb - pa) > 1 && overlaps(base, r)) sort(base, r);
      if ((r = pd - pc) > 1) {
        base = pn - r;
        n = r;
        if (overlaps(base, n)) continue;
      }
      return;
    }
  };
  sort(0, a.length);
}
