import { APIS } from './apis';
import { writeSyncedCatalogue } from './core/catalogue-sync';

// Regenerates the `checks:` lists of the requirement catalogues from the check registry.
for (const api of APIS) console.log(`${api.id}: ${writeSyncedCatalogue(api) ? 'updated' : 'up to date'} (${api.catalogueFile})`);
