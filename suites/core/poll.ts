import { sleep } from './sleep';

/**
 * Calls `attempt` until `done` holds or `timeoutS` has passed, waiting 50 ms between calls and twice as long each
 * time after (2 s at most): for states a deployment reaches in its own time. Answers the last value and whether it
 * was done.
 */
export async function poll<T>(
  timeoutS: number,
  attempt: () => Promise<T>,
  done: (value: T) => boolean,
): Promise<{ value: T; reached: boolean }> {
  const deadline = Date.now() + timeoutS * 1000;
  for (let wait = 50; ; wait = Math.min(wait * 2, 2000)) {
    const value = await attempt();
    if (done(value)) return { value, reached: true };
    if (Date.now() >= deadline) return { value, reached: false };
    await sleep(Math.min(wait, Math.max(0, deadline - Date.now())));
  }
}
