// Switchable defects, selected with BUG=<name>[,<name>...]. Parsed once at startup.
export const bugs = new Set(
  (process.env.BUG || '')
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean),
);
