import type { OpsFault } from '../fault';

export const queryFaults: OpsFault[] = [];
