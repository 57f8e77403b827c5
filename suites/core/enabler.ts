/**
 * The setting that would have an untested or skipped requirement checked, named as a user sets it: its flag
 * (`--allow-destructive`) when it has one, else its variable (`STACKS_API_KEY_2`). Taken from the option's own
 * definition, so a renamed option renames every reason that names it, and a record carries it as data
 * (`AssertionRecord.enabledBy`), never read back from the reason's words.
 */
export function settingName(d: { flag?: string; env?: string; key?: string }): string {
  const name = d.flag ? `--${d.flag}` : (d.env ?? d.key);
  if (!name) throw new Error('an option named in a reason needs a flag, a variable or a key');
  return name;
}
