import type { OpsFault } from '../fault';

export const thresholdWindowsFaults: OpsFault[] = [];
