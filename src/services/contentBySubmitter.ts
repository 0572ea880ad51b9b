/**
 * GET /auth/me/submissions: the caller's own items in every status, newest first
 * (createdAt desc, id desc), paginated like /content. Soft-deleted items follow the rule
 * everywhere else: listed only to callers holding content.delete.
 */
import type { Payload } from 'payload'

import { hasPermissions, type AuthUser } from '../../access/guards'
import { type Pagination, paginationOf } from '../platform/pagination'
import { engine } from '../db/engine'
import { getTaxonomy } from './catalog'
import { type ContentDto, toContentDto } from './content'

export async function listOwnSubmissions(
  payload: Payload,
  user: AuthUser,
  page: { offset: number; limit: number },
): Promise<{ data: ContentDto[]; pagination: Pagination }> {
  const [result, taxonomy] = await Promise.all([
    engine().contentStore(payload).listSubmissions({
      submitterId: user.id,
      includeInactive: hasPermissions(user, ['content.delete']),
      offset: page.offset,
      limit: page.limit,
    }),
    getTaxonomy(payload),
  ])
  return {
    data: result.rows.map((r) => toContentDto(r, taxonomy)),
    pagination: paginationOf(page, result.rows.length, result.total),
  }
}
