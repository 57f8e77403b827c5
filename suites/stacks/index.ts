import type { ApiDefinition } from '../core/api';
import { DURATIONS } from './durations.gen';
import { asDoc } from '../core/json';
import { registry } from '../core/registry';
import * as auth from './checks/auth';
import * as create from './checks/create';
import * as del from './checks/delete';
import * as lifecycle from './checks/lifecycle';
import * as limit from './checks/limit';
import * as ownership from './checks/ownership';
import * as read from './checks/read';
import * as responses from './checks/responses';
import * as settle from './checks/settle-states';
import { STACKS_CATALOGUE, STACKS_SPEC } from './paths';
import { embeddedStacksTarget, STACKS_CREDENTIAL_PROBE, STACKS_OPTIONS, STACK_ROLES, stacksTarget, stacksTargetFromEnv } from './target';

const checks = registry([
  responses.responsesConformToSpec,
  responses.documentedGaps,
  auth.missingKeyIsUnauthorized,
  auth.bearerKeyIsAccepted,
  auth.forbiddenUserIs403,
  auth.unknownKeyIsRefused,
  create.createAnswers202,
  // Early, so that a delete which does not delete is caught before leaked stacks exhaust the limit.
  del.deleteRemovesStack,
  create.defaultVersionIsLatestReleased,
  create.chosenVersionIsUsed,
  create.unknownVersionIs400,
  create.malformedBodyIs400,
  settle.unreleasedSettles,
  read.listAnswers200,
  read.listShowsCreating,
  read.versionsAnswer200,
  read.getAnswersDetail,
  read.accessDetailsWhenRunning,
  read.missingStackIs404,
  ownership.othersStacksAreInvisible,
  limit.limitIs409,
  lifecycle.lifecycleMatchesModel,
]);

export const stacksApi: ApiDefinition = {
  id: 'stacks',
  title: 'Short-Lived Test Stack Provisioning API',
  specFile: STACKS_SPEC,
  catalogueFile: STACKS_CATALOGUE,
  checks,
  durations: DURATIONS,
  responseCheckId: responses.responsesConformToSpec.id,
  roleHints: STACK_ROLES,
  // Every stack check draws on the same per-user stack limit.
  // Every code of the error table names a condition; a rate limit would not carry one of them.
  documentedRefusal: (json) =>
    ['InvalidRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'MaxStacksLimitReached', 'InternalServerError'].includes(
      String(asDoc(json).code),
    ),
  options: STACKS_OPTIONS,
  targetFrom: stacksTarget,
  targetFromEnv: stacksTargetFromEnv,
  runOptions: (v) => ({ readyTimeoutS: v.readyTimeoutS as number }),
  credentialProbe: STACKS_CREDENTIAL_PROBE,
  startEmbedded: () => embeddedStacksTarget(),
};
