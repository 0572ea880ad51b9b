/**
 * The demo's resources, generated deterministically from hand-written parts: each channel's
 * subjects (src/seed/demoSubjects.ts) × per-platform title and description templates, with
 * URLs on the hosts each platform really uses, tags that follow from subject, platform and
 * template, and the three moderation states spread the way a real queue looks.
 */
import { DEMO_GROUPS, DEMO_MEMBERS, DEMO_PLATFORMS } from './demoTaxonomy'
import { PLATFORMS_BY_GROUP, SUBJECTS } from './demoSubjects'
import { rng, type Rng } from './random'

export type DemoStatus = 'approved' | 'pending' | 'rejected'

export type DemoResource = {
  title: string
  description: string
  url: string
  group: string
  channel: string
  platform: string
  tags: string[]
  status: DemoStatus
  rejectionReason: string | null
  /** Index into DEMO_MEMBERS. */
  submitter: number
  /** Days before "now" it was submitted (fractional). */
  ageDays: number
  /** Hours after submission it was approved (approved items only). */
  approvedAfterHours: number
}

type Subject = { name: string; about: string; topics: string[]; slug: string; channel: string; group: string }
type Template = { title: string; description: string; level: 'beginner' | 'intermediate' | 'advanced'; extra?: string }


const slugify = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

const TEMPLATES: Record<string, Template[]> = {
  youtube: [
    { title: '{S} explained', description: 'A clear, well-paced video on {about}, with diagrams throughout.', level: 'beginner' },
    { title: '{S} in 15 minutes', description: 'A fast tour of {about}; good as a first look before reading further.', level: 'beginner' },
    { title: 'An introduction to {S}', description: 'Lecture recording on {about}. Slides and exercises are linked under the video.', level: 'beginner' },
    { title: '{S}: a visual guide', description: 'Animated walkthrough of {about}, built up one idea at a time.', level: 'intermediate' },
    { title: '{S}, the talk I wish I had seen earlier', description: 'Conference talk on {about}, with the mistakes the speaker made along the way.', level: 'intermediate', extra: 'opinion' },
    { title: 'Deep dive: {S}', description: 'A long, detailed session on {about}; assumes you know the basics.', level: 'advanced', extra: 'deep-dive' },
    { title: 'Live session: {S} from scratch', description: 'Two hours of building something real while explaining {about}.', level: 'intermediate', extra: 'hands-on' },
  ],
  github: [
    { title: 'awesome-{slug}: a curated list of {S} resources', description: 'Community-maintained list of articles, tools and talks about {about}.', level: 'beginner' },
    { title: '{slug}-by-example: runnable {S} examples', description: 'Small, self-contained examples of {about}, each with tests.', level: 'intermediate', extra: 'hands-on' },
    { title: '{slug}-playground: experiment with {S}', description: 'An interactive playground for {about}; clone it and change the parameters.', level: 'beginner', extra: 'hands-on' },
    { title: '{slug}-notes: study notes on {S}', description: 'Well-organised notes and exercises on {about}, written while learning it.', level: 'intermediate' },
    { title: '{slug}-internals: {S} under the hood', description: 'A from-scratch implementation with comments that explain {about}.', level: 'advanced', extra: 'deep-dive' },
  ],
  blog: [
    { title: 'A gentle introduction to {S}', description: 'Starts from nothing and covers {about}, with examples you can copy.', level: 'beginner' },
    { title: 'What I learned about {S} after five years', description: 'A practitioner’s notes on {about}: what held up and what did not.', level: 'intermediate', extra: 'opinion' },
    { title: '{S}: common mistakes and how to avoid them', description: 'The pitfalls that come up again and again with {about}, and the fixes.', level: 'intermediate' },
    { title: 'Notes on {S}', description: 'Short, dense notes on {about}, with links to the primary sources.', level: 'intermediate' },
    { title: 'The case for {S}', description: 'An argument, with evidence, for taking {about} seriously.', level: 'intermediate', extra: 'opinion' },
    { title: 'Demystifying {S}', description: 'Takes the jargon out of {about} and rebuilds it from first principles.', level: 'beginner' },
    { title: '{S} in practice', description: 'A worked example of {about} on a real project, warts and all.', level: 'intermediate', extra: 'hands-on' },
    { title: 'Everything I know about {S}', description: 'A long-form essay on {about}, updated as the author learns more.', level: 'advanced', extra: 'deep-dive' },
  ],
  podcast: [
    { title: 'Episode {n}: {S} with {guest}', description: 'An hour-long conversation with {guest} on {about}.', level: 'intermediate' },
    { title: '{show} #{n} — {S}', description: 'The hosts dig into {about}, with listener questions at the end.', level: 'intermediate' },
    { title: '{S}, with {guest}', description: '{guest} explains {about} and the stories behind it.', level: 'beginner' },
  ],
  docs: [
    { title: '{S} — reference', description: 'The official reference on {about}, with every option listed.', level: 'intermediate', extra: 'classic' },
    { title: '{S}: official guide', description: 'The maintainers’ guide to {about}, from first steps to edge cases.', level: 'beginner' },
    { title: 'Getting started with {S}', description: 'The official getting-started page: {about}, step by step.', level: 'beginner', extra: 'hands-on' },
  ],
  paper: [
    { title: 'A survey of {S}', description: 'A survey paper covering {about}, with an extensive bibliography.', level: 'advanced', extra: 'deep-dive' },
    { title: 'Revisiting {S}', description: 'Research paper that re-examines {about} with new experiments.', level: 'advanced' },
    { title: '{S}: a tutorial review', description: 'A review written for newcomers to the field: {about}.', level: 'intermediate', extra: 'classic' },
  ],
  course: [
    { title: '{S} for beginners', description: 'A self-paced course on {about}, with quizzes and a certificate.', level: 'beginner' },
    { title: '{S}: a hands-on course', description: 'Six weeks of projects on {about}; each week ends with an assignment.', level: 'intermediate', extra: 'hands-on' },
    { title: 'Mastering {S}', description: 'An advanced course on {about}, for people who already use it at work.', level: 'advanced', extra: 'deep-dive' },
  ],
}

