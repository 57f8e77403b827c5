/** Replaces every known secret (and its base64/URL-encoded forms) with a placeholder, in any text that leaves the run. */
export function createMasker(secrets: string[]): (text: string) => string {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (!s || s.length < 3) continue;
    forms.add(s);
    forms.add(encodeURIComponent(s));
    forms.add(Buffer.from(s).toString('base64'));
  }
  const list = [...forms].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const f of list) out = out.split(f).join('***');
    return out;
  };
}
