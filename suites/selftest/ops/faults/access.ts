import type { OpsFault } from '../fault';

export const accessFaults: OpsFault[] = [];