// Authors and guests are invented: the demo must not put words in real people's mouths.
const AUTHORS = ['nadiakerr', 'owenhale', 'amira-codes', 'jpvance', 'lindqvist', 'rosa-mendel', 'theo.builds', 'kaitoyama', 'benfordham', 'ileana-d', 'marcusreid', 'sofiaprat', 'devikashah', 'quentinlo', 'elodiebrun', 'ravi-n']
const ORGS = ['learn-labs', 'openbooks-dev', 'datatalks', 'practical-dev', 'fieldnotes', 'studygroup-io', 'pixelcraft', 'opensci']
const GUESTS: Record<string, string[]> = {
  programming: ['Ines Varga', 'Tobias Reinholt', 'Grace Adeyemi', 'Marco Bellini'],
  data: ['Hana Kowalczyk', 'Dev Patel', 'Clara Monteiro', 'Samir Haddad'],
  design: ['Elena Sorensen', 'Yuki Tanabe', 'Ruth Abernathy', 'Felix Marchetti'],
  science: ['Dr Amara Osei', 'Prof. Lars Eriksen', 'Dr Mei Lin', 'Dr Jonah Weiss'],
}
const SHOWS: Record<string, string[]> = {
  programming: ['The Call Stack', 'Commit Log', 'Undefined Behaviour'],
  data: ['Data Hour', 'The Query Plan', 'Signal & Noise'],
  design: ['Pixels & People', 'Kerning Matters', 'The Research Room'],
  science: ['Orbit Notes', 'Half Life Weekly', 'Proof Positive'],
}
const title = (s: string) => s.split('-').map((w) => w[0]!.toUpperCase() + w.slice(1)).join('_')
/** The official documentation host for a subject's first topic that has one. */
const DOCS_BY_TOPIC: Record<string, (slug: string) => string> = {
  css: (s) => `https://developer.mozilla.org/en-US/docs/Web/CSS/${title(s)}`,
  javascript: (s) => `https://developer.mozilla.org/en-US/docs/Web/JavaScript/Guide/${title(s)}`,
  security: (s) => `https://developer.mozilla.org/en-US/docs/Web/Security/${title(s)}`,
  rust: (s) => `https://doc.rust-lang.org/book/${s}.html`,
  go: (s) => `https://go.dev/doc/${s}`,
  python: (s) => `https://docs.python.org/3/howto/${s}.html`,
  typescript: (s) => `https://www.typescriptlang.org/docs/handbook/${s}.html`,
  postgresql: (s) => `https://www.postgresql.org/docs/current/${s}.html`,
  sql: (s) => `https://www.sqlite.org/${s.replace(/-/g, '')}.html`,
  'machine-learning': (s) => `https://scikit-learn.org/stable/modules/${s.replace(/-/g, '_')}.html`,
  llm: (s) => `https://huggingface.co/docs/transformers/${s.replace(/-/g, '_')}`,
  'data-visualisation': (s) => `https://vega.github.io/vega-lite/docs/${s}.html`,
  accessibility: (s) => `https://www.w3.org/WAI/tutorials/${s}/`,
  'colour-theory': (s) => `https://m3.material.io/styles/${s}/overview`,
  prototyping: (s) => `https://help.figma.com/hc/en-us/articles/${s}`,
  typography: (s) => `https://fonts.google.com/knowledge/topics/${s.replace(/-/g, '_')}`,
}
const docsFor = (s: Subject) => s.topics.map((t) => DOCS_BY_TOPIC[t]).find(Boolean)
const COURSE_HOSTS = [(s: string) => `https://www.coursera.org/learn/${s}`, (s: string) => `https://www.edx.org/learn/${s}`, (s: string) => `https://www.khanacademy.org/computing/${s}`]
const BASE62 = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
const token = (r: Rng, n: number, alphabet = BASE62) => Array.from({ length: n }, () => alphabet[r.int(alphabet.length)]).join('')
const digits = (r: Rng, n: number) => token(r, n, '0123456789')
const hex = (r: Rng, n: number) => token(r, n, '0123456789abcdef')

