/** A JSON object as the suite reads it from an answer or builds it for a request. */
export type Doc = Record<string, unknown>;

/** A plain JSON object: not null, not an array. */
export const isDoc = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value when it is a plain JSON object, else an empty one: for reading fields of answers of unknown shape. */
export const asDoc = (v: unknown): Doc => (isDoc(v) ? v : {});

/** Whether `v` is, or holds at any depth (in an object's values or an array's items), an object `test` accepts. */
export const holdsDoc = (v: unknown, test: (d: Doc) => boolean): boolean =>
  Array.isArray(v) ? v.some((x) => holdsDoc(x, test)) : isDoc(v) && (test(v) || Object.values(v).some((x) => holdsDoc(x, test)));
