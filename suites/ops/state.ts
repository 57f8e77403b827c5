/**
 * The shared state ops checks name in `shares` and `uses` (with `*`, all of it): what one check reads whole or changes
 * beyond its own rows, so that checks that must not overlap never run side by side. A name outside this list does
 * not compile in an ops check.
 *
 * - `authoring`: the custom content packs (content_pack_authorship), listed, counted and searched whole.
 * - `backup`: the backup_restore jobs, the default scheduled backup among them.
 * - `content-packs`: the content-pack library and what its installs add (services, searches, event objects).
 * - `deep_dive`: the deep dives, which one check deletes by filter (all of them where a server ignores the filter).
 * - `episode-actions`: the actions run on real episodes.
 * - `icons`: the icon collection and its categories.
 * - `maintenance`: the maintenance windows, and what is in maintenance.
 * - `threshold-windows`: the custom threshold windows and the KPIs they link.
 */
export type OpsState =
  | 'authoring'
  | 'backup'
  | 'content-packs'
  | 'deep_dive'
  | 'episode-actions'
  | 'icons'
  | 'maintenance'
  | 'threshold-windows';
