import type { Check } from '../../core/check';
import { installContent, installOptions, installResolution } from './content-packs-install';
import { libraryGet, libraryList, libraryPaging, libraryPreview } from './content-packs-library';
import { libraryRefresh } from './content-packs-refresh';

/** The content-pack library's checks: reads first, then installs and refresh, which change it. */
export const contentPacksChecks: Check[] = [libraryList, libraryPaging, libraryGet, libraryPreview, installResolution, installOptions, installContent, libraryRefresh];