function urlFor(platform: string, s: Subject, templateSlug: string, r: Rng): string {
  switch (platform) {
    case 'youtube':
      return `https://www.youtube.com/watch?v=${token(r, 10, `${BASE62}-_`)}${r.pick(['A', 'E', 'I', 'M', 'Q', 'U', 'Y', 'c', 'g', 'k', 'o', 's', 'w', '0', '4', '8'])}`
    case 'github':
      return `https://github.com/${r.pick([...AUTHORS, ...ORGS])}/${templateSlug}`
    case 'blog': {
      const author = r.pick(AUTHORS)
      return r.pick([
        () => `https://dev.to/${author}/${templateSlug}-${hex(r, 4)}`,
        () => `https://medium.com/@${author}/${templateSlug}-${hex(r, 12)}`,
        () => `https://${author}.substack.com/p/${templateSlug}`,
        () => `https://${author}.dev/posts/${templateSlug}/`,
        () => `https://blog.${r.pick(['cloudsmith', 'tailstack', 'fieldwork', 'northbeam', 'quanta-labs'])}.com/${new Date(Date.UTC(2021 + r.int(4), r.int(12))).toISOString().slice(0, 7).replace('-', '/')}/${templateSlug}`,
      ])()
    }
    case 'podcast':
      return r.next() < 0.5
        ? `https://podcasts.apple.com/us/podcast/${slugify(r.pick(SHOWS[s.group]!))}/id${1 + digits(r, 9)}?i=1000${digits(r, 9)}`
        : `https://open.spotify.com/episode/${token(r, 22)}`
    case 'docs':
      return docsFor(s)!(s.slug)
    case 'paper':
      return `https://arxiv.org/abs/${18 + r.int(7)}${String(1 + r.int(12)).padStart(2, '0')}.${digits(r, 5)}`
    default:
      return COURSE_HOSTS[r.int(COURSE_HOSTS.length)]!(templateSlug)
  }
}

