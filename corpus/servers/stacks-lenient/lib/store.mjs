// In-memory stacks and their lifecycle, derived from timestamps.
import { randomBytes, randomInt } from 'node:crypto';
import {
  bug,
  DELETE_VISIBLE_MS,
  HIDDEN_COUNTED_MS,
  hiddenCounted,
  LIFETIME_MS,
  MAX_STACKS_PER_USER,
  PROVISION_MAX_MS,
  PROVISION_MIN_MS,
  STOPPING_MS,
} from './config.mjs';

const stacks = new Map();
const nameCounters = new Map();
let seq = 0;

const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
function token(length) {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return out;
}

// Phase of a stack at `now`: { visible, counted, state }.
export function phase(stack, now) {
  const natural = now < stack.readyAt ? 'CREATING' : 'RUNNING';
  if (stack.deletedAt !== null && hiddenCounted) {
    return { visible: false, counted: now < stack.deletedAt + HIDDEN_COUNTED_MS, state: 'STOPPING' };
  }
  let teardownAt = stack.terminationAt;
  if (stack.deletedAt !== null) teardownAt = Math.min(teardownAt, stack.deletedAt + DELETE_VISIBLE_MS);
  if (now < teardownAt) return { visible: true, counted: true, state: natural };
  if (now < teardownAt + STOPPING_MS) return { visible: true, counted: true, state: 'STOPPING' };
  return { visible: false, counted: false, state: 'STOPPING' };
}

function sweep(now) {
  for (const [id, stack] of stacks) {
    const p = phase(stack, now);
    if (p.visible || p.counted) continue;
    if (bug('deleted-listed-forever') && stack.deletedAt !== null) continue;
    stacks.delete(id);
  }
}

export function countFor(owner, now) {
  sweep(now);
  let n = 0;
  for (const s of stacks.values()) if (s.owner === owner && phase(s, now).counted) n++;
  return n;
}

export function limitReached(owner, now) {
  if (bug('quota-not-enforced')) return false;
  return countFor(owner, now) >= MAX_STACKS_PER_USER;
}

export function createStack(owner, platformVersion, now) {
  const n = (nameCounters.get(owner) ?? 0) + 1;
  nameCounters.set(owner, n);
  const stack = {
    id: `stk-${token(12)}`,
    seq: ++seq,
    name: `${owner}-stack-${n}`,
    owner,
    platformVersion,
    createdAt: now,
    readyAt: now + randomInt(PROVISION_MIN_MS, PROVISION_MAX_MS + 1),
    terminationAt: now + LIFETIME_MS,
    deletedAt: null,
    username: 'stackadmin',
    password: token(20),
  };
  stacks.set(stack.id, stack);
  return stack;
}

// Stacks the caller may see, newest first, with their current phase.
export function listFor(owner, now) {
  sweep(now);
  const out = [];
  for (const s of stacks.values()) {
    if (s.owner !== owner && !bug('cross-user-list')) continue;
    let p = phase(s, now);
    if (bug('deleted-listed-forever') && s.deletedAt !== null) {
      p = { visible: true, counted: false, state: now < s.readyAt ? 'CREATING' : 'RUNNING' };
    }
    if (p.visible) out.push({ stack: s, state: p.state });
  }
  out.sort((a, b) => b.stack.createdAt - a.stack.createdAt || b.stack.seq - a.stack.seq);
  return out;
}

// Finds a visible stack; `crossUser` lets another user's stack through.
export function findFor(owner, id, now, crossUser) {
  sweep(now);
  const stack = stacks.get(id.toLowerCase());
  if (!stack) return null;
  if (stack.owner !== owner && !crossUser) return null;
  const p = phase(stack, now);
  if (!p.visible) return null;
  return { stack, state: p.state };
}

export function markDeleted(stack, now) {
  if (stack.deletedAt === null) stack.deletedAt = now;
}
