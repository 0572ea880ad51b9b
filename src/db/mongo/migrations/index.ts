import * as migration_20261125_062744_service_indexes from './20261125_062744_service_indexes';
import * as migration_20261127_060000_slug_claims from './20261127_060000_slug_claims';
import * as migration_20261127_130000_list_sort_indexes from './20261127_130000_list_sort_indexes';
import * as migration_20261127_140000_url_key_backfill from './20261127_140000_url_key_backfill';
import * as migration_20261128_230000_admin_list_sort from './20261128_230000_admin_list_sort';
import * as migration_20261129_090000_content_pre_images from './20261129_090000_content_pre_images';

export const migrations = [
  {
    up: migration_20261125_062744_service_indexes.up,
    down: migration_20261125_062744_service_indexes.down,
    name: '20261125_062744_service_indexes'
  },
  {
    up: migration_20261127_060000_slug_claims.up,
    down: migration_20261127_060000_slug_claims.down,
    name: '20261127_060000_slug_claims'
  },
  {
    up: migration_20261127_130000_list_sort_indexes.up,
    down: migration_20261127_130000_list_sort_indexes.down,
    name: '20261127_130000_list_sort_indexes'
  },
  {
    up: migration_20261127_140000_url_key_backfill.up,
    down: migration_20261127_140000_url_key_backfill.down,
    name: '20261127_140000_url_key_backfill'
  },
  {
    up: migration_20261128_230000_admin_list_sort.up,
    down: migration_20261128_230000_admin_list_sort.down,
    name: '20261128_230000_admin_list_sort'
  },
  {
    up: migration_20261129_090000_content_pre_images.up,
    down: migration_20261129_090000_content_pre_images.down,
    name: '20261129_090000_content_pre_images'
  },
];
