// Markers understood by the response writer in server.mjs.
export const EMPTY = Symbol('empty-body'); // 200 with no body at all
