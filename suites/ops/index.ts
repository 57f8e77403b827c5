import type { ApiDefinition } from '../core/api';
import { DURATIONS } from './durations.gen';
import { registry } from '../core/registry';
import * as access from './checks/access';
import { resultsRestrictedToReadable } from './checks/access-readable';
import * as addressing from './checks/addressing';
import * as bulkDelete from './checks/bulk-delete';
import { bulkDeleteCombined } from './checks/bulk-delete-combined';
import * as crud from './checks/core-crud';
import { createFromCopy } from './checks/create-copy';
import * as entity from './checks/entity';
import * as filter from './checks/filter';
import * as listsAfterWrites from './checks/lists-after-writes';
import * as types from './checks/object-types';
import { aliasListSparseEntities } from './checks/alias-list-sparse';
import { identifyingNameSentFollowsTitle } from './checks/identifying-name-sent';
import * as paging from './checks/paging';
import * as partial from './checks/partial';
import * as responses from './checks/responses';
import * as templates from './checks/templates';
import { typeInPath } from './checks/type-in-path';
import * as versioning from './checks/versioning';
import * as transport from './checks/transport';
import { contentPacksChecks } from './checks/content-packs';
import { installFailures } from './checks/content-packs-install-failures';
import { authoringChecks } from './checks/authoring';
import { thresholdWindowsChecks } from './checks/threshold-windows';
import { eventsChecks } from './checks/events';
import { ticketingChecks } from './checks/ticketing';
import { maintenanceChecks } from './checks/maintenance';
import { backupChecks } from './checks/backup';
import { iconsChecks } from './checks/icons';
import { OPS_CATALOGUE, OPS_SPEC } from './paths';
import { opsRefusedIn2xx } from './refusal';
import { embeddedOpsTarget, OPS_CREDENTIAL_PROBE, OPS_OPTIONS, OPS_ROLES, opsTarget, opsTargetFromEnv } from './target';

const checks = registry([
  responses.responsesConformToSpec,
  transport.servedOverHttps,
  addressing.interfacesAtTheirPaths,
  addressing.platformLimits,
  addressing.templateLinkNeedsWriteAccess,
  addressing.outsideHttp,
  access.basicAuthRequired,
  types.supportedObjectTypes,
  types.aliasList,
  aliasListSparseEntities,
  crud.createReturnsKey,
  createFromCopy,
  crud.readAfterWrite,
  crud.deleteRemovesExactlyOne,
  crud.identifyingNameIsLowerCasedTitle,
  identifyingNameSentFollowsTitle,
  crud.commonFieldsAreMaintained,
  crud.countAgreesWithList,
  crud.createWithKeyUpdates,
  typeInPath,
  filter.filterMatchesModel,
  filter.invalidFilterGetReturnsAll,
  paging.sortAndPage,
  paging.limitUnsetReturnsAll,
  paging.fieldsSelectsFields,
  listsAfterWrites.listsAfterWrites,
  partial.partialUpdateMerges,
  partial.fullUpdateReplaces,
  partial.fullUpdateNeedsRequiredFields,
  partial.bulkUpdate,
  entity.retireAndRestore,
  entity.countRetirable,
  templates.templatizeTypes,
  templates.templateLinkPersists,
  access.readOnlyCannotWrite,
  resultsRestrictedToReadable,
  access.teamRestrictedWriter,
  versioning.vLatestPathsAnswerTheSame,
  versioning.vLatestWrites,
  ...contentPacksChecks,
  installFailures,
  ...authoringChecks,
  ...thresholdWindowsChecks,
  ...eventsChecks,
  ...ticketingChecks,
  ...maintenanceChecks,
  ...backupChecks,
  ...iconsChecks,
  bulkDelete.bulkDeleteByFilter,
  bulkDeleteCombined,
  entity.retireRetirable,
  filter.invalidFilterDeleteDeletesAll,
]);

export const opsApi: ApiDefinition = {
  id: 'ops',
  title: 'Operations Intelligence Management REST API',
  specFile: OPS_SPEC,
  catalogueFile: OPS_CATALOGUE,
  checks,
  durations: DURATIONS,
  responseCheckId: responses.responsesConformToSpec.id,
  roleHints: OPS_ROLES,
  options: OPS_OPTIONS,
  targetFrom: opsTarget,
  targetFromEnv: opsTargetFromEnv,
  credentialProbe: OPS_CREDENTIAL_PROBE,
  refusedIn2xx: opsRefusedIn2xx,
  pathForm: (ex) => (/\/vLatest(\/|\?|$)/.test(new URL(ex.request.url).pathname) ? 'vLatest' : undefined),
  startEmbedded: () => embeddedOpsTarget(),
};
