// Timestamps in whole seconds. The server keeps its clock at a fixed offset of -05:00.
const OFFSET_MIN = -300;
const OFFSET_TEXT = '-05:00';

function pad(n, w = 2) {
  return String(n).padStart(w, '0');
}

function shifted(ms) {
  const d = new Date(Math.floor(ms / 1000) * 1000 + OFFSET_MIN * 60000);
  return {
    date: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`,
    time: `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`,
  };
}

/** Epoch seconds, whole. */
export function epoch(ms = Date.now()) {
  return Math.floor(ms / 1000);
}

/** ISO-8601 with offset, whole seconds: 2024-05-01T07:00:00-05:00 */
export function isoStamp(ms = Date.now()) {
  const s = shifted(ms);
  return `${s.date}T${s.time}${OFFSET_TEXT}`;
}

/** YYYY-MM-DD HH:MM:SS.ffffff, whole seconds (fraction always zero). */
export function modTime(ms = Date.now()) {
  const s = shifted(ms);
  return `${s.date} ${s.time}.000000`;
}

/** YYYY-MM-DD HH:MM:SS */
export function plainTime(ms = Date.now()) {
  const s = shifted(ms);
  return `${s.date} ${s.time}`;
}
