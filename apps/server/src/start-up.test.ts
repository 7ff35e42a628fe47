import { afterEach, describe, expect, it, vi } from 'vitest';
import { followStartUp, START_UP_TIMED_OUT } from './start-up.ts';

describe('followStartUp', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('exits non-zero past the deadline, naming the stage it stopped in', () => {
    vi.useFakeTimers();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const exit = vi.fn();
    const startUp = followStartUp(30, exit);
    startUp.stage('loading the secrets');
    vi.advanceTimersByTime(30_000);
    expect(exit).toHaveBeenCalledWith(START_UP_TIMED_OUT);
    expect(error.mock.calls[0]?.[0]).toMatch(/did not start within 30 s: it stopped while loading the secrets/);
  });

  it('lifts the deadline once done, and tells each stage its time', () => {
    vi.useFakeTimers();
    const exit = vi.fn();
    const startUp = followStartUp(30, exit);
    startUp.stage('opening the database');
    vi.advanceTimersByTime(2_000);
    startUp.stage('seeding the demo data');
    const durations = startUp.done();
    vi.advanceTimersByTime(60_000);
    expect(exit).not.toHaveBeenCalled();
    expect(Object.keys(durations)).toEqual(['loading the code', 'opening the database', 'seeding the demo data']);
    expect(durations['opening the database']).toBe(2_000);
  });

  it('has no deadline at 0', () => {
    vi.useFakeTimers();
    const exit = vi.fn();
    followStartUp(0, exit);
    vi.advanceTimersByTime(3_600_000);
    expect(exit).not.toHaveBeenCalled();
  });
});
