import type { OpsFault } from '../fault';

export const ticketingFaults: OpsFault[] = [];
