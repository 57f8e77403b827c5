import type { OpsFault } from '../fault';

export const contentPacksFaults: OpsFault[] = [];
