import { defineCorpusTests } from './suite';

// The ops servers of the corpus (suite.ts).
defineCorpusTests('ops');
