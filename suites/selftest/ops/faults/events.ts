import type { OpsFault } from '../fault';

export const eventsFaults: OpsFault[] = [];
