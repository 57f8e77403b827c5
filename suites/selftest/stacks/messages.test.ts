import { describe, expect, it } from 'vitest';
import { saysNotFound } from '../../stacks/support';

// Wordings of "the resource was not found" seen on servers written from the document, and others a server may use.
const SAYS = [
  'Stack abc was not found',
  'The requested stack could not be found.',
  'there is no stack with id abc',
  'There are no stacks with that id',
  'No stack matches abc',
  'We have no record of a stack called abc.',
  'No such stack: abc',
  'Stack abc does not exist',
  "Stack abc doesn't exist for this user",
  'Stack abc no longer exists',
  'Unknown stack id abc',
  'stack abc is missing',
  'Nonexistent stack abc',
  'Could not locate stack abc',
  'Unable to find stack abc',
  'The stack abc is not present',
  'Resource not found',
  '404 Not Found',
  'No stack found with id abc',
  'NOT_FOUND',
  'Nothing matches abc',
];
// Messages that say something else than "not found".
const DOES_NOT_SAY = ['', 'The request failed.', 'Forbidden', 'Internal server error', 'Stack abc', 'Request refused.'];

describe('a 404 message says the resource was not found', () => {
  it.each(SAYS)('%s', (m) => expect(saysNotFound(m)).toBe(true));
  it.each(DOES_NOT_SAY)('not: %s', (m) => expect(saysNotFound(m)).toBe(false));
});
