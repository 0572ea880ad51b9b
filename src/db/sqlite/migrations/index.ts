import * as migration_20261125_062146_initial from './20261125_062146_initial';
import * as migration_20261125_062357_service_objects from './20261125_062357_service_objects';
import * as migration_20261125_071500_search_meaning from './20261125_071500_search_meaning';
import * as migration_20261127_054909_slug_claims from './20261127_054909_slug_claims';
import * as migration_20261127_090000_text_changes from './20261127_090000_text_changes';
import * as migration_20261127_100000_public_text_index from './20261127_100000_public_text_index';
import * as migration_20261127_110000_public_content_version from './20261127_110000_public_content_version';
import * as migration_20261127_120000_content_row_changes from './20261127_120000_content_row_changes';
import * as migration_20261127_150000_unchanged_text_skips from './20261127_150000_unchanged_text_skips';
import * as migration_20261128_200642_access_standing from './20261128_200642_access_standing';
import * as migration_20261128_222411_edited_by from './20261128_222411_edited_by';
import * as migration_20261129_000536_versions from './20261129_000536_versions';

export const migrations = [
  {
    up: migration_20261125_062146_initial.up,
    down: migration_20261125_062146_initial.down,
    name: '20261125_062146_initial',
  },
  {
    up: migration_20261125_062357_service_objects.up,
    down: migration_20261125_062357_service_objects.down,
    name: '20261125_062357_service_objects',
  },
  {
    up: migration_20261125_071500_search_meaning.up,
    down: migration_20261125_071500_search_meaning.down,
    name: '20261125_071500_search_meaning',
  },
  {
    up: migration_20261127_054909_slug_claims.up,
    down: migration_20261127_054909_slug_claims.down,
    name: '20261127_054909_slug_claims',
  },
  {
    up: migration_20261127_090000_text_changes.up,
    down: migration_20261127_090000_text_changes.down,
    name: '20261127_090000_text_changes',
  },
  {
    up: migration_20261127_100000_public_text_index.up,
    down: migration_20261127_100000_public_text_index.down,
    name: '20261127_100000_public_text_index',
  },
  {
    up: migration_20261127_110000_public_content_version.up,
    down: migration_20261127_110000_public_content_version.down,
    name: '20261127_110000_public_content_version',
  },
  {
    up: migration_20261127_120000_content_row_changes.up,
    down: migration_20261127_120000_content_row_changes.down,
    name: '20261127_120000_content_row_changes',
  },
  {
    up: migration_20261127_150000_unchanged_text_skips.up,
    down: migration_20261127_150000_unchanged_text_skips.down,
    name: '20261127_150000_unchanged_text_skips',
  },
  {
    up: migration_20261128_200642_access_standing.up,
    down: migration_20261128_200642_access_standing.down,
    name: '20261128_200642_access_standing',
  },
  {
    up: migration_20261128_222411_edited_by.up,
    down: migration_20261128_222411_edited_by.down,
    name: '20261128_222411_edited_by',
  },
  {
    up: migration_20261129_000536_versions.up,
    down: migration_20261129_000536_versions.down,
    name: '20261129_000536_versions'
  },
];
