import { match, type Route } from '../http/router';
import type { ApiHandler } from '../http/types';
import { authenticate, isWrite } from './access';
import { systemClock, type Clock } from './clock';
import type { OpsConfig } from './config';
import type { OpsRouteFn } from './context';
import { authoringRoutes } from './authoring';
import { backupRoutes } from './backup';
import { contentPackRoutes } from './content-packs';
import { coreRoutes } from './core';
import { entityRoutes } from './entity';
import { eventRoutes } from './events';
import { iconRoutes } from './icons';
import { maintenanceRoutes } from './maintenance';
import { templateRoutes } from './templates';
import { thresholdWindowRoutes } from './threshold-windows';
import { ticketingRoutes } from './ticketing';
import { badRequest, forbidden, methodNotAllowed, notFound, opsErrorBody, unauthenticated } from './errors';
import { withFormBody } from './input';
import { normalisePath } from './paths';
import { createState } from './state';

export { opsErrorBody };

// The router prefers literal segments over parameters, so the order here does not matter.
const ROUTES: Route<OpsRouteFn>[] = [
  ...coreRoutes,
  ...entityRoutes,
  ...templateRoutes,
  ...contentPackRoutes,
  ...authoringRoutes,
  ...thresholdWindowRoutes,
  ...eventRoutes,
  ...ticketingRoutes,
  ...maintenanceRoutes,
  ...backupRoutes,
  ...iconRoutes,
];

/** Whether a route's path ends in the key of one object (`<type>/:key`), not in a collection. */
function namesOneObject(pattern: string): boolean {
  const last = pattern.slice(pattern.lastIndexOf('/') + 1);
  return last.startsWith(':') && last !== ':objectType';
}

/**
 * The ops API as one in-process handler. Each call gets its own store seeded from the config, so two handlers
 * never see each other's writes.
 */
export function createOpsHandler(config: OpsConfig, clock: Clock = systemClock): ApiHandler {
  const state = createState(config, clock);
  return (req) => {
    // The platform layer authenticates every call before the API sees it, unknown paths included.
    const user = authenticate(req.headers, config.users);
    if (user === undefined) return unauthenticated();
    const path = normalisePath(req.path);
    const found = match(ROUTES, req.method, path);
    if (found === undefined) return notFound(`No such endpoint: ${req.path.slice(0, 200)}`);
    if ('allowed' in found) return methodNotAllowed(found.allowed, req.path.slice(0, 200));
    if (isWrite(req.method) && user.readOnly) {
      return forbidden(`User "${user.name}" is read-only and cannot ${req.method.toUpperCase()} here`);
    }
    // Trailing slashes are dropped to match routes (`content_pack/` is a documented form), but `DELETE <type>/`
    // names an empty key: it must not become `DELETE <type>`, which deletes every row. `DELETE <type>/<key>/` (as
    // scripts build it) still names one object, so it is served.
    if (req.method.toUpperCase() === 'DELETE' && req.path.endsWith('/') && !namesOneObject(found.pattern)) {
      return badRequest(
        `The last segment of ${req.path.slice(0, 200)} is empty: DELETE needs the key of the object after the slash (send DELETE without the trailing slash to delete by filter)`,
      );
    }
    return found.fn({ req: withFormBody(req), params: found.params, user, state });
  };
}
