import { coreFaults } from './faults/core';
import { queryFaults } from './faults/query';
import { partialFaults } from './faults/partial';
import { entityFaults } from './faults/entity';
import { templatesFaults } from './faults/templates';
import { accessFaults } from './faults/access';
import { contentPacksFaults } from './faults/content-packs';
import { authoringFaults } from './faults/authoring';
import { thresholdWindowsFaults } from './faults/threshold-windows';
import { eventsFaults } from './faults/events';
import { ticketingFaults } from './faults/ticketing';
import { maintenanceFaults } from './faults/maintenance';
import { backupFaults } from './faults/backup';
import { iconsFaults } from './faults/icons';
import { typeInPathFaults } from './faults/type-in-path';
import { versioningFaults } from './faults/versioning';
import type { OpsFault } from './fault';

/** Every broken variant of the ops reference implementation, gathered per area. */
export const opsFaults: OpsFault[] = [
  ...coreFaults,
  ...queryFaults,
  ...partialFaults,
  ...entityFaults,
  ...templatesFaults,
  ...accessFaults,
  ...contentPacksFaults,
  ...authoringFaults,
  ...thresholdWindowsFaults,
  ...eventsFaults,
  ...ticketingFaults,
  ...maintenanceFaults,
  ...backupFaults,
  ...iconsFaults,
  ...typeInPathFaults,
  ...versioningFaults,
];
