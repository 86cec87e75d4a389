/** RESP multibulk commands of a replication stream (the RDB preamble skipped). */
export function commandsOf(stream: string): string[][] {
  const out: string[][] = [];
  const re = /\*(\d+)\r\n/g;
  let m: RegExpExecArray | null;
  const start = stream.indexOf('*');
  re.lastIndex = start < 0 ? stream.length : start;
  while ((m = re.exec(stream)) !== null) {
    let pos = m.index + m[0].length;
    const argv: string[] = [];
    for (let i = 0; i < Number(m[1]); i++) {
      const nl = stream.indexOf('\r\n', pos);
      const len = Number(stream.slice(pos + 1, nl));
      argv.push(stream.slice(nl + 2, nl + 2 + len));
      pos = nl + 2 + len + 2;
    }
    out.push(argv);
    re.lastIndex = pos;
  }
  return out;
}
