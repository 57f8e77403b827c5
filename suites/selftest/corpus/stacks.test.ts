import { defineCorpusTests } from './suite';

// The stacks servers of the corpus (suite.ts).
defineCorpusTests('stacks');
