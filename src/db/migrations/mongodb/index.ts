import * as migration_20261125_062744_service_indexes from './20261125_062744_service_indexes';

export const migrations = [
  {
    up: migration_20261125_062744_service_indexes.up,
    down: migration_20261125_062744_service_indexes.down,
    name: '20261125_062744_service_indexes'
  },
];
