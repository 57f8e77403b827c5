import type { OpsFault } from '../fault';

export const entityFaults: OpsFault[] = [];
