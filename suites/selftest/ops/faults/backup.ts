import type { OpsFault } from '../fault';

export const backupFaults: OpsFault[] = [];
