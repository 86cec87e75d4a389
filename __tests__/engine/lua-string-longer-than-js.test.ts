/**
 * A Lua string longer than JavaScript's longest (2^29 - 24 bytes), e.g. a script returning
 * string.rep('x', 6e8), which Redis answers: a StreamsMockError that says so, as for strings of
 * the keyspace (README "Size limit"), not V8's bare `Cannot create a string longer than
 * 0x1fffffe8 characters` (user trial; the full script takes ~1 min and 1.7 GB, so the check that
 * guards every read of a Lua string is called here directly).
 */
import { StreamsMockError } from '../../lib/clock/clock';
import { LuaVm } from '../../lib/scripting/vm';

it('reading a Lua string longer than a JS string can be throws a StreamsMockError naming the limit, before any byte is read', () => {
  const vm = new LuaVm() as unknown as { bytesAt(p: number, len: number): string };
  const read = () => vm.bytesAt(0, 0x1fffffe8 + 1);
  expect(read).toThrow(StreamsMockError);
  expect(read).toThrow('a Lua string of 536870889 bytes is longer than JavaScript strings can be (536870888); Redis would store it');
  expect(vm.bytesAt(0, 0)).toBe('');
});
