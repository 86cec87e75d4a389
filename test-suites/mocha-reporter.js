// Mocha reporter of the suites' run.sh (mocha-suite.sh): mocha's spec output on stdout, and one line
// per test in $SUITE_REPORT: "pass|fail|pending<TAB>file (path from the suite's folder)<TAB>full
// title<TAB>first line of the error".
'use strict';
const fs = require('fs');
const path = require('path');
const Mocha = require(require.resolve('mocha', { paths: [process.cwd()] }));
const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END } = Mocha.Runner.constants;

class FileReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const lines = [];
    const out = process.env.SUITE_REPORT;
    const write = () => out && fs.writeFileSync(out, lines.length ? lines.join('\n') + '\n' : '');
    const add = (status, test, err) => {
      const file = test.file ? path.relative(process.cwd(), test.file) : '?';
      const msg = err ? String(err.message || err).split('\n')[0].slice(0, 200) : '';
      lines.push([status, file, test.fullTitle().replace(/\s+/g, ' '), msg].join('\t'));
      write(); // after every test: a run cut short by its timeout still leaves what it saw
    };
    runner.on(EVENT_TEST_PASS, (t) => add('pass', t));
    runner.on(EVENT_TEST_FAIL, (t, e) => add('fail', t, e));
    runner.on(EVENT_TEST_PENDING, (t) => add('pending', t));
    runner.on(EVENT_RUN_END, write);
  }
}
module.exports = FileReporter;
