import type { OpsFault } from '../fault';

export const iconsFaults: OpsFault[] = [];
