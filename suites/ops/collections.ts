import type { OpsRequirementId } from './requirements.gen';
import type { OpsState } from './state';

/** Creates an object of the run for another to refer to, once per check attempt (`scope`); its key, if created. */
type Anchor = (scope: object, c: Collection, title: string) => Promise<string | undefined>;

/** The CRUD-shaped collections of the document, described once so every generic rule runs over each of them. */
export interface Collection {
  /** Object type as it appears in paths and in `object_type`. */
  type: string;
  interface: 'itoa_interface' | 'maintenance_services_interface' | 'backup_restore_interface';
  ops: {
    list: 'coreList' | 'mwList' | 'brList';
    create: 'coreCreate' | 'mwCreate' | 'brCreate';
    get: 'coreGet' | 'mwGet' | 'brGet';
    update: 'coreUpdate' | 'mwUpdate' | 'brUpdate';
    delete: 'coreDelete' | 'mwDelete' | 'brDelete';
    bulkDelete: 'coreBulkDelete' | 'mwBulkDelete' | 'brBulkDelete';
    count: 'coreCount' | 'mwCount' | 'brCount';
    bulkUpdate?: 'coreBulkUpdate';
  };
  /** Fields a valid new object needs besides its title. */
  template: () => Record<string, unknown>;
  /**
   * Fields a realistic object needs that refer to other objects of the run (created on first use per check, with
   * `anchor`: the caller's create, so this module needs none of its own).
   */
  complete?: (extra: Record<string, unknown>, anchor: Anchor) => Promise<Record<string, unknown>>;
  /**
   * The shared state its rows belong to, where a check elsewhere deletes or counts them wholesale: a check that creates
   * rows here declares it (`statesOf`), so that it never runs beside one that `shares` it.
   */
  state?: OpsState;
  /** Catalogue ids of this collection's operations, for checks that run over every collection. */
  requirements: Record<'list' | 'create' | 'get' | 'update' | 'delete' | 'count' | 'bulkDelete', OpsRequirementId>;
}

export const core = (type: string, template: () => Record<string, unknown> = () => ({})): Collection => ({
  type,
  interface: 'itoa_interface',
  ops: {
    list: 'coreList',
    create: 'coreCreate',
    get: 'coreGet',
    update: 'coreUpdate',
    delete: 'coreDelete',
    bulkDelete: 'coreBulkDelete',
    count: 'coreCount',
    bulkUpdate: 'coreBulkUpdate',
  },
  template,
  requirements: {
    list: 'OPS-CORE-LIST',
    create: 'OPS-CORE-CREATE',
    get: 'OPS-CORE-GET',
    update: 'OPS-CORE-UPDATE',
    delete: 'OPS-CORE-DELETE',
    count: 'OPS-CORE-COUNT',
    bulkDelete: 'OPS-CORE-BULK-DELETE',
  },
});

const now = () => Math.floor(Date.now() / 1000);

export const SERVICE = core('service', () => ({ description: 'conformance service', enabled: 0 }));
export const ENTITY = core('entity', () => ({ description: 'conformance entity' }));
export const KPI_BASE_SEARCH = core('kpi_base_search', () => ({
  description: 'conformance base search',
  base_search: 'index=_internal | head 1',
}));
export const DEEP_DIVE: Collection = { ...core('deep_dive'), state: 'deep_dive' };
export const TEAM = core('team', () => ({ description: 'conformance team' }));
export const BASE_SERVICE_TEMPLATE = core('base_service_template', () => ({ description: 'conformance template' }));

export const MAINTENANCE: Collection = {
  type: 'maintenance_calendar',
  state: 'maintenance',
  interface: 'maintenance_services_interface',
  ops: {
    list: 'mwList',
    create: 'mwCreate',
    get: 'mwGet',
    update: 'mwUpdate',
    delete: 'mwDelete',
    bulkDelete: 'mwBulkDelete',
    count: 'mwCount',
  },
  // Far in the future so a window the run creates never puts real services into maintenance.
  template: () => ({ start_time: now() + 86400 * 3650, end_time: now() + 86400 * 3650 + 60 }),
  // One service per check attempt for windows to name: a window with no objects is not a realistic window.
  async complete(extra, anchor) {
    if ('objects' in extra) return {};
    const key = await anchor(MAINTENANCE, SERVICE, 'maintenance target');
    return { objects: key ? [{ object_type: 'service', _key: key }] : [] };
  },
  requirements: {
    list: 'OPS-MW-LIST',
    create: 'OPS-MW-CREATE',
    get: 'OPS-MW-GET',
    update: 'OPS-MW-UPDATE',
    delete: 'OPS-MW-DELETE',
    count: 'OPS-MW-COUNT',
    bulkDelete: 'OPS-MW-BULK-DELETE',
  },
};

export const BACKUP: Collection = {
  type: 'backup_restore',
  state: 'backup',
  interface: 'backup_restore_interface',
  ops: {
    list: 'brList',
    create: 'brCreate',
    get: 'brGet',
    update: 'brUpdate',
    delete: 'brDelete',
    bulkDelete: 'brBulkDelete',
    count: 'brCount',
  },
  template: () => ({ job_type: 'Backup', status: 'Queued' }),
  requirements: {
    list: 'OPS-BR-LIST',
    create: 'OPS-BR-CREATE',
    get: 'OPS-BR-GET',
    update: 'OPS-BR-UPDATE',
    delete: 'OPS-BR-DELETE',
    count: 'OPS-BR-COUNT',
    bulkDelete: 'OPS-BR-BULK-DELETE',
  },
};

/** The states a check that creates rows in `cs` declares in `uses`. */
export const statesOf = (cs: readonly Collection[]): OpsState[] => [...new Set(cs.flatMap((c) => (c.state ? [c.state] : [])))];

/** Collections over which the list/filter/paging/partial-update rules are checked. */
export const QUERYABLE: Collection[] = [SERVICE, DEEP_DIVE, MAINTENANCE, BACKUP];

/** The core object types the document names for the itoa_interface. */
export const CORE_TYPES = [
  'team',
  'entity',
  'service',
  'base_service_template',
  'kpi_base_search',
  'deep_dive',
  'glass_table',
  'home_view',
  'kpi_template',
  'kpi_threshold_template',
  'event_management_state',
  'entity_filter_rule',
  'entity_type',
  'custom_threshold_windows',
];
