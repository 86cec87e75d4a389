// The register entry's per-test lifecycle under node:test, as under jest: the clients a test
// created are closed once its afterEach hooks ran, a loop that outlives its test stops and is
// named in a warning, and so is a test that ends with blocked reads. The tests of this file run
// in order and depend on it.
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as realSetImmediate } from 'node:timers';
import Redis from 'ioredis';

const warnings = [];
const consoleWarn = console.warn;
console.warn = (...args) => void warnings.push(args.map(String).join(' '));
after(() => {
  console.warn = consoleWarn;
});
const macrotasks = async (n) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => realSetImmediate(resolve));
};

describe('worker', () => {
  const atModuleScope = new Redis();
  let inBefore;
  let inBeforeEach;
  let inTest;
  let usedInAfterEach;
  let leakyName;
  before(() => {
    inBefore = new Redis();
  });
  beforeEach(() => {
    inBeforeEach ??= new Redis();
  });
  afterEach(async () => {
    usedInAfterEach ??= await inTest.ping(); // the test's own afterEach hooks still have its clients
  });

  it('leaks a running worker loop and a blocked read', async (t) => {
    leakyName = t.fullName ?? t.name;
    inTest = new Redis();
    const redis = new Redis();
    await redis.xgroup('CREATE', 'jobs', 'g', '$', 'MKSTREAM');
    void (async () => {
      for (;;) {
        try {
          await redis.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 1000, 'STREAMS', 'jobs', '>');
        } catch {}
      }
    })();
    await macrotasks(1);
    assert.equal(inBeforeEach.status, 'ready');
  });

  it('closes the clients of the previous test once its afterEach hooks ran', async () => {
    assert.equal(usedInAfterEach, 'PONG');
    assert.equal(inTest.status, 'end');
    assert.equal(inBeforeEach.status, 'end');
    await assert.rejects(inTest.xlen('jobs'), { message: 'Connection is closed.' });
    assert.equal(inBefore.status, 'ready');
    assert.equal(atModuleScope.status, 'ready');
    assert.equal(await inBefore.exists('jobs'), 0); // and the keyspace was reset
  });

  it('names the test that ended with a blocked read', () => {
    assert.ok(
      warnings.some((w) => w.includes(`test "${leakyName}" ended with 1 blocked call (BLPOP, BZPOPMIN, XREAD … BLOCK and the like)`)),
      warnings.join('\n'),
    );
  });

  it('stops the loop that outlived its test, and names that test', async () => {
    await macrotasks(5);
    const orphan = warnings.filter((w) => w.includes(`a client created by test "${leakyName}" keeps sending commands after the test ended`));
    assert.ok(orphan.length > 0, warnings.join('\n'));
    assert.equal(orphan.filter((w) => w.includes('its commands no longer settle')).length, 1);
  });
});

describe('tests inside a test', () => {
  it('keep the parent test\'s clients and data until the parent ends', async (t) => {
    const parent = new Redis();
    await parent.xadd('s', '1-0', 'f', 'v');
    let child;
    await t.test('subtest', async () => {
      child = new Redis();
      assert.equal(await child.xlen('s'), 1);
    });
    assert.equal(child.status, 'ready'); // closed at the next test's start
    await t.test('next subtest', async () => {
      assert.equal(child.status, 'end');
    });
    assert.equal(parent.status, 'ready');
    assert.equal(await parent.xlen('s'), 1);
  });
});
