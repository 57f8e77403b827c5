/**
 * A failure of the suite itself (a check recording against a requirement it does not declare, a bug in a check):
 * reported with the status `error` and exit code 2, never as the server's failure.
 */
export class ToolError extends Error {
  override name = 'ToolError';
}
