import type { OpsFault } from '../fault';

export const partialFaults: OpsFault[] = [];