const REJECTION_REASONS = [
  'Duplicate of a resource already in this channel.',
  'Paywalled: readers cannot open it without a subscription.',
  'Off topic for this channel.',
  'The link returns 404.',
  'Mostly an advertisement for a paid product.',
  'Outdated: covers a version that is no longer supported.',
  'Auto-generated summary of other articles; please submit the original.',
]

/** Names that keep their capital inside a sentence. */
const PROPER = new Set(['React', 'Rust', 'Go', 'Python', 'TypeScript', 'Linux', 'Figma', 'Git', 'Bayesian', 'Fourier', 'Mars', 'Core', 'Content', 'View', 'Web'])

/** "The Standard Model" → "the Standard Model", "Dark mode" → "dark mode", "CSS Grid" stays. */
function inSentence(name: string): string {
  const first = name.split(' ')[0]!
  if (first === 'The' || first === 'A') return first.toLowerCase() + name.slice(first.length)
  return /^[A-Z][a-z-]+$/.test(first) && !PROPER.has(first) ? name[0]!.toLowerCase() + name.slice(1) : name
}

function subjects(): Subject[] {
  const out: Subject[] = []
  for (const g of DEMO_GROUPS) {
    for (const c of g.channels) {
      for (const line of SUBJECTS[c.slug] ?? []) {
        const [name, about, topics] = line.split('|').map((p) => p.trim()) as [string, string, string]
        out.push({ name, about, topics: topics.split(','), slug: slugify(name), channel: c.slug, group: g.slug })
      }
    }
  }
  return out
}

/** Every demo resource, the same list on every run. */
export function demoResources(seed = 2024): DemoResource[] {
  const r = rng(seed)
  const used = new Map<string, number>()
  const titles = new Set<string>()
  const out: DemoResource[] = []
  subjects().forEach((s, k) => {
    const pool = PLATFORMS_BY_GROUP[s.group]!.filter((p) => p !== 'docs' || docsFor(s))
    const first = pool[(k * 5) % pool.length]!
    const second = pool[(k * 5 + 1 + (k % (pool.length - 1))) % pool.length]!
    for (const platform of first === second ? [first] : [first, second]) {
      const list = TEMPLATES[platform]!
      const n = used.get(platform) ?? 0
      used.set(platform, n + 1)
      const t = list[(n + k) % list.length]!
      const guest = r.pick(GUESTS[s.group]!)
      const show = r.pick(SHOWS[s.group]!)
      const fill = (text: string) =>
        text
          .replace(/(^|: |— )\{S\}/g, (_m, lead: string) => lead + s.name)
          .replaceAll('{S}', inSentence(s.name))
          .replaceAll('{slug}', s.slug)
          .replaceAll('{about}', s.about)
          .replaceAll('{guest}', guest)
          .replaceAll('{show}', show)
          .replaceAll('{n}', String(40 + r.int(260)))
      const title = fill(t.title)
      if (titles.has(title)) continue
      titles.add(title)
      const description = fill(t.description)
      const templateSlug = platform === 'github' ? title.split(':')[0]! : slugify(title).slice(0, 60).replace(/-+$/, '')
      const p = DEMO_PLATFORMS.find((x) => x.slug === platform)!
      const tags = [...new Set([...s.topics, p.format, t.level, p.source, ...(t.extra ? [t.extra] : [])])]
      // A queue that looks real: most approved, a recent pending tail, a few rejections.
      const roll = r.next()
      const status: DemoStatus = roll < 0.13 ? 'pending' : roll < 0.21 ? 'rejected' : 'approved'
      out.push({
        title,
        description,
        url: urlFor(platform, s, templateSlug, r),
        group: s.group,
        channel: s.channel,
        platform,
        tags,
        status,
        rejectionReason: status === 'rejected' ? r.pick(REJECTION_REASONS) : null,
        submitter: Math.min(DEMO_MEMBERS.length - 1, Math.floor(r.next() ** 1.6 * DEMO_MEMBERS.length)),
        ageDays: status === 'pending' ? r.next() * 12 : 3 + r.next() * 240,
        approvedAfterHours: 1 + r.next() * 47,
      })
    }
  })
  return out
}
