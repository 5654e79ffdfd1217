/**
 * watchParent (lib/cli/parent.ts) on jest's fake clock with a parent id the spec controls: under a
 * package manager the callback runs once, at the first check after the parent changed; without
 * one, or once stopped, nothing is watched.
 */
import { watchParent } from '../../lib/cli/parent';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

const NPX = { npm_lifecycle_event: 'npx' };

it('calls back once, at the first check after the parent process changed', () => {
  let parent = 100;
  const calls: number[] = [];
  watchParent(NPX, () => calls.push(parent), { parentId: () => parent, intervalMs: 500 });
  jest.advanceTimersByTime(1500);
  expect(calls).toEqual([]);
  parent = 1; // the shell npm spawned died; init adopted this process
  jest.advanceTimersByTime(499);
  expect(calls).toEqual([]);
  jest.advanceTimersByTime(1);
  expect(calls).toEqual([1]);
  parent = 7;
  jest.advanceTimersByTime(5000);
  expect(calls).toEqual([1]);
  expect(jest.getTimerCount()).toBe(0);
});

it('watches nothing when no package manager started the process, or once stopped', () => {
  let parent = 100;
  const calls: string[] = [];
  watchParent({}, () => calls.push('not under npm'), { parentId: () => parent, intervalMs: 500 });
  expect(jest.getTimerCount()).toBe(0);
  const unwatch = watchParent(NPX, () => calls.push('stopped'), { parentId: () => parent, intervalMs: 500 });
  expect(jest.getTimerCount()).toBe(1);
  unwatch();
  parent = 1;
  jest.advanceTimersByTime(5000);
  expect([calls, jest.getTimerCount()]).toEqual([[], 0]);
});

it('reads process.ppid by default: this process keeps its parent, so nothing is called', () => {
  const calls: string[] = [];
  const unwatch = watchParent(NPX, () => calls.push('gone'));
  try {
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(10_000);
  } finally {
    unwatch();
  }
  expect([calls, jest.getTimerCount()]).toEqual([[], 0]);
});
