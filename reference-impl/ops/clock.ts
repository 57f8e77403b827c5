import { randomBytes } from 'node:crypto';

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A new object key: 24 hex characters, the form the key-value store gives its own keys. */
export function newKey(): string {
  return randomBytes(12).toString('hex');
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

function parts(micros: number) {
  const ms = Math.floor(micros / 1000);
  const d = new Date(ms);
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const fraction = pad(((micros % 1_000_000) + 1_000_000) % 1_000_000, 6);
  return { date, time, fraction };
}

/** `2024-03-01T09:00:00.123456+00:00`: ISO-8601 with microseconds and an explicit offset, like `mod_timestamp`. */
export function isoWithOffset(micros: number): string {
  const p = parts(micros);
  return `${p.date}T${p.time}.${p.fraction}+00:00`;
}

/** `2024-03-01 09:00:00.123456`, the entity `mod_time` form. */
export function spacedTimeMicros(micros: number): string {
  const p = parts(micros);
  return `${p.date} ${p.time}.${p.fraction}`;
}

/** `2024-03-01 09:00:00`, the backup job `create_time` form. */
export function spacedTime(micros: number): string {
  const p = parts(micros);
  return `${p.date} ${p.time}`;
}
