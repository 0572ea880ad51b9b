/** The starting facets, created at start-up when missing; every tag belongs to one. */
export const STARTING_FACETS = [
  { key: 'topic', label: 'Topic', color: '#2563eb' },
  { key: 'format', label: 'Format', color: '#7c3aed' },
  { key: 'level', label: 'Level', color: '#059669' },
  { key: 'source-type', label: 'Source type', color: '#d97706' },
  { key: 'unclassified', label: 'Unclassified', color: '#6b7280' },
] as const
