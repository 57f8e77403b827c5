/** A mistake in how the tool was invoked or configured: exit code 2 with a one-line message. */
export class UsageError extends Error {}
