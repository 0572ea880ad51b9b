/**
 * The demo deployment's taxonomy, written for this project: two surfaces, four groups, twelve
 * channels, seven platforms (each with the hosts its URLs live on) and tags over every facet.
 */

export type DemoSurface = { slug: string; label: string; routePrefix: string; browseMode: 'grid' | 'list' | 'feed'; accentColor: string }
export type DemoGroup = { surface: string; slug: string; label: string; color: string; channels: { slug: string; label: string }[] }
export type DemoPlatform = { slug: string; label: string; color: string; format: string; source: string }

export const DEMO_SURFACES: DemoSurface[] = [
  { slug: 'learn', label: 'Learn', routePrefix: '/learn', browseMode: 'grid', accentColor: '#2563eb' },
  { slug: 'discover', label: 'Discover', routePrefix: '/discover', browseMode: 'feed', accentColor: '#db2777' },
]

export const DEMO_GROUPS: DemoGroup[] = [
  {
    surface: 'learn',
    slug: 'programming',
    label: 'Programming',
    color: '#1d4ed8',
    channels: [
      { slug: 'web', label: 'Web development' },
      { slug: 'systems', label: 'Systems programming' },
      { slug: 'languages', label: 'Languages & tooling' },
    ],
  },
  {
    surface: 'learn',
    slug: 'data',
    label: 'Data',
    color: '#0891b2',
    channels: [
      { slug: 'databases', label: 'Databases' },
      { slug: 'ml', label: 'Machine learning' },
      { slug: 'analytics', label: 'Analytics & visualisation' },
    ],
  },
  {
    surface: 'discover',
    slug: 'design',
    label: 'Design',
    color: '#9333ea',
    channels: [
      { slug: 'visual', label: 'Visual design' },
      { slug: 'ux', label: 'UX research' },
      { slug: 'type', label: 'Typography' },
    ],
  },
  {
    surface: 'discover',
    slug: 'science',
    label: 'Science',
    color: '#16a34a',
    channels: [
      { slug: 'physics', label: 'Physics' },
      { slug: 'maths', label: 'Mathematics' },
      { slug: 'space', label: 'Space & astronomy' },
    ],
  },
]

/** `format` and `source` are the tags (format and source-type facets) every item on the platform carries. */
export const DEMO_PLATFORMS: DemoPlatform[] = [
  { slug: 'youtube', label: 'YouTube', color: '#ff0000', format: 'video', source: 'community' },
  { slug: 'github', label: 'GitHub', color: '#24292f', format: 'repository', source: 'open-source' },
  { slug: 'blog', label: 'Blog', color: '#f59e0b', format: 'article', source: 'independent' },
  { slug: 'podcast', label: 'Podcast', color: '#8b5cf6', format: 'episode', source: 'independent' },
  { slug: 'docs', label: 'Documentation', color: '#0f766e', format: 'reference', source: 'official-docs' },
  { slug: 'paper', label: 'Paper', color: '#b91c1c', format: 'paper', source: 'academic' },
  { slug: 'course', label: 'Online course', color: '#0369a1', format: 'course', source: 'vendor' },
]

/** Tags by facet key; labels are derived (`colour-theory` → "Colour theory") unless given. */
export const DEMO_TAGS: Record<string, (string | [string, string])[]> = {
  topic: [
    'javascript', ['typescript', 'TypeScript'], ['css', 'CSS'], 'react', 'rust', ['go', 'Go'], 'python', ['sql', 'SQL'],
    ['postgresql', 'PostgreSQL'], 'performance', 'security', 'accessibility', 'machine-learning', 'statistics',
    'data-visualisation', 'typography', 'colour-theory', 'user-research', 'prototyping', 'quantum-mechanics',
    'relativity', 'linear-algebra', 'probability', 'astronomy', 'spaceflight', 'concurrency', 'compilers', ['llm', 'LLMs'],
  ],
  format: ['video', 'repository', 'article', 'episode', 'reference', 'paper', 'course'],
  level: ['beginner', 'intermediate', 'advanced'],
  'source-type': ['community', 'open-source', 'independent', 'official-docs', 'academic', 'vendor'],
  unclassified: ['classic', 'deep-dive', 'hands-on', 'opinion'],
}

export const tagLabel = (entry: string | [string, string]): { slug: string; label: string } => {
  if (Array.isArray(entry)) return { slug: entry[0], label: entry[1] }
  const words = entry.split('-').join(' ')
  return { slug: entry, label: words[0]!.toUpperCase() + words.slice(1) }
}

/** The demo's members who submitted the resources (password: DEMO_MEMBER_PASSWORD, documented in docs/operations.md). */
export const DEMO_MEMBERS = [
  { email: 'maya.okafor@demo.example', username: 'maya_okafor' },
  { email: 'lucas.brandt@demo.example', username: 'lucasbrandt' },
  { email: 'priya.raman@demo.example', username: 'priya.r' },
  { email: 'tomas.silva@demo.example', username: 'tsilva' },
  { email: 'hannah.lee@demo.example', username: 'hannahlee' },
]
export const DEMO_MEMBER_PASSWORD = 'demo-member-password'
