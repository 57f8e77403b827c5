import type { OpsFault } from '../fault';

export const templatesFaults: OpsFault[] = [];
