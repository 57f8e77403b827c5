import type { OpsFault } from '../fault';

export const coreFaults: OpsFault[] = [];
