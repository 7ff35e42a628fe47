/**
 * Follows a start through its stages, so that a start that cannot finish says where it stopped
 * and exits non-zero instead of waiting for ever; and tells how long each stage took.
 */
export interface StartUp {
  /** Starts the next stage, named as the deadline's message would say it ("opening the database"). */
  stage(name: string): void;
  /** The start is over: the deadline is lifted; returns each stage's duration in milliseconds. */
  done(): Record<string, number>;
}

/** Exit status of a start that missed its deadline. */
export const START_UP_TIMED_OUT = 1;

export function followStartUp(
  deadlineSeconds: number,
  exit: (code: number) => void = (code) => process.exit(code),
): StartUp {
  const durations: Record<string, number> = {};
  // From the process's start: loading the code is a stage too.
  let current = 'loading the code';
  let since = 0;
  const end = () => {
    const now = performance.now();
    durations[current] = Math.round(now - since);
    since = now;
  };
  // Counted from the process's start, as whoever waits for it counts. Kept referenced: a start whose awaited promise can never settle would otherwise leave a
  // process that exits silently or, holding some other handle, sleeps for ever.
  const timer =
    deadlineSeconds > 0
      ? setTimeout(
          () => {
            console.error(
              `The server did not start within ${deadlineSeconds} s: it stopped while ${current}. ` +
                'Exiting. STARTUP_TIMEOUT sets the limit in seconds (0: none), e.g. for a long migration.',
            );
            exit(START_UP_TIMED_OUT);
          },
          Math.max(0, deadlineSeconds * 1000 - performance.now()),
        )
      : undefined;
  return {
    stage(name) {
      end();
      current = name;
    },
    done() {
      end();
      clearTimeout(timer);
      return durations;
    },
  };
}
