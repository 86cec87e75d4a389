/**
 * A jest reporter for this repository's own suite: when jest's process is still alive 5 s after
 * the run completed (something a test file started keeps Node's event loop busy: a socket, a
 * server, a timer), it prints what is left (each handle with its addresses or its callback's
 * source) and exits with the run's status, instead of hanging until CI's timeout with only
 * jest's "did not exit one second after the test run has completed". On a 2-CPU machine jest
 * runs the test files in its own process (in band): one file's leak holds the whole run.
 */
class OpenHandlesReporter {
  onRunComplete(_contexts, results) {
    const status = results.numFailedTests > 0 || results.numFailedTestSuites > 0 || results.numRuntimeErrorTestSuites > 0 ? 1 : 0;
    const timer = setTimeout(() => {
      const lines = ['open-handles-reporter: jest is still running 5 s after the run; what keeps it alive:'];
      for (const h of process._getActiveHandles()) lines.push(`  ${describe(h)}`);
      lines.push(`  resources: ${process.getActiveResourcesInfo().join(', ')}`);
      lines.push(`open-handles-reporter: exiting with the run's status (${status})`);
      process.stderr.write(`${lines.join('\n')}\n`, () => process.exit(status));
    }, 5000);
    timer.unref();
  }
}

function describe(h) {
  const kind = h?.constructor?.name ?? typeof h;
  if (kind === 'Socket') return `Socket ${h.localAddress}:${h.localPort} -> ${h.remoteAddress}:${h.remotePort}${h.destroyed ? ' (destroyed)' : ''}`;
  if (kind === 'Server') return `Server ${JSON.stringify(h.address?.())}`;
  if (kind === 'Timeout') return `Timeout ${h._idleTimeout} ms: ${String(h._onTimeout).replace(/\s+/g, ' ').slice(0, 300)}`;
  if (kind === 'ChildProcess') return `ChildProcess ${h.pid} ${h.spawnargs?.join(' ').slice(0, 200)}`;
  return kind;
}

module.exports = OpenHandlesReporter;
