import { installContent } from './content-packs-install';
import { installOptions } from './content-packs-install-options';
import { installResolution } from './content-packs-install-resolution';
import { installEachType, installEventObjects } from './content-packs-install-types';
import { libraryGet, libraryList, libraryPaging, libraryPreview } from './content-packs-library';
import { libraryRefresh } from './content-packs-refresh';
import type { OpsCheck } from '../support';

/** The content-pack library's checks: reads first, then installs and refresh, which change it. */
export const contentPacksChecks: OpsCheck[] = [
  libraryList,
  libraryPaging,
  libraryGet,
  libraryPreview,
  installResolution,
  installOptions,
  installContent,
  installEachType,
  installEventObjects,
  libraryRefresh,
];
