/**
 * A relationship (or upload) to a document that does not exist is the caller's mistake: the
 * field's validation says so (400 naming the field, on Payload REST, the console, the Local
 * API and /api/v1), instead of the database refusing the save with FOREIGN KEY constraint
 * failed (a 500). Wraps every relationship and upload field's validation, keeping Payload's own
 * checks first; the lookup runs in the save's transaction (`req`).
 */
import { validations, type CollectionConfig, type CollectionSlug, type Field, type GlobalConfig, type PayloadRequest, type Validate } from 'payload'

type RelationTo = string | string[]

/** The (collection, id) pairs a relationship value names. */
function referencesOf(value: unknown, relationTo: RelationTo): { collection: string; id: string }[] {
  const items = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value]
  return items.flatMap((item) => {
    if (typeof relationTo === 'string') {
      const id = typeof item === 'object' && item !== null && 'id' in item ? (item as { id: unknown }).id : item
      return typeof id === 'string' || typeof id === 'number' ? [{ collection: relationTo, id: String(id) }] : []
    }
    const poly = item as { relationTo?: unknown; value?: unknown } | null
    if (typeof poly?.relationTo !== 'string') return []
    const id = typeof poly.value === 'object' && poly.value !== null ? (poly.value as { id?: unknown }).id : poly.value
    return typeof id === 'string' || typeof id === 'number' ? [{ collection: poly.relationTo, id: String(id) }] : []
  })
}

/** The referenced ids that name no document. */
async function missingReferences(req: PayloadRequest, refs: { collection: string; id: string }[]): Promise<string[]> {
  const byCollection = new Map<string, string[]>()
  for (const r of refs) byCollection.set(r.collection, [...(byCollection.get(r.collection) ?? []), r.id])
  const missing: string[] = []
  for (const [collection, ids] of byCollection) {
    const unique = [...new Set(ids)]
    const found = await req.payload.find({
      collection: collection as CollectionSlug,
      where: { id: { in: unique } },
      depth: 0,
      limit: unique.length,
      pagination: false,
      overrideAccess: true,
      select: {},
      req,
    })
    const present = new Set(found.docs.map((d) => String(d.id)))
    missing.push(...unique.filter((id) => !present.has(id)))
  }
  return missing
}

function withExistenceCheck(field: Field & { type: 'relationship' | 'upload'; relationTo: RelationTo }): Field {
  const own = field.validate as Validate | undefined
  const builtIn = validations[field.type] as unknown as Validate
  const validate: Validate = async (value, options) => {
    const first = await (own ?? builtIn)(value, options)
    if (first !== true) return first
    // While the form is being edited the admin panel validates on change: no lookups then.
    if ((options as { event?: string }).event === 'onChange') return true
    const refs = referencesOf(value, field.relationTo)
    if (refs.length === 0) return true
    const missing = await missingReferences(options.req, refs)
    return missing.length === 0 ? true : `No document with the id ${missing.join(', ')} exists for this field.`
  }
  return { ...field, validate } as Field
}

function checkFields(fields: Field[]): Field[] {
  return fields.map((field) => {
    if ((field.type === 'relationship' || field.type === 'upload') && 'relationTo' in field) return withExistenceCheck(field as never)
    if ('fields' in field && Array.isArray(field.fields)) return { ...field, fields: checkFields(field.fields) } as Field
    if (field.type === 'tabs') return { ...field, tabs: field.tabs.map((tab) => ({ ...tab, fields: checkFields(tab.fields) })) }
    if (field.type === 'blocks') return { ...field, blocks: field.blocks.map((b) => ({ ...b, fields: checkFields(b.fields) })) }
    return field
  })
}

export const withRelationshipChecks = <T extends CollectionConfig | GlobalConfig>(configs: T[]): T[] =>
  configs.map((c) => ({ ...c, fields: checkFields(c.fields) }))
