import type { OpsFault } from '../fault';

export const maintenanceFaults: OpsFault[] = [];
