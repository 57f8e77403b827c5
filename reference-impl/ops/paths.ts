/** Route prefixes; `:user` and `:app` are accepted whatever their value (usually `nobody` and `SA-ITOA`). */
export const ITOA = '/servicesNS/:user/:app/itoa_interface';
export const EVENTS = '/servicesNS/:user/:app/event_management_interface';
export const MAINTENANCE = '/servicesNS/:user/:app/maintenance_services_interface';
export const BACKUP = '/servicesNS/:user/:app/backup_restore_interface';
export const ICONS = '/services/SA-ITOA/v1/icon_collection';

const INTERFACES = new Set(['itoa_interface', 'event_management_interface', 'maintenance_services_interface', 'backup_restore_interface']);

/**
 * The path the routes are written for: without the optional `vLatest` segment after the interface name and
 * without trailing slashes (`content_pack/` is the documented form of one authoring path).
 */
export function normalisePath(path: string): string {
  const segments = path.split('/');
  if (segments[1] === 'servicesNS' && INTERFACES.has(segments[4] ?? '') && segments[5] === 'vLatest') {
    segments.splice(5, 1);
  }
  while (segments.length > 2 && segments[segments.length - 1] === '') segments.pop();
  return segments.join('/');
}
