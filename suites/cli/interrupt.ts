const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Ctrl-C (SIGINT) or a CI job's cancel (SIGTERM) lets the checks in flight finish and clean up, then the reports are
 * written with the gate `incomplete`; the same signal again quits at once. Returns the signal the run watches and a
 * function that stops listening.
 */
export function interruptOnSignals(stream: NodeJS.WritableStream = process.stderr): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const again = () => process.exit(130);
  const first = (name: string) => {
    stream.write(
      `\ninterrupted (${name}): finishing the checks in flight and cleaning up; the reports will say INCOMPLETE (${name} again to quit at once)\n`,
    );
    controller.abort();
    for (const s of SIGNALS) {
      process.off(s, first);
      process.once(s, again);
    }
  };
  for (const s of SIGNALS) process.on(s, first);
  return {
    signal: controller.signal,
    dispose: () => {
      for (const s of SIGNALS) {
        process.off(s, first);
        process.off(s, again);
      }
    },
  };
}
