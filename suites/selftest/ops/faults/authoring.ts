import type { OpsFault } from '../fault';

export const authoringFaults: OpsFault[] = [];
